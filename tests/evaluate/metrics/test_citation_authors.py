"""``kgcite eval citations --precision-unit distinct`` agrees with the KaLMA authors' counting.

Random answers over the shipped BioKaLMA graphs (the data's own mixed spellings, ``name``
citations, wrong values and ids, duplicates, ``[NA]``, answers over empty graphs) are scored by
the real command and by an independent re-implementation written here from DESIGN.md §4 and
the authors' ``eval_recall.py``: exact string match per (qid, property, value) once the
property is canonical; precision hits counted once per distinct knowledge; answers whose graph
has no entity skipped. The reference never parses the answer text: it scores the citations the
generator wrote, so a parser slip shows up as a disagreement too.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgcite.cli.main import main
from kgcite.kg.loaders import shipped_biokalma

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`

Knowledge = tuple[str, str, str]


@cache
def biokalma_items() -> list[list[dict[str, Any]]]:
    """The entity lists of both shipped files, as the authors' scorer reads them (raw JSON)."""
    return [item[1] for path in shipped_biokalma() for item in json.loads(path.read_text(encoding="utf-8"))]


def knowledge_of(entities: list[dict[str, Any]]) -> list[Knowledge]:
    """Every (qid, key as the data spells it, value) of a graph, ``name`` included. Values with
    brackets (2 of 48,906) are left out: no bracket syntax can cite them."""
    return [
        (e["qid"], k, v)
        for e in entities
        for k, v in e.items()
        if k != "qid" and isinstance(v, str) and v.strip() and not re.search(r"[\[\]]", v)
    ]


# -- the reference: the authors' counting, written out independently -----------------------------


def canon(prop: str) -> str:
    return re.sub(r"\s+", " ", prop.replace("_", " ")).strip().casefold()


def as_knowledge(k: Knowledge) -> Knowledge:
    return (k[0].strip(), canon(k[1]), k[2].strip())


@dataclass
class Answer:
    graph: list[dict[str, Any]]
    text: str
    cited: list[Knowledge]
    minimum: list[Knowledge]


def reference(answers: list[Answer]) -> dict[str, float]:
    rows = []
    for a in answers:
        if not a.graph:  # the authors skip questions whose selected graph is empty
            continue
        graph = {as_knowledge(k) for k in knowledge_of(a.graph)}
        cited = [as_knowledge(c) for c in a.cited]
        should = {as_knowledge(m) for m in a.minimum}
        correct = [c for c in cited if c in graph]
        hits = {m for m in should if m in correct}  # once per distinct knowledge
        rows.append((len(cited), len(correct), len(hits), len(should)))
    n_cit = sum(r[0] for r in rows)
    with_cit = [r for r in rows if r[0]]
    with_m = [r for r in rows if r[3]]
    return {
        "n_answers": len(rows),
        "n_citations": n_cit,
        "correctness": sum(r[1] for r in rows) / n_cit,
        "correctness_macro": sum(r[1] / r[0] for r in with_cit) / len(with_cit),
        "precision_micro": sum(r[2] for r in rows) / n_cit,
        "precision_macro": sum(r[2] / r[0] for r in with_cit) / len(with_cit),
        "recall_micro": sum(r[2] for r in rows) / sum(r[3] for r in rows),
        "recall_macro": sum(r[2] / r[3] for r in with_m) / len(with_m),
    }


# -- random answers ------------------------------------------------------------------------------


def spellings(prop: str) -> st.SearchStrategy[str]:
    """The ways data, models and people write one property."""
    words = prop.replace("_", " ").split()
    return st.sampled_from(
        [prop, "_".join(words), " ".join(words), " ".join(words).title(), "_".join(words).upper(), "  ".join(words)]
    )


#: Values that read unambiguously after any property (no comma or colon): the wrong values.
WRONG = ["Paris", "1999-01-01", "painter", "Tuberculosis", "Stephen Crane", "female", "London"]


@st.composite
def bracket(draw: st.DrawFn, entities: list[dict[str, Any]]) -> tuple[str, list[Knowledge]]:
    """One ``[qid, p: v, ...]`` about one entity, and the citation triples it carries."""
    entity = draw(st.sampled_from(entities))
    facts = knowledge_of([entity])
    qid = entity["qid"] if draw(st.integers(0, 9)) else draw(st.sampled_from(["Q0", "Q42", "Q206534"]))
    pairs = []
    for _ in range(draw(st.integers(1, 3))):
        _, prop, value = draw(st.sampled_from(facts))
        if not draw(st.integers(0, 4)):
            value = draw(st.sampled_from(WRONG))
        pairs.append((qid, draw(spellings(prop)), value))
    return f"[{qid}, " + ", ".join(f"{p}: {v}" for _, p, v in pairs) + "]", pairs


@st.composite
def answers(draw: st.DrawFn) -> Answer:
    items = biokalma_items()
    graph = items[draw(st.integers(0, len(items) - 1))]
    if not graph:  # an answer over an empty graph: cited anyway, skipped by both scorers
        return Answer(
            [],
            "Nothing is known [NA]. It was [Q1, occupation: writer].",
            [("Q1", "occupation", "writer")],
            [("Q1", "occupation", "writer")],
        )
    facts = [f for f in knowledge_of(graph)]
    minimum = draw(st.lists(st.sampled_from(facts), min_size=1, max_size=5, unique=True))
    minimum = [(q, draw(spellings(p)), v) for q, p, v in minimum]
    parts, cited = [], []
    for i in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["cited", "cited", "cited", "duplicate", "na", "plain"]))
        if kind == "duplicate" and cited:
            parts.append(f"Claim {i} again [{cited[-1][0]}, {cited[-1][1]}: {cited[-1][2]}].")
            cited.append(cited[-1])
        elif kind in ("cited", "duplicate"):
            marks = [draw(bracket(graph)) for _ in range(draw(st.integers(1, 2)))]
            parts.append(f"Claim {i} " + "".join(m for m, _ in marks) + ".")
            cited += [k for _, ks in marks for k in ks]
        elif kind == "na":
            parts.append(f"Claim {i} is unknown [NA].")
        else:
            parts.append(f"Claim {i} cites nothing.")
    return Answer(graph, " ".join(parts), cited, minimum)


def kgcite_distinct(path: Path) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["eval", "citations", "--answers", str(path), "--json", "--precision-unit", "distinct"]) == 0
    return json.loads(out.getvalue())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(answers(), min_size=1, max_size=25))
def test_kgcite_agrees_with_the_authors_counting(tmp_path_factory: Any, batch: list[Answer]) -> None:
    path = tmp_path_factory.mktemp("answers") / "answers.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {
                    "id": str(i),
                    "question": "?",
                    "answer": a.text,
                    "kg": a.graph,
                    "minimum_knowledge": [list(m) for m in a.minimum],
                }
            )
            + "\n"
            for i, a in enumerate(batch)
        ),
        encoding="utf-8",
    )
    got = kgcite_distinct(path)
    scored = [a for a in batch if a.graph]
    if not any(a.cited for a in scored):  # nothing cited: rates undefined (the authors' script divides by zero)
        assert got["n_answers"] == len(scored) and got["correctness"] is None
        return
    want = reference(batch)
    assert got["n_no_graph"] == len(batch) - len(scored)
    for key, value in want.items():
        assert abs(got[key] - value) <= 1e-9, (key, got[key], value)
