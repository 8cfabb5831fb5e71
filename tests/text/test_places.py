"""Places inside places: the rank a question asks, the rank a relation reaches, which hops climb."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from kgcite.retrieve.path_scorers import Mention, placed_within, rank_mentions
from kgcite.retrieve.scoring import _same, words
from kgcite.text.places import asked_rank, climbs, no_larger, rank_reached, reaches_place, short_of, strict

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


class Hop(NamedTuple):
    relation: str
    inverse: bool = False


@pytest.mark.parametrize(
    ("question", "rank"),
    [
        ("Which county is X in?", "county"),
        ("In what region was X born?", "region"),
        ("What country is X from?", "country"),
        ("Which musicians play in X?", None),
        ("Where is X?", None),
        ("What is the region of X?", None),  # names the relation; no rank word after "what"
    ],
)
def test_the_rank_a_question_asks(question: str, rank: str | None) -> None:
    assert asked_rank(words(question)) == rank


@pytest.mark.parametrize(
    ("relation", "rank"),
    [
        ("town.region", "region"),
        ("hall.town", "town"),
        ("HOMETOWN", "town"),
        ("IN_COUNTRY", "country"),
        ("LOCATED_IN", None),
        ("arena.capacity", None),  # ends in "city", says none
        ("estate", None),
    ],
)
def test_the_rank_a_relation_reaches_is_its_last_rank_word(relation: str, rank: str | None) -> None:
    assert rank_reached(relation) == rank


def test_climbing_relations_name_no_rank_and_nothing_but_placing() -> None:
    assert climbs("LOCATED_IN") and climbs("part of") and climbs("situated_in")
    assert not climbs("county") and not climbs("subsidiary of") and not climbs("born in")


def test_a_hop_reaches_a_place_by_its_name() -> None:
    for relation in ("grown at", "birthplace", "launched from", "home city", "born in"):
        assert reaches_place(relation), relation
    for relation in ("subsidiary of", "manufacturer", "made by", "nationality"):
        assert not reaches_place(relation), relation


def test_a_chain_stops_short_of_the_rank_asked() -> None:
    assert short_of(Hop("hall.town"), "county", larger=False)  # a town is no county
    assert not short_of(Hop("county"), "county", larger=True)
    assert short_of(Hop("born in"), "country", larger=True)  # towns that lie in larger places
    assert not short_of(Hop("born in"), "country", larger=False)  # nothing larger: may be the answer
    assert not short_of(Hop("LOCATED_IN"), "county", larger=True)  # climbs to whatever rank is asked
    assert short_of(Hop("LOCATED_IN"), "country", larger=True)  # a country is where the climb ends
    assert not short_of(Hop("LOCATED_IN", inverse=True), "county", larger=True)


def test_a_place_inside_the_rank_asked_or_a_smaller_one_stops_short() -> None:
    # "In which region is Redhollow Radio based?": basedIn reaches towns that have a county
    assert short_of(Hop("basedIn"), "region", larger=True, within=True)
    assert not short_of(Hop("basedIn"), "region", larger=True, within=False)
    assert no_larger("county") == {"village", "town", "city", "district", "county"}
    assert no_larger("town") == {"village", "town", "city"} and no_larger("nowhere") == frozenset()


def test_backwards_a_relation_that_names_no_place_reaches_none() -> None:
    # "Which county is the station that airs X in?": the reverse of sister station is a station
    assert short_of(Hop("sister_station", inverse=True), "county", larger=False)
    assert not short_of(Hop("has town", inverse=True), "county", larger=True)
    assert not short_of(Hop("located in", inverse=True), "county", larger=True)


def test_towns_are_asked_loosely_larger_ranks_strictly() -> None:
    assert strict("county") and strict("country") and strict("region")
    assert not strict("town") and not strict("city") and not strict("village")


def test_a_rank_asked_is_reached_through_the_place_a_thing_is_at() -> None:
    grown_at, region = Hop("grown at"), Hop("FARM_REGION")
    asked = [Mention(2, frozenset({"FARM_REGION"}))]
    assert placed_within("Which region is X from?", (grown_at, region), asked)
    assert not placed_within("Which region is X from?", (Hop("sold by"), region), asked)  # a shop is no place
    # no relation names the county: the last hop climbs
    town, located = Hop("hall.town"), Hop("LOCATED_IN")
    assert placed_within("Which county is X in?", (town, located), [])
    assert not placed_within("Who runs X?", (town, located), [])


def test_a_compound_that_names_a_place_is_not_its_first_word() -> None:
    assert not _same("workshop", "work") and not _same("boatyard", "boat")
    assert _same("brewmaster", "brew")  # a compound of a role still matches
    assert _same("screenwrit", "writ") and _same("cofound", "found")  # so does a compound's end
    assert not _same("perform", "form") and not _same("depart", "part")  # a prefixed word is another word


def test_a_nation_is_a_country() -> None:
    assert asked_rank(words("What nation is X's home city in?")) == "country" == rank_reached("nation")
    assert not short_of(Hop("country"), "country", larger=True)


def test_a_rank_word_that_only_ends_a_relation_name_need_not_be_walked() -> None:
    question = "In which city is the studio that developed X based?"  # "city" ends "capacity"
    capacity, developed = Mention(2, frozenset({"arena.capacity"})), Mention(7, frozenset({"developedBy"}))
    assert [m.optional for m in rank_mentions(question, [capacity, developed])] == [True, False]
    county = Mention(1, frozenset({"county"}))
    assert not rank_mentions("Which county is X in?", [county])[0].optional  # reaches the rank by its name
