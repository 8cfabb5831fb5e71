"""Evolutionary question generation on the shipped BioKaLMA graph: the selection formula, the
template floor, the real SmolLM2 with forced-decoding perplexity, and the datasets it writes
going through `kgcite run` and `kgcite eval citations` unchanged."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

from kgcite.bench.kalma import EvolutionaryBuilder, Seed, relation_counts, simple_sentence
from kgcite.generate.citations import parse_answer
from kgcite.kg import EmbeddedStore
from kgcite.kg.model import Subgraph, Triple
from kgcite.models.llamacpp import LlamaCppLLM
from kgcite.text.values import states_value
from tests.helpers import kgcite


def test_three_sentence_templates() -> None:
    t = lambda r: Triple("Q1", "Ada", r, "X")
    assert simple_sentence(t("place of birth")) == "Ada's place of birth is X."
    assert simple_sentence(t("member of")) == "Ada is member of X."
    assert simple_sentence(t("participated in")) == "Ada participated in X."


def test_specificity_is_log_2n_over_count() -> None:
    pools = [
        Subgraph((), (Triple("a", "A", "sex", "f"), Triple("a", "A", "award", "x"))),
        Subgraph((), (Triple("b", "B", "sex", "m"),)),
    ]
    counts = relation_counts(pools)
    assert counts == Counter({"sex": 2, "award": 1})
    b = EvolutionaryBuilder(None, counts, 2)
    assert b.specificity("sex") == pytest.approx(math.log(2)) and b.specificity("award") == pytest.approx(math.log(4))
    scores, perp = b.scores("", list(pools[0].triples))
    assert scores[1] > scores[0] and perp == [None, None]  # no LLM: specificity alone


def test_the_label_triple_is_never_knowledge_to_ask_for() -> None:
    pool = Subgraph((), (Triple("Q1", "Ada", "name", "Ada"), Triple("Q1", "Ada", "occupation", "writer")))
    e = EvolutionaryBuilder(None, relation_counts([pool]), 1).build("e1", Seed("s", ("Q1",)), pool)
    assert e.knowledge == [("Q1", "occupation", "writer")] and e.notes == ["pool exhausted after round 1"]


def crane(store: EmbeddedStore) -> Subgraph:
    g = store.one_hop("Q206534")
    return Subgraph(g.entities, tuple(t for t in g.triples if t.subject_id == "Q206534"))


def test_template_floor_builds_five_rounds(biokalma_store: EmbeddedStore) -> None:
    pool = crane(biokalma_store)
    e = EvolutionaryBuilder(None, relation_counts([pool]), 1).build("e1", Seed("s", ("Q206534",)), pool)
    assert len(e.knowledge) == len(set(e.knowledge)) == 5 and [r["round"] for r in e.rounds] == [1, 2, 3, 4, 5]
    assert set(e.knowledge) <= pool.keys
    cited = [t.key for t in parse_answer(e.annotated, pool).cited_triples()]
    assert cited == e.knowledge  # the annotated paragraph cites exactly the minimum set, in order
    assert all(states_value(e.paragraph, k[2]) for k in e.knowledge)
    assert e.specific_question.endswith("?") and "Stephen Crane" in e.specific_question


def test_smollm_rounds_use_perplexity(biokalma_store: EmbeddedStore, smollm: LlamaCppLLM) -> None:
    pool = crane(biokalma_store)
    b = EvolutionaryBuilder(smollm, relation_counts([pool]), 1, rounds=3, shortlist=3)
    seed = Seed("s", ("Q206534",), "Stephen Crane was an American writer born in Newark.")
    e = b.build("e1", seed, pool)
    assert len(e.knowledge) >= 3 and set(e.knowledge) <= pool.keys
    later = [r for r in e.rounds if r["round"] >= 2]
    assert len(later) == 2 and all(r["perplexity"] is not None and r["perplexity"] > 1 for r in later)
    assert e.paragraph.startswith(seed.paragraph)
    assert all(states_value(e.paragraph, k[2]) for k in e.knowledge)  # whatever the model wrote


def test_build_kalma_then_run_and_eval(tmp_path: Path) -> None:
    out = tmp_path / "kalma.jsonl"
    res = kgcite(
        "build", "kalma", "--entity", "Q206534", "--entity", "Q58051", "--no-llm", "--out", str(out), "--no-cache"
    )
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 2 and all(len(r["minimum_knowledge"]) == 5 and r["kg"] for r in rows)
    again = kgcite(
        "build", "kalma", "--entity", "Q206534", "--entity", "Q58051", "--no-llm", "--out", str(out), "--no-cache"
    )
    assert "0 entries built, 2 already there" in again.stdout
    answers = tmp_path / "answers.jsonl"
    run = kgcite("run", "--dataset", str(out), "--out", str(answers), "--no-rewrite", "--no-cache")
    assert run.returncode == 0, run.stderr
    report = kgcite("eval", "citations", "--answers", str(answers), "--json")
    assert report.returncode == 0, report.stderr
    r = json.loads(report.stdout)
    assert r["n_answers"] == 2 and r["recall_micro"] is not None  # minimum sets reach the metrics
    bad = kgcite("build", "kalma", "--entity", "Q0", "--out", str(tmp_path / "x.jsonl"), "--no-llm", "--no-cache")
    assert bad.returncode == 2 and "'Q0'" in bad.stderr


def test_a_paragraph_sentence_with_leaked_prompt_text_or_praise_falls_back_to_the_template() -> None:
    builder = EvolutionaryBuilder(None, Counter(), 1)
    t = Triple("Q206534", "Stephen Crane", "place of birth", "Newark")
    assert builder._sentence(t, "Generated Answer: Stephen Crane was born in Newark.", []) == (
        "Stephen Crane was born in Newark.",
        False,
    )
    assert builder._sentence(t, "The renowned Stephen Crane was born in Newark.", [])[1] is False
    assert builder._sentence(t, "He was born in Newark.", ["Stephen Crane was a writer."]) == (
        "He was born in Newark.",
        True,
    )
