"""Alignment scores a conclusion by recomputing it from the triples its sentence cites."""

from __future__ import annotations

import pytest

from kgcite.evaluate.metrics.alignment import AttributionScorer
from kgcite.generate.citations import parse_answer
from kgcite.judge.support import SupportJudge
from kgcite.kg.model import Entity, Subgraph, Triple

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`

GRAPH = Subgraph(
    (Entity("VC", "Vellmoor Central"), Entity("TJ", "Tarn Junction")),
    (Triple("VC", "Vellmoor Central", "opened", "1872-04-15"), Triple("TJ", "Tarn Junction", "opened", "1885-09-01")),
)
FACTS = "Vellmoor Central opened April 15, 1872 [VC, opened: 1872-04-15]. Tarn Junction opened September 1, 1885 [TJ, opened: 1885-09-01]."


def judgments(conclusion: str) -> list[bool]:
    answer = parse_answer(f"{FACTS} {conclusion} [VC, opened: 1872-04-15][TJ, opened: 1885-09-01]", GRAPH)
    return AttributionScorer(SupportJudge()).alignment_judgments([answer], [GRAPH])[0]


def test_a_right_conclusion_is_aligned_pair_by_pair() -> None:
    assert judgments("So Vellmoor Central is older.") == [True, True, True, True]


def test_a_wrong_conclusion_is_not() -> None:
    assert judgments("So Tarn Junction is older.") == [True, True, False, False]
