"""The relation-disjoint split and the grounding data it is drawn over (shipped in the package)."""

from __future__ import annotations

from collections import Counter

import pytest

from kgcite.train.relation_split import held_out, property_split, read_property_names, read_simple_questions


@pytest.mark.fast
def test_a_property_and_its_inverse_share_one_split_fixed_by_the_id() -> None:
    assert property_split("P19") == property_split("R19")
    splits = Counter(property_split(f"P{i}") for i in range(1, 5001))
    assert all(abs(splits[s] / 5000 - share) < 0.03 for s, share in (("train", 0.5), ("dev", 0.25), ("test", 0.25)))
    assert [property_split(p) for p in ("P19", "P57", "P106", "P136")] == [
        property_split(p) for p in ("P19", "P57", "P106", "P136")
    ]


@pytest.mark.fast
def test_held_out_questions_never_share_a_property_with_training() -> None:
    questions = read_simple_questions()
    assert len(questions) > 20_000
    train = {q.pid for q in questions if property_split(q.pid) == "train"}
    dev, test = held_out(questions, "dev"), held_out(questions, "test")
    assert dev and test
    assert not train & {q.pid for q in dev} and not train & {q.pid for q in test}
    assert not {q.pid for q in dev} & {q.pid for q in test}
    assert max(Counter((q.pid, q.inverse) for q in dev).values()) <= 30  # genre alone is a quarter of the data
    assert held_out(questions, "dev") == dev  # the same draw every time


@pytest.mark.fast
def test_property_names_carry_labels_aliases_and_datatypes() -> None:
    names = read_property_names()
    birth = names["P19"]
    assert birth.label == "place of birth" and "born in" in birth.aliases and birth.datatype == "wikibase-item"
    assert sum(n.datatype == "wikibase-item" for n in names.values()) > 1_300
