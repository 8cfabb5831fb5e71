"""Property names in other inflections: regular English forms, irregular words left alone."""

from __future__ import annotations

import pytest

from kgcite.train.inflect import Inflector, gerund, label_variants, past, plural, word_forms
from kgcite.train.nli_data import kg_pairs
from tests.helpers import PEOPLE


@pytest.mark.parametrize(
    ("lemma", "forms"),
    [
        ("star", ("stars", "starred", "starring")),
        ("receive", ("receives", "received", "receiving")),
        ("play", ("plays", "played", "playing")),
        ("marry", ("marries", "married", "marrying")),
        ("die", ("dies", "died", "dying")),
        ("coach", ("coaches", "coached", "coaching")),
        ("direct", ("directs", "directed", "directing")),
    ],
)
def test_regular_verb_forms(lemma: str, forms: tuple[str, str, str]) -> None:
    assert (plural(lemma), past(lemma), gerund(lemma)) == forms


def test_only_visible_regular_inflections_change() -> None:
    assert word_forms("starred", "star", "VERB") == {"star", "stars", "starred", "starring"}
    assert word_forms("born", "bear", "VERB") == frozenset()  # irregular: no "beared"
    assert word_forms("genre", "genre", "VERB") == frozenset()  # a bare noun mis-tagged as a verb
    assert word_forms("child", "child", "NOUN") == frozenset()  # no "childs"
    assert word_forms("year", "year", "NOUN") == {"year", "years"}
    assert word_forms("of", "of", "ADP") == frozenset()


def test_label_variants_keep_spacing_and_change_one_word() -> None:
    toks = [
        ("topic", "", "topic", "NOUN"),
        ("'s", " ", "'s", "PART"),
        ("main", " ", "main", "ADJ"),
        ("category", "", "category", "NOUN"),
    ]
    assert label_variants(toks) == ["topics's main category", "topic's main categories"]


def test_spacy_inflector_on_graph_property_names() -> None:
    inflector = Inflector()
    assert "stars actors" in inflector.variants("starred actors")
    assert "award receives" in inflector.variants("award received")
    assert inflector.variants("place of birth") == ["places of birth", "place of births"]
    assert inflector.variants("written by") == []  # "write" is irregular


def test_inflected_pairs_keep_premises_and_labels() -> None:
    plain = kg_pairs(PEOPLE, n_premises=100, seed=3)
    bent = kg_pairs(PEOPLE, n_premises=100, seed=3, inflect=lambda label: [label.upper()], inflect_rate=0.5)
    assert [(p.premise, p.label) for p in plain] == [(p.premise, p.label) for p in bent]
    changed = [(a.hypothesis, b.hypothesis) for a, b in zip(plain, bent, strict=True) if a != b]
    assert 0.3 * len(plain) < len(changed) < 0.7 * len(plain)
    assert all(b == a.split(": ", 1)[0].upper() + ": " + a.split(": ", 1)[1] for a, b in changed)
