"""Training and test pairs: the fixed SICK split, labels derived from the graph, MetaQA held out."""

from __future__ import annotations

import random

from kgcite.train.nli_data import (
    biokalma_triples,
    functional_relations,
    kg_pairs,
    label_counts,
    metaqa_pairs,
    sick_split,
    spoken_date,
)
from tests.helpers import PEOPLE


def test_sick_split_is_fixed_and_disjoint() -> None:
    train, test = sick_split("train"), sick_split("test")
    assert len(train) + len(test) == 9927 and len(test) == 1982
    assert set(label_counts(test)) == {"entailment", "neutral", "contradiction"}


def test_kg_pair_labels_follow_the_graph() -> None:
    triples = PEOPLE
    assert functional_relations(triples) == frozenset({"place of birth"})
    pairs = kg_pairs(triples, n_premises=200, seed=1)
    for p in pairs:
        rel, value = p.hypothesis.split(": ", 1)
        if p.label == "entailment":
            assert value in p.premise
        if p.label == "contradiction":
            assert rel == "place of birth"  # only a functional property can be contradicted
            assert value not in p.premise
    assert set(label_counts(pairs)) == {"entailment", "neutral", "contradiction"}
    assert all(c > 0 for c in label_counts(pairs).values())


def test_dates_are_spoken_sometimes() -> None:
    assert spoken_date("1871-11-01", random.Random(0)) in ("November 1, 1871", "1 November 1871")
    assert spoken_date("Newark", random.Random(0)) == "Newark"


def test_metaqa_pairs_are_deterministic_and_not_biokalma() -> None:
    a, b = metaqa_pairs(50), metaqa_pairs(50)
    assert a == b and a
    bio_values = {t.object_value for t in biokalma_triples()}
    assert all(p.source == "metaqa" for p in a)
    assert sum(p.hypothesis.split(": ", 1)[1] in bio_values for p in a) < len(a) / 2


def test_training_pairs_can_leave_out_many_valued_swaps() -> None:
    """Another occupation than the person's is neutral in held-out sets and left out of training."""
    triples = PEOPLE
    own = {"Ann": {"painter", "poet"}, "Bob": {"singer"}, "Cy": {"painter"}}

    def other_occupations(pairs: list) -> int:
        n = 0
        for p in pairs:
            rel, value = p.hypothesis.split(": ", 1)
            person = next(name for name in own if name in p.premise)
            if p.label == "neutral" and rel == "occupation" and value in {"painter", "poet", "singer"}:
                n += value not in own[person]
        return n

    assert other_occupations(kg_pairs(triples, n_premises=300, seed=1)) > 0
    assert other_occupations(kg_pairs(triples, n_premises=300, seed=1, many_valued_swaps=False)) == 0
