"""How far from the topic the answer lies: past a description the topic is part of, or anywhere."""

from __future__ import annotations

import pytest

from kgcite.retrieve.reach import answer_reach

BEYOND = [
    # the description is what a verb or a preposition of the question acts on
    "Who trains the team Ivo Pell plays for?",
    "Who governs the town where Fairwater Academy stands?",
    "Who runs the theatre where Quiet Engines was first performed?",
    "Who is in charge of the venue Glass Crowns opened at?",
    "Who plays in the group that made Night Signals?",
    "Name the musicians of the band that recorded Low Tide Songs.",
    "Which products come from the farm run by Owain Pryor?",
    "Who is the principal of Amy Okafor's school?",
    "which person directed the films acted by Tom Hanks",
    # the subject of a question with "do", a verb after it
    "Which firm do the parents of Iona Oduya work at?",
    "What else did the writer of The Lantern Fair write?",
    "What does Ruth Cadell's farm produce?",
    "Which city does Kestrel Air's main airport serve?",
    "What else does the shop selling Cultured butter stock?",
    # a preposition left hanging at the end
    "What nation is Saltmere City's home city in?",
    "What town is the hub of Marlow Skies near?",
]

ANY = [
    # the description is the answer, or the topic is named by its kind
    "What is the team Ivo Pell plays for?",
    "Name the band that recorded Low Tide Songs.",
    "What is the name of the team Ivo Pell plays for?",
    "Who handles the search dog Sorrel?",
    "When was the film Arthur released?",
    "What country is the film Arthur from?",
    "who acted in the movie Arthur",
    "the films that share actors with the film Arthur",
    # one hop, the topic's own
    "Who is Ivo Pell's coach?",
    "Which team does Ivo Pell play for?",
    "Who supervised Ivo Pell's doctorate?",
    "What is the name of Ivo Pell's father?",
    "What is the mother tongue of Ivo Pell?",
    "What was the cause of death of Ivo Pell?",
    "what movies did Ivo Pell star in",
    "which movies was Ivo Pell the writer of",
    "Who are Ivo Pell's team-mates?",
    # read by the lookup's walk, not left to this rule
    "Where was Ivo Pell's mentor born?",
]


@pytest.mark.parametrize("question", BEYOND)
def test_an_answer_past_the_description_holding_the_topic(question: str) -> None:
    topic = next(t for t in TOPICS if t in question)
    assert answer_reach(question, topic) == "beyond"


@pytest.mark.parametrize("question", ANY)
def test_a_one_hop_answer_stays_possible(question: str) -> None:
    topic = next(t for t in TOPICS if t in question)
    assert answer_reach(question, topic) == "any"


def test_a_topic_said_twice_or_not_at_all_decides_nothing() -> None:
    assert answer_reach("Who trains the team X plays for, X or Y?", "X") == "any"
    assert answer_reach("Who trains the team X plays for?", "Nobody") == "any"


TOPICS = [
    "Ivo Pell",
    "Fairwater Academy",
    "Quiet Engines",
    "Glass Crowns",
    "Night Signals",
    "Low Tide Songs",
    "Owain Pryor",
    "Amy Okafor",
    "Tom Hanks",
    "Iona Oduya",
    "The Lantern Fair",
    "Ruth Cadell",
    "Kestrel Air",
    "Cultured butter",
    "Saltmere City",
    "Marlow Skies",
    "Sorrel",
    "Arthur",
]
