"""Lexical parts of the text scorers: pure functions, no model."""

from __future__ import annotations

import pytest

from kgcite.retrieve.scoring import _same, distinctive_overlap
from kgcite.text.lexicon import stem

pytestmark = pytest.mark.fast


def test_the_asked_word_that_sets_a_sentence_apart_counts_and_shared_words_do_not() -> None:
    parts = [
        "Stephen Crane's father is Jonathan Townley Crane.",
        "Stephen Crane's surname is Crane.",
        "Stephen Crane's mother is Mary Helen Peck Crane.",
    ]
    scores = distinctive_overlap("Who was Stephen Crane's father?", parts)
    assert scores[0] > 0 and scores[1] == scores[2] == 0


def test_names_in_the_question_do_not_pick_the_sentence_that_spells_them_out() -> None:
    parts = [
        "Stephen Crane was an American writer.",
        "He was born in Newark in 1871.",
        "His father was a Methodist minister.",
    ]
    scores = distinctive_overlap("Who was Stephen Crane's father?", parts)
    assert scores[2] > scores[0] == scores[1] == 0
    assert distinctive_overlap("Who?", parts) == [0.0, 0.0, 0.0]
    assert distinctive_overlap("Who was Crane's father?", []) == []


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("baker", "bakery", True),  # an ending the stemmer left
        ("graduate", "graduated", True),
        ("brewmaster", "brewer", True),  # a compound whose first word is the other
        ("screenwriter", "writer", True),
        ("lawyers", "law", False),  # a short stem beginning another word
        ("county", "count", False),
        ("runtime", "running", False),
        ("airport", "air", False),
    ],
)
def test_a_stem_begins_a_word_of_its_own_only_with_an_ending_after_it(a: str, b: str, same: bool) -> None:
    assert _same(stem(a), stem(b)) is same
