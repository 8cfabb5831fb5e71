"""Reading claims and evidence as names and links (no graph, no model)."""

from __future__ import annotations

import pytest

from kgcite.evaluate.judges.reading import key_of, name_runs, read_claim, read_evidence, split_evidence, tokenize

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def names(text: str) -> list[str]:
    tokens = tokenize(text)
    return [" ".join(key_of(tokens[a:b])) for a, b in name_runs(tokens)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Given that A Prayer for the Dying came out in 1987, who wrote it?", ["prayer dying", "1987"]),
        ("B.Z. Goldberg is in the cast of Promises.", ["b z goldberg", "promises"]),
        ("Shasjiex Bank was founded on June 2, 1999.", ["shasjiex bank", "june 2 1999"]),
        ("They came out in 1998, 1999 and 2002.", ["1998", "1999", "2002"]),  # a list, not one date
        ("Amy Irving and Richard Dreyfuss starred in Bird's sequel.", ["amy irving", "richard dreyfuss", "bird"]),
        ("Which films did Ada Pell make?", ["ada pell"]),  # a question word opening the text is no name
        (
            "Edmund Tudor, 1st Earl of Richmond is the father of Henry VII.",
            ["edmund tudor", "1st earl richmond", "henry vii"],
        ),
    ],
)
def test_names_are_capitalised_runs_numbers_and_dates(text: str, expected: list[str]) -> None:
    assert names(text) == expected


def test_claim_topics_are_the_questions_names_and_answers_the_statements_new_ones() -> None:
    c = read_claim(
        "Where was the founder of Quenby Bakery born?",
        "The founder of Quenby Bakery, Marla Quenby, was born in Harrowgate.",
    )
    assert c.topics == [("quenby", "bakery")]
    assert sorted(c.answers) == [("harrowgate",), ("marla", "quenby")]
    assert {"found", "born"} <= c.asked and "quenby" not in c.asked  # stems of what is asked, names apart


def test_lower_case_answers_when_the_statement_adds_no_name() -> None:
    c = read_claim("What is the occupation of Henry VII?", "The occupation of Henry VII is monarch.")
    assert c.topics == [("henry", "vii")] and c.answers == [("monarch",)]


def test_a_typo_in_the_question_still_finds_the_topic() -> None:
    c = read_claim("When was Quenby Bakrey founded?", "Quenby Bakery was founded in 1989.")
    (s,) = read_evidence("[1] The inception of Quenby Bakery is 1989.", c)
    assert s.topics == [0] and s.answers == [0]


def test_evidence_sentences_and_their_names() -> None:
    assert split_evidence("[1] A is B. [2] C is D.") == ["A is B.", "C is D."]
    assert split_evidence("Ada Pell died in 1950. She was a painter.") == [
        "Ada Pell died in 1950",
        "She was a painter.",
    ]
    c = read_claim("Who starred in the films written by the writer of Bird?", "Amy Irving starred in them.")
    first, second = read_evidence("[1] Joel Oliansky wrote Bird. [2] Amy Irving appears in The Competition.", c)
    assert first.topics == [0] and first.others == [("joel", "oliansky")]
    assert second.answers == [0] and second.others == [("competition",)]


def test_a_lower_case_value_ending_one_sentence_and_standing_in_another_links_them() -> None:
    c = read_claim("Who held the position that Henry VII had as occupation?", "Ulugh Beg held it.")
    a, b = read_evidence("[1] Henry VII's occupation was monarch. [2] Ulugh Beg held the position of monarch.", c)
    assert ("monarch",) in a.others and ("monarch",) in b.others


def test_a_longer_name_holding_a_topic_is_another_entity() -> None:
    c = read_claim("Which films share actors with Stuart Little 2?", "Stuart Little shares actors with it.")
    (s,) = read_evidence("[1] Jonathan Lipnicki starred in Stuart Little.", c)
    assert ("stuart", "little") in s.others or s.answers  # never read as the topic "Stuart Little 2"
    assert not s.topics
