"""Synthetic graphs: deterministic, varied, and made of what graphs are made of."""

from __future__ import annotations

import pytest

from kgcite.bench.synthetic import SyntheticConfig, synthetic_graph

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def test_same_seed_same_graph_other_seed_other_relations() -> None:
    a, b = synthetic_graph(1), synthetic_graph(1)
    assert a == b and len(a) > 500
    relations = [{t.relation for t in synthetic_graph(s)} for s in range(1, 6)]
    assert len({frozenset(r) for r in relations}) == 5
    assert all(len(r) >= SyntheticConfig().relations for r in relations)


def test_links_dates_and_names() -> None:
    triples = synthetic_graph(3)
    subjects = {t.subject_id for t in triples}
    assert sum(t.object_id in subjects for t in triples) > len(triples) / 3  # multi-hop walks exist
    assert any(t.object_id is None and t.object_value[:4].isdigit() for t in triples)  # dates
    assert all(t.subject_label and t.object_value for t in triples)
