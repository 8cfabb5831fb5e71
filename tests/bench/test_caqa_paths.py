"""Path questions from any graph, and graphs linked by name."""

from __future__ import annotations

import pytest

from kgcite.bench.caqa import CaqaBuilder
from kgcite.bench.caqa_paths import link_by_name, path_samples
from kgcite.bench.caqa_query import TripleIndex, answers
from kgcite.bench.synthetic import synthetic_graph
from kgcite.kg.model import Triple

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def test_path_questions_reproduce_their_answers() -> None:
    index = TripleIndex(synthetic_graph(4))
    samples = path_samples(index, 60, 0)
    assert len(samples) == 60
    assert {len(s.query.patterns) for s in samples} == {1, 2, 3}
    for s in samples:
        assert answers(index, s.query) == set(s.answers) and 1 <= len(s.answers) <= 5
        assert s.question.endswith("?") and "_" not in s.question


def test_build_from_path_questions_is_byte_identical_for_a_seed() -> None:
    index = TripleIndex(synthetic_graph(5))
    samples = path_samples(index, 40, 0)
    one = [s.to_dict() for s in CaqaBuilder(index, seed=7).build_all(samples)]
    two = [s.to_dict() for s in CaqaBuilder(index, seed=7).build_all(samples)]
    other = [s.to_dict() for s in CaqaBuilder(index, seed=8).build_all(samples)]
    assert one == two and one != other
    assert {r["category"] for r in one} == {"supportive", "partially_supportive", "contradictory", "irrelevant"}


def test_link_by_name_links_unique_names_only() -> None:
    triples = [
        Triple("Q1", "Ann Vale", "father", "Tom Vale"),
        Triple("Q2", "Tom Vale", "born in", "Harrowgate"),
        Triple("Q3", "John Marsh", "sibling", "Kit Marsh"),
        Triple("Q4", "Kit Marsh", "spouse", "John Marsh"),
        Triple("Q5", "John Marsh", "born in", "Leeds"),
    ]
    linked = {(t.subject_id, t.relation): t.object_id for t in link_by_name(triples)}
    assert linked[("Q1", "father")] == "Q2"
    assert linked[("Q4", "spouse")] is None  # two John Marshes: no guess
    assert linked[("Q2", "born in")] is None
