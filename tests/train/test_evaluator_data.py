"""Training rows from several graphs, balanced by graph and category."""

from __future__ import annotations

from collections import Counter

import pytest

from kgcite.bench.synthetic import synthetic_graph
from kgcite.train.evaluator_data import balanced_mix, graph_rows, rows_from_triples, synthetic_rows


def test_synthetic_rows_name_their_graph_and_split() -> None:
    rows = synthetic_rows((1, 2), 30, 0, "train")
    assert {r["graph"] for r in rows} == {"synthetic-1", "synthetic-2"}
    assert {r["split"] for r in rows} == {"train"}


def test_test_graphs_are_never_training_graphs() -> None:
    train = {r["graph"] for r in graph_rows("synthetic", 5)}
    test = {r["graph"] for r in graph_rows("synthetic", 5, test=True)}
    assert train and test and not train & test


def test_balanced_mix_is_even_across_graphs_and_categories() -> None:
    rows = synthetic_rows((1,), 80, 0) + rows_from_triples("other", synthetic_graph(9), 80)
    for r in rows:
        r["graph"] = "a" if r["graph"].startswith("synthetic") else "b"
    mix = balanced_mix(rows, 80, 0)
    counts = Counter((r["graph"], r["category"]) for r in mix)
    assert len(counts) == 8 and set(counts.values()) == {10}


def test_unknown_graph_is_named() -> None:
    with pytest.raises(ValueError, match="unknown graph 'wikidata'"):
        graph_rows("wikidata", 5)


def test_train_rows_are_the_train_split_of_each_source() -> None:
    from kgcite.train.evaluator_data import train_rows

    rows = train_rows(["synthetic"], 5)
    assert rows and {r["split"] for r in rows} == {"train"}
    assert {r["graph"] for r in rows} == {f"synthetic-{g}" for g in range(1, 7)}
