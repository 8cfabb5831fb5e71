"""Likely namesakes: a relation nearly every entity holds once, held several times by one."""

from __future__ import annotations

import pytest

from kgcite.kg.model import Triple
from kgcite.kg.namesakes import likely_namesakes, qualified, qualified_names

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def _born(name: str, *places: str) -> list[Triple]:
    return [Triple(name, name, "born in", p, p) for p in places]


def test_a_usually_single_relation_held_twice_is_named() -> None:
    people = [t for i in range(19) for t in _born(f"Person {i}", f"Town {i}")]
    [found] = likely_namesakes([*people, *_born("Anne Hathaway", "Stratford", "Brooklyn")])
    assert (found.relation, found.heads) == ("born in", (("Anne Hathaway", 2),))
    assert found.single == 19 / 20
    assert "1 entity holds 2 or more values of born in (Anne Hathaway (2)), which 95% of its" in found.describe()


def test_relations_that_are_many_valued_or_small_say_nothing() -> None:
    many = [
        Triple(f"Film {i}", f"Film {i}", "starring", f"Actor {j}", f"Actor {j}") for i in range(20) for j in range(3)
    ]
    assert likely_namesakes(many) == []  # most films have several actors: no hint of a namesake
    few = [*_born("A", "x"), *_born("B", "y", "z")]
    assert likely_namesakes(few) == []  # too few entities to say what is usual


def test_qualified_labels_name_their_namesakes() -> None:
    labels = ["Samuel Idris (novelist)", "Samuel Idris (editor)", "Hamlet (1948)", "Ninefold", "Samuel Idris (editor)"]
    assert qualified_names(labels) == {"Samuel Idris": ["Samuel Idris (editor)", "Samuel Idris (novelist)"]}
    assert qualified("Samuel Idris (editor)", "samuel idris")
    assert not qualified("Samuel Idris", "Samuel Idris") and not qualified("Samuel Idrisson (x)", "Samuel Idris")
