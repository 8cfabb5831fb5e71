"""The wide part of the grounding mixture: Wikidata's train-split properties only, said many ways."""

from __future__ import annotations

import pytest

from kgcite.text.lexicon import property_label
from kgcite.train.relation_split import property_split, read_property_names
from kgcite.train.wide import (
    STYLES,
    item_properties,
    related_properties,
    simple_question_examples,
    spelled,
    wikidata_graph,
    wikidata_graph_examples,
)


@pytest.mark.fast
def test_every_naming_style_reads_back_as_the_label() -> None:
    spellings = {spelled("place of birth", i) for i in range(len(STYLES))}
    assert spellings == {
        "place of birth",
        "placeOfBirth",
        "place_of_birth",
        "PLACE_OF_BIRTH",
        "PlaceOfBirth",
        "ex:placeOfBirth",
        "place-of-birth",
    }
    assert {property_label(s) for s in spellings} == {"place of birth"}


@pytest.mark.fast
def test_no_dev_or_test_property_reaches_training() -> None:
    props = item_properties("train")
    assert len(props) > 500 and all(property_split(p.pid) == "train" for p in props)
    names = read_property_names()
    held = {
        names[pid].label.lower()
        for pid in names
        if property_split(pid) != "train" and names[pid].datatype == "wikibase-item"
    }
    train_labels = {p.label.lower() for p in props}
    examples = simple_question_examples(per_property=5)
    assert examples and all(e.source == "simplequestions" for e in examples)
    said = {property_label(e.positive.removeprefix("reverse of ")).lower() for e in examples}
    assert said <= train_labels
    assert not said & (held - train_labels)


@pytest.mark.fast
def test_a_simple_question_is_set_against_its_other_direction_and_confusable_properties() -> None:
    related = related_properties()
    assert "P25" in related["P22"] or "P22" in related["P25"] or related["P22"]  # father ↔ mother/child
    examples = simple_question_examples(per_property=3)
    for e in examples:
        reverse = e.positive.removeprefix("reverse of ")
        assert any(n.removeprefix("reverse of ") == reverse and n != e.positive for n in e.negatives)
        assert e.positive not in e.negatives and len(e.negatives) == 5


def test_wikidata_graph_questions_say_relations_in_the_propertys_words() -> None:
    triples, names = wikidata_graph(3, item_properties("train"), relations=8, entities=120)
    assert len(names) == 8 and triples
    assert {t.relation for t in triples} <= set(names)
    examples = wikidata_graph_examples(graphs=4, per_graph=60)
    assert len(examples) >= 200
    assert {e.hops for e in examples} == {1, 2, 3}
    assert all("X" in e.question and e.positive not in e.negatives for e in examples)
    said = 0
    for g in range(4):  # each graph's aliases (seeds 0-3): the words its names do not say
        _, drawn = wikidata_graph(g, item_properties("train"))
        labels = " | ".join(property_label(name).lower() for name in drawn)
        aliases = {a.lower() for words in drawn.values() for a in words[1:] if len(a) > 3 and a.lower() not in labels}
        mine = [e for e in examples if e.source == f"wikidata-graph-{g}"]
        said += sum(any(f" {a} " in f" {e.question.lower()} " for a in aliases) for e in mine)
    # six hops in ten are said by the label or an alias: a fifth of the questions say an alias
    # (one graph alone drew 10 of 60 to 24 of 60; 3 of 60 when no alias was used)
    assert said >= len(examples) // 5
