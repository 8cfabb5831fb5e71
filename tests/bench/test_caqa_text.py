"""The builder's text: names people write, several phrasings, declarative answer statements."""

from __future__ import annotations

import random

import pytest

from kgcite.bench.caqa_text import declarative, humanise, humanise_text, phrase, phrasings, restriction


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("enno_iii_count_of_ostfriesland", "Enno III, Count of Ostfriesland"),
        ("anna_of_holstein-gottorp", "Anna of Holstein-Gottorp"),
        ("louis_xiv_of_france", "Louis XIV of France"),
        ("Kismet", "Kismet"),  # already a name
        ("The Grey Harbour", "The Grey Harbour"),
    ],
)
def test_humanise(label: str, name: str) -> None:
    assert humanise(label) == name


def test_humanise_text_rewrites_only_identifiers() -> None:
    assert humanise_text("what is the parent of anna_of_holstein-gottorp's son?") == (
        "what is the parent of Anna of Holstein-Gottorp's son?"
    )


@pytest.mark.parametrize(
    ("relation", "expected"),
    [
        ("directed_by", {"{s} was directed by {o}.", "{o} directed {s}."}),
        ("written_by", {"{o} wrote {s}."}),
        ("children", {"{s}'s children include {o}.", "The children of {s} include {o}."}),
        ("parent", {"{s}'s parent is {o}.", "The parent of {s} is {o}.", "{o} is the parent of {s}."}),
        ("mentor of", {"{s} is a mentor of {o}."}),
    ],
)
def test_each_relation_form_has_its_phrasings(relation: str, expected: set[str]) -> None:
    assert expected <= set(phrasings(relation))


def test_every_phrasing_states_both_ends() -> None:
    for relation in ("directed_by", "place of birth", "has_genre", "founded", "vorled by", "home port"):
        for p in phrasings(relation):
            assert "{s}" in p and "{o}" in p, (relation, p)


def test_phrase_is_seeded_and_speaks_dates() -> None:
    a = [phrase("Marla", "date of birth", "1962-03-14", random.Random(3)) for _ in range(3)]
    assert a == [phrase("Marla", "date of birth", "1962-03-14", random.Random(3)) for _ in range(3)]
    assert all("March 14, 1962" in s for s in a)
    seen = {phrase("Kismet", "directed_by", "Vincente Minnelli", random.Random(i)) for i in range(40)}
    assert len(seen) > 1


@pytest.mark.parametrize(
    ("question", "answers", "statement"),
    [
        (
            "what is the parent of Anna of Holstein-Gottorp's son?",
            ["Enno III"],
            "The parent of Anna of Holstein-Gottorp's son is Enno III.",
        ),
        ("who directed Kismet", ["Vincente Minnelli"], "Vincente Minnelli directed Kismet."),
        ("which films did Tom Hanks act in", ["Big", "Splash"], "Tom Hanks acted in Big and Splash."),
        (
            "what languages are the movies directed by Ang Lee in",
            ["English"],
            "The movies directed by Ang Lee are in English.",
        ),
        ("Ruggero Raimondi appears in what films", ["Carmen"], "Ruggero Raimondi appears in Carmen."),
        ("where was Marla Quenby born", ["Harrowgate"], "Marla Quenby was born in Harrowgate."),
        ("what was Reinhard Klooss the manager of", ["Tarzan"], "Reinhard Klooss was the manager of Tarzan."),
        (
            "Given that Kismet was released in 1955, who directed Kismet?",
            ["Vincente Minnelli"],
            "Given that Kismet was released in 1955, Vincente Minnelli directed Kismet.",
        ),
        (
            "who directed Kismet, among those whose genre is Drama?",
            ["A"],
            "Among those whose genre is Drama, A directed Kismet.",
        ),
        (
            "which are those that Marla Quenby founded?",
            ["Quenby Bakery"],
            "Those that Marla Quenby founded are Quenby Bakery.",
        ),
        (
            "what is the date of birth of Marla Quenby?",
            ["1962-03-14"],
            "The date of birth of Marla Quenby is March 14, 1962.",
        ),
    ],
)
def test_declarative(question: str, answers: list[str], statement: str) -> None:
    made = declarative(question, answers)
    assert made.text == statement
    assert made.rule != "fallback"


def test_declarative_falls_back_plainly() -> None:
    made = declarative("The Merchant of Venice 's director was?", ["Jack Gold"])
    assert "Jack Gold" in made.text
    odd = declarative("tell me something", ["X"])
    assert odd.rule == "fallback" and odd.text == "The answer to “tell me something?” is X."


def test_restriction_reads_as_a_relative_clause() -> None:
    assert restriction("in_language", "Macedonian", True) == "whose language is Macedonian"
    assert restriction("written_by", "Craig Harrison", True) == "that were written by Craig Harrison"
    assert restriction("directed_by", "Kismet", False) == "that directed Kismet"  # the answer directed Kismet
    assert restriction("lives in", "Marla Quenby", False) == "that Marla Quenby lives in"
