"""The kind of answer a question wants, and which relation names and values can give it."""

from __future__ import annotations

import pytest

from kgcite.generate.verbalize import state
from kgcite.text.kinds import core_words, fits, kind_match, name_kind, value_kinds, wanted_kind
from kgcite.text.values import normalize

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When was Marsh & Cole founded?", "date"),
        ("In what year did the gym open?", "date"),
        ("How many pages does Ninefold have?", "quantity"),
        ("how high is Mount Orr", "quantity"),
        ("Where is Hollowpine Press based?", "place"),
        ("Who founded the company?", "agent"),
        ("What did Ada Quillon write?", "any"),
        # a measure asked by its noun wants a number: Tarnby's county is no population
        ("What is the population of Tarnby?", "quantity"),
        ("What's Port Ellery's elevation?", "quantity"),
        ("What was the capacity of the Harrowmere Puppet Barn?", "quantity"),
        ("Which state has the largest area?", "any"),  # a superlative asks for the state
        ("What is the capital of Valdmark?", "any"),
        ("What is the lengthy title of X?", "any"),
    ],
)
def test_the_kind_of_answer_a_question_wants(question: str, kind: str) -> None:
    assert wanted_kind(question) == kind


def test_a_name_says_its_kind_and_what_it_is_about() -> None:
    assert (name_kind("yearFounded"), name_kind("birthDate"), name_kind("pageCount")) == ("date", "date", "quantity")
    assert name_kind("cityOfHQ") == "place" and name_kind("founded by") == "any"
    assert core_words("birthDate")[0][:2] == ("birth", "born")
    assert core_words("DISCOVERY_DATE")[0][0] == "discovery"


def test_a_part_asks_a_relation_by_its_kind_word_for_word() -> None:
    words = normalize("When was Marsh & Cole founded").split()
    assert kind_match(words, "yearFounded", "date")
    assert not kind_match(words, "yearFounded", "agent")  # a "who" asks no year
    founder = normalize("When was the founder of Greyfen Books born").split()
    assert not kind_match(founder, "yearFounded", "date")  # "founder" is not "founded"
    assert kind_match(founder, "birthDate", "date")


@pytest.mark.parametrize(
    ("value", "kinds"),
    [
        ("1887", {"date", "quantity"}),
        ("2 March 1954", {"date"}),
        ("1954-03-02", {"date"}),
        ("412 m", {"quantity"}),
        ("Lowmere", {"any"}),
    ],
)
def test_values_say_their_kind(value: str, kinds: set[str]) -> None:
    assert value_kinds(value) == kinds


def test_only_values_of_the_kind_asked_answer() -> None:
    assert fits("date", ["1887"]) and not fits("date", ["Edwin Marsh"])  # "When was X founded?" ≠ its founder
    assert fits("agent", ["Edwin Marsh"]) and not fits("agent", ["1910"])  # "Who founded X?" ≠ its year
    assert fits("place", ["Lowmere"]) and not fits("place", ["June 1970"])
    assert fits("any", ["anything"])


@pytest.mark.parametrize(
    ("relation", "value", "sentence"),
    [
        ("yearFounded", "1887", "Marsh & Cole was founded in 1887."),
        ("birthDate", "2 March 1954", "Marsh & Cole was born on 2 March 1954."),
        ("PublicationYear", "2008", "Marsh & Cole was published in 2008."),
        ("pageCount", "320", "Marsh & Cole has 320 pages."),
    ],
)
def test_a_kind_named_relation_reads_as_its_event(relation: str, value: str, sentence: str) -> None:
    assert state("Marsh & Cole", relation, [value]) == sentence


@pytest.mark.fast
def test_a_name_that_says_no_kind_may_ask_what_a_kinded_one_does() -> None:
    """A graph holding `birthPlace` and `born in` answers "Where was X born?" from either; a name
    for whoever did it never asks the kind (`founded by` is no `year founded`)."""
    from kgcite.text.kinds import says_the_same

    assert says_the_same("birthPlace", "born in") and says_the_same("founding year", "founded")
    assert not says_the_same("year founded", "founded by")
    assert not says_the_same("birthPlace", "died in") and not says_the_same("birthPlace", "home city")
