"""How far from the topic the answer lies: past a description the topic is part of, or anywhere."""

from __future__ import annotations

import pytest

from kgcite.retrieve.paths import Step
from kgcite.retrieve.reach import answer_reach, asked_of_described, reaches, with_described

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
    "What does Ruth Cadell's farm produce?",
    "Which city does Kestrel Air's main airport serve?",
    # a preposition left hanging at the end
    "What nation is Saltmere City's home city in?",
    "What town is the hub of Marlow Skies near?",
    # the subject of the participle the question ends on
    "Where was Ivo Pell's mentor born?",
    "Where was the mentor of Ivo Pell born?",
    "When was Ivo Pell's school founded?",
    "Where is the label of Low Tide Songs based?",
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
    # the topic's own part or event, or the topic said whole
    "Where was Ivo Pell's body buried?",
    "When was Ivo Pell's career started?",
    "Who was the mentor of Ivo Pell?",
    "What was Ivo Pell's home city?",
]


@pytest.mark.parametrize("question", BEYOND)
def test_an_answer_past_the_description_holding_the_topic(question: str) -> None:
    topic = next(t for t in TOPICS if t in question)
    assert answer_reach(question, topic) == "beyond"


@pytest.mark.parametrize("question", ANY)
def test_a_one_hop_answer_stays_possible(question: str) -> None:
    topic = next(t for t in TOPICS if t in question)
    assert answer_reach(question, topic) == "any"


@pytest.mark.parametrize(
    "question",
    [
        "Who are Ivo Pell's team-mates?",
        "Who are Ivo Pell's colleagues in the department?",
        "Which pupils go to the same school as Ivo Pell?",
        "Which researchers share a department with Ivo Pell?",
        "What else did the writer of Ivo Pell write?",  # the writer's other works
        "Who else is treated by Ivo Pell's doctor?",
    ],
)
def test_a_peer_is_reached_out_and_back(question: str) -> None:
    assert answer_reach(question, "Ivo Pell") == "back"


def test_else_of_the_topic_itself_asks_no_peer() -> None:
    assert answer_reach("Who else works at Ivo Pell?", "Ivo Pell") == "any"  # those who work there


def test_which_chains_a_reach_admits() -> None:
    plays, back, coach = Step("plays_for"), Step("plays_for", inverse=True), Step("head_coach")
    assert reaches((plays,), "any") and not reaches((plays,), "beyond") and reaches((plays, coach), "beyond")
    assert reaches((plays, back), "back") and not reaches((plays, coach), "back") and not reaches((plays,), "back")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Who taught the conductor of Ivo Pell?", "who taught y"),
        ("Whom did Ivo Pell's conductor teach?", "whom did y teach"),
        ("Where was Ivo Pell's mentor born?", "where was y born"),  # the owned noun, then the verb
        ("What nation is Ivo Pell's home city in?", "what nation is y in"),
    ],
)
def test_the_question_said_of_what_the_description_reaches(question: str, said: str) -> None:
    assert with_described(question, "Ivo Pell", "Y") == said


def test_no_description_no_restatement() -> None:
    assert with_described("Who taught Ivo Pell?", "Ivo Pell", "Y") is None


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


@pytest.mark.fast
@pytest.mark.parametrize(
    ("question", "rest", "mention", "expected"),
    [
        # words no relation names, then "of" a description: asked of the thing it describes
        (
            "What is the phone number of the head teacher of Hollins High?",
            ("phone", "number"),
            "Hollins High",
            "what is the phone number of X",
        ),
        (
            "What is the star rating of the premiere venue of The Long Table?",
            ("star", "rating"),
            "The Long Table",
            "what is the star rating of X",
        ),
        # with a verb, before or after the description, or a question word's modifier
        ("How tall is the founder of Quenby Bakery?", ("tall",), "Quenby Bakery", "how tall is X"),
        ("How much does the founder of Quenby Bakery earn?", ("much", "earn"), "Quenby Bakery", "how much does X earn"),
        ("Where was the head teacher of Hollins High born?", ("born",), "Hollins High", "where was X born"),
        ("How tall is Quenby Bakery's founder?", ("tall",), "Quenby Bakery", "how tall is X"),
        ("Whom did the chair of the Rook Fellowship marry?", ("marry",), "Rook Fellowship", "whom did X marry"),
        # a clause describes it, and "the … of" before it whose words the relations name widen it
        (
            "What is the entry fee of the garden where the Rose Fair is held?",
            ("entry", "fee"),
            "the Rose Fair",
            "what is the entry fee of X",
        ),
        (
            "How tall is the founder of the bakery that made Rye Loaf?",
            ("tall",),
            "Rye Loaf",
            "how tall is X",
        ),
        ("Who is the principal of Amy Okafor's school?", ("principal",), "Amy Okafor", "who is the principal of X"),
        # the unnamed words are the topic's own, or inside the description, or none
        ("What is the motto of Hollins High?", ("motto",), "Hollins High", None),
        ("What is the team Ada Quist plays for?", ("team",), "Ada Quist", None),
        ("What is the name of the head teacher of Hollins High?", ("name",), "Hollins High", None),
        ("What is the head teacher of Hollins High?", (), "Hollins High", None),
        # a relation named past the description asks past it in the graph's terms
        ("which person wrote the movies directed by the director of [Heat]", ("movies",), "Heat", None),
        # the kind asked is asked of the thing
        (
            "Which university did the founder of Quenby Bakery attend?",
            ("attend",),
            "Quenby Bakery",
            "which university did X attend",
        ),
        # the topic named by its kind after it
        ("which date was the release date of the [Radio Days] film", ("film",), "Radio Days", None),
        # … but not by a word a relation names ("director" names `directed_by`)
        (
            "who is listed as screenwriter of the movies directed by the [Heat] director",
            ("listed", "screenwriter", "movies"),
            "Heat",
            None,
        ),
        # the description is what is asked
        ("The director of [Heat] was who was in charge of the", ("charge",), "Heat", None),
        # and so do siblings
        ("which films share the same actor of [Heat]", ("share", "same"), "Heat", None),
    ],
)
def test_words_no_relation_names_may_ask_past_a_description(
    question: str, rest: tuple[str, ...], mention: str, expected: str | None
) -> None:
    assert asked_of_described(question, rest, mention) == expected
