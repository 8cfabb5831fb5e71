"""ToG-E over a real embedded store with the real MiniLM bi-encoder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kgcite.kg import EmbeddedStore
from kgcite.models.embed import OnnxMiniLM
from kgcite.retrieve.neighbourhood import khop_neighbourhood
from kgcite.retrieve.scoring import BM25Scorer, EmbeddingScorer, HybridScorer, content_stems, coverage
from kgcite.retrieve.tog_e import ToGE, ToGEConfig, focus_stems
from kgcite.retrieve.topics import bracketed_topics
from kgcite.text.lexicon import stem

KB = """\
Jaws|directed_by|Steven Spielberg
Jaws|in_language|English
Jaws|starred_actors|Roy Scheider
Jaws|release_year|1975
Duel|directed_by|Steven Spielberg
Duel|in_language|English
Duel|release_year|1971
Duel|starred_actors|Dennis Weaver
Munich|directed_by|Steven Spielberg
Munich|in_language|Hebrew
Munich|starred_actors|Eric Bana
Troy|starred_actors|Eric Bana
Troy|directed_by|Wolfgang Petersen
Troy|in_language|Greek
Das Boot|directed_by|Wolfgang Petersen
Das Boot|in_language|German
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kb") / "kb.txt"
    path.write_text(KB)
    return path


@pytest.fixture(scope="module")
def store(kb: Path) -> EmbeddedStore:
    s = EmbeddedStore()
    s.load(kb)
    return s


def test_word_forms_and_focus() -> None:
    assert stem("directors") == stem("directed") == "direct"
    assert stem("starred") == stem("stars") == "star"
    assert coverage("written by", content_stems("the scriptwriter of X also wrote which films")) == 1.0
    assert coverage("starred actors", content_stems("who directed X")) == 0.0
    assert focus_stems("the films of [X] were in which languages") == ["languag"]
    assert bracketed_topics("who directed [Jaws] and [Duel]") == ["Jaws", "Duel"]


def test_bm25_prefers_the_text_sharing_rare_question_words() -> None:
    s = BM25Scorer().scores("which language is it in", ["in language", "release year", "directed by"])
    assert s.argmax() == 0 and s[1] == 0.0


def test_embedding_scores_are_cached(embedder: OnnxMiniLM) -> None:
    scorer = EmbeddingScorer(embedder)
    first = scorer.scores("who directed it", ["directed by", "in language"])
    n = scorer.encoded
    again = scorer.scores("who directed it", ["in language", "directed by"])
    assert scorer.encoded == n and again[1] == pytest.approx(first[0])


def test_two_hop_path_reaches_the_answer_without_llm(store: EmbeddedStore, embedder: OnnxMiniLM) -> None:
    search = ToGE(store, HybridScorer(EmbeddingScorer(embedder)), ToGEConfig(width=3, depth=2))
    r = search.search("the films directed by [Steven Spielberg] were in which languages")
    assert r.llm_calls == 0 and [t.id for t in r.topics] == ["Steven Spielberg"]
    top = r.paths[0]
    assert [h.triple.relation for h in top.hops] == ["directed_by", "in_language"]
    assert top.hops[0].inverse and not top.hops[1].inverse
    assert top.end_label in {"English", "Hebrew"}
    assert {"English", "Hebrew"} <= r.entity_ids()
    assert all(t in r.graph for p in r.paths for t in (h.triple for h in p.hops))


def test_beam_width_and_hub_cap_bound_the_search(store: EmbeddedStore, embedder: OnnxMiniLM) -> None:
    search = ToGE(store, HybridScorer(EmbeddingScorer(embedder)), ToGEConfig(width=1, depth=3, max_neighbours=1))
    r = search.search("which languages", topics=["Steven Spielberg"])
    assert len(r.paths) == 1 and len(r.paths[0].hops) <= 3
    assert r.stats["neighbour_queries"] <= 3  # one relation per entity, one entity per relation
    path_entities = [h.target_id for h in r.paths[0].hops]
    assert len(set(path_entities)) == len(path_entities)  # no cycles back to visited entities


def test_unknown_topic_is_a_clear_error(store: EmbeddedStore) -> None:
    search = ToGE(store, BM25Scorer())
    with pytest.raises(ValueError, match="'Nobody' is not in the graph"):
        search.search("who directed [Nobody]")
    with pytest.raises(ValueError, match="no topic entity"):
        search.search("who directed it")


def test_khop_baseline_is_breadth_first_and_truncated(store: EmbeddedStore) -> None:
    topic = store.entity("Jaws")
    assert topic is not None
    one = khop_neighbourhood(store, [topic], 1, 100)
    assert len(one) == 4 and all(t.subject_id == "Jaws" for t in one)
    two = khop_neighbourhood(store, [topic], 2, 6)
    assert len(two) == 6 and set(one.keys) <= set(two.keys)


def test_cli_json_contract(kb: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "kgcite.cli",
            "retrieve",
            "tog-e",
            "--kg",
            str(kb),
            "--question",
            "which languages are the films directed by Steven Spielberg in",
            "--topic",
            "Steven Spielberg",
            "--depth",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert data["llm_calls"] == 0 and isinstance(data["ms"], float)
    assert ["Jaws", "directed_by", "Steven Spielberg"] in data["triples"]
    assert all(len(p) % 2 == 1 and p[0] == "Steven Spielberg" for p in data["paths"])
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "kgcite.cli",
            "retrieve",
            "tog-e",
            "--kg",
            str(kb),
            "--question",
            "x",
            "--topic",
            "Nobody",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "Nobody" in bad.stderr
