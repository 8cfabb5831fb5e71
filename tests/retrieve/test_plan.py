"""Which chain may answer, decided once in retrieval: the rules of ``kgcite.retrieve.plan``."""

from __future__ import annotations

import pytest

from kgcite.retrieve.paths import Step
from kgcite.retrieve.plan import chain_answers, turns_back, wants_chain
from kgcite.retrieve.question import QuestionAnalyzer, split_parts

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`

BACK = (Step("publishedBy"), Step("publishedBy", inverse=True), Step("PublicationYear"))


def test_a_chain_standing_in_for_a_missing_fact_does_not_turn_back_unasked() -> None:
    question = "When was The Ember Ledger published?"
    assert turns_back(BACK) and not turns_back(BACK, {"published by"})
    assert not chain_answers(question, BACK, ["2008"], "date", standing_in=True)
    assert chain_answers(question, BACK, ["2008"], "date")  # not standing in: the search's own call
    assert chain_answers("Which books share a publisher with X?", BACK, ["2008"], "date", standing_in=True)


def test_a_chain_answers_only_with_the_kind_asked() -> None:
    assert not chain_answers("When was X founded?", (Step("founded by"),), ["Edwin Marsh"], "date")
    assert chain_answers("When was X founded?", (Step("yearFounded"),), ["1887"], "date")


ANALYZER = QuestionAnalyzer(["father", "place of birth", "directed by", "written by", "has genre", "starred actors"])


@pytest.mark.parametrize(
    ("question", "topic", "search"),
    [
        ("Who was Stephen Crane's father?", "Stephen Crane", False),  # one hop the topic holds: no search
        ("Where was Stephen Crane born?", "Stephen Crane", False),
        ("who are movie co-directors of Delbert Mann", "Delbert Mann", True),  # "co": a word no relation explains
        ("what types are the movies written by Rowland Barber", "Rowland Barber", True),
        ("Who directed the films starring Ann Lee?", "Ann Lee", True),  # two relations named
    ],
)
def test_the_search_runs_only_when_the_reading_asks_for_a_chain(question: str, topic: str, search: bool) -> None:
    assert wants_chain(ANALYZER.analyse(question, [topic]), gaps=False) is search


def test_a_gap_asks_for_the_search() -> None:
    assert wants_chain(ANALYZER.analyse("Who was Stephen Crane's father?", ["Stephen Crane"]), gaps=True)


def test_a_second_verb_of_the_asked_subject_is_a_condition_not_a_part() -> None:
    assert split_parts("Who plays for Redmarsh United and was born in Castelmir?") == [
        "Who plays for Redmarsh United and was born in Castelmir"
    ]
    assert split_parts("When was X born and where did he die?") == ["When was X born", "where did he die"]
    assert split_parts("Who founded X and is he alive?") == ["Who founded X", "is he alive"]
