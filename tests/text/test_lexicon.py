"""Relation ids read as property names, whatever style a graph writes them in."""

from __future__ import annotations

import pytest

from kgcite.text.lexicon import property_label

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


@pytest.mark.parametrize(
    ("relation", "label"),
    [
        ("directed_by", "directed by"),
        ("date of birth", "date of birth"),
        ("__people__person__place_of_birth", "place of birth"),
        ("people.person.place_of_birth", "place of birth"),
        ("hasGenre", "has genre"),
        ("http://example.org/onto/bornIn", "born in"),
        ("http://example.org/onto#headCoach", "head coach"),
        ("schema:birthDate", "birth date"),
        ("P19", "P19"),
        ("IMDb_rating", "IMDb rating"),
    ],
)
def test_relation_ids_read_as_words(relation: str, label: str) -> None:
    assert property_label(relation) == label
