"""Which end of an asked relation the question's topic stands at."""

from __future__ import annotations

import pytest

from kgcite.retrieve.sides import goes_as_said, topic_side

CASES = [
    # a relation named in the passive: its subject undergoes the verb
    ("Who coaches Lucia Fenn?", "Lucia Fenn", "coached_by", "subject"),
    ("Who is Lucia Fenn coached by?", "Lucia Fenn", "coached_by", "subject"),
    ("Who is Lucia Fenn's coach?", "Lucia Fenn", "coached_by", "subject"),
    ("Who is the coach of Lucia Fenn?", "Lucia Fenn", "coached_by", "subject"),
    ("Whom does Lucia Fenn coach?", "Lucia Fenn", "coached_by", "object"),
    ("Who did Lucia Fenn coach?", "Lucia Fenn", "coached_by", "object"),
    ("Who was coached by Lucia Fenn?", "Lucia Fenn", "coached_by", "object"),
    ("Who owns Sea Wren?", "Sea Wren", "ownedBy", "subject"),
    ("Who designed the Sea Wren?", "Sea Wren", "designed by", "subject"),
    ("What did Mira Castell design?", "Mira Castell", "designed by", "object"),
    ("who wrote Jaws", "Jaws", "written_by", "subject"),
    ("the films directed by Steven Spielberg", "Steven Spielberg", "directed_by", "object"),
    ("Who are Oskar Lind's trainees?", "Oskar Lind", "trainedBy", "object"),  # who undergoes it
    ("Who are the people Oskar Lind trained?", "Oskar Lind", "trainedBy", "object"),
    # a relation named by what its subject did: "Adela Korrin taught Mira Voss"
    ("Who taught Sunniva Brask?", "Sunniva Brask", "taught", "object"),
    ("Whom did Sunniva Brask teach?", "Sunniva Brask", "taught", "subject"),
    ("Who was taught by Sunniva Brask?", "Sunniva Brask", "taught", "subject"),
    ("Who founded Hollin Cross?", "Hollin Cross", "founded", "object"),
    ("Who was Lotte Faring's teacher?", "Lotte Faring", "taught", "object"),  # her teacher taught her
    ("Who is the teacher of Ivo Tamsin?", "Ivo Tamsin", "taught", "object"),
    ("Who did Sunniva Brask marry?", "Sunniva Brask", "married", "either"),  # both do it alike
    # "the X director" names X's director, not a person X directed
    ("what genres are the films directed by the Supergirl director", "Supergirl", "directed_by", "either"),
    ("Where was Oskar Lind trained?", "Oskar Lind", "trainedBy", "subject"),
    ("Who are the trainees of Oskar Lind?", "Oskar Lind", "trainedBy", "object"),
    ("Who is Oskar Lind's trainer?", "Oskar Lind", "trainedBy", "subject"),
    # a relation ending in another preposition
    ("Who does Oskar Lind report to?", "Oskar Lind", "reports to", "subject"),
    ("Who reports to Oskar Lind?", "Oskar Lind", "reports to", "object"),
    # a relation ending in a preposition, said before the topic
    ("Who are the members of Northwater Sailing Club?", "Northwater Sailing Club", "MEMBER_OF", "object"),
    ("Who was born in Cressing?", "Cressing", "bornIn", "object"),
    # a relation named by a noun: the topic's own
    ("Who were Giovanni Simeone's children?", "Giovanni Simeone", "child", "subject"),
    ("Who is the father of Ida Varga?", "Ida Varga", "father", "subject"),
    ("What is the capital of France?", "France", "capital", "subject"),
    ("Who wrote the biography of Ida Varga?", "Ida Varga", "father", "either"),
    # the other end of a role: "the doctor of X" is whom X is a patient of; "the patients of X" are X's
    ("Who is the doctor of Ida Varga?", "Ida Varga", "patient of", "subject"),
    ("Who are the patients of Ida Varga?", "Ida Varga", "patient of", "object"),
    # not said plainly: both ways stay
    ("Which club is Priya Halloran a member of?", "Priya Halloran", "member of", "either"),
    ("Where was Ida Varga born?", "Ida Varga", "bornIn", "either"),
    ("Who designed Sea Wren's hull?", "Sea Wren", "designed by", "either"),
    ("Who coaches the owner of Kestrel II?", "Kestrel II", "coached_by", "either"),
    ("Who coaches Lucia Fenn and Lucia Fenn's crew?", "Lucia Fenn", "coached_by", "either"),
    # MetaQA's phrasings: the topic names another thing's, is no end of it, or the verb is bare
    ("what genres are the films written by Mac and Me screenwriters", "Mac and Me", "written_by", "either"),
    (
        "when did the films directed by the Return of the Fly director release",
        "Return of the Fly",
        "directed_by",
        "either",
    ),
    ("who are movie co-directors of Delbert Mann", "Delbert Mann", "directed_by", "either"),
    ("whose films have become direct Nora Ephron", "Nora Ephron", "directed_by", "either"),
    ("Which films have Garth Jennings direct", "Garth Jennings", "directed_by", "object"),
]


@pytest.mark.parametrize(("text", "mention", "relation", "side"), CASES)
def test_the_side_the_words_say(text: str, mention: str, relation: str, side: str) -> None:
    assert topic_side(text, mention, relation) == side


def test_a_step_goes_as_said_or_the_question_does_not_say() -> None:
    assert goes_as_said("Who coaches X?", "X", "coached_by", inverse=False)
    assert not goes_as_said("Who coaches X?", "X", "coached_by", inverse=True)
    assert goes_as_said("Whom does X coach?", "X", "coached_by", inverse=True)
    assert not goes_as_said("Whom does X coach?", "X", "coached_by", inverse=False)
    assert goes_as_said("Where was X born?", "X", "bornIn", inverse=False)
    assert goes_as_said("Where was X born?", "X", "bornIn", inverse=True)


def test_a_topic_that_is_only_a_value_is_asked_about_by_what_points_at_it() -> None:
    from kgcite.retrieve.sides import asked_side

    # MetaQA: "Which film has written X" means the films X wrote; X has no facts of its own
    assert topic_side("Which film has written X", "X", "written_by") == "subject"
    assert asked_side("Which film has written X", "X", "written_by", own_facts=False) == "either"
    assert asked_side("Who coaches X?", "X", "coached_by", own_facts=True) == "subject"
    assert goes_as_said("Which film has written X", "X", "written_by", inverse=True, own_facts=False)
