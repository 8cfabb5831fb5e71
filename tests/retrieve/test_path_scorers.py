"""The zero-shot path scorer's reading of a question: which relations it names, how often, in what order."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgcite.kg.store import KGStore
from kgcite.models.embed import OnnxMiniLM
from kgcite.retrieve.path_scorers import (
    Mention,
    ZeroShotPathScorer,
    mention_f1,
    mention_order,
    order_agreement,
    placed_within,
    relation_mentions,
    soft_mentions,
    spare_words,
    unexplained_words,
    unnamed_hops,
)
from kgcite.retrieve.paths import Step
from kgcite.retrieve.scoring import EmbeddingScorer
from kgcite.text.lexicon import stem

RELATIONS = ["written_by", "directed_by", "release_year", "in_language", "has_imdb_rating", "has_imdb_votes"]


def named(question: str, relations: list[str] = RELATIONS) -> list[set[str]]:
    return [set(m.relations) for m in relation_mentions(question, relations)]


def test_a_relation_named_twice_counts_twice_parts_of_one_name_once() -> None:
    assert named("who directed the films written by the writer of X") == [
        {"directed_by"},
        {"written_by"},
        {"written_by"},
    ]
    assert named("what were the release years of films released with X") == [{"release_year"}, {"release_year"}]
    assert named("the films of X were released in which years") == [{"release_year"}]


def test_adjacent_words_are_one_mention_of_the_relations_both_fit() -> None:
    assert named("what is the imdb rating of X") == [{"has_imdb_rating"}]
    assert named("what is the imdb of X") == [{"has_imdb_rating", "has_imdb_votes"}]


def test_one_word_may_mean_several_relations_and_is_covered_once() -> None:
    rels = ["founder", "founded", "inception", "born_in"]
    mentions = relation_mentions("where was the founder of X born", rels)
    assert [set(m.relations) for m in mentions] == [{"founder", "founded", "inception"}, {"born_in"}]
    assert mention_f1((Step("founder"), Step("born_in")), mentions) == 1.0
    assert mention_f1((Step("founder"), Step("founded", True), Step("inception")), mentions) == 0.4


def test_a_sharing_word_doubles_the_next_single_mention() -> None:
    assert named("which films share the same director with X") == [{"directed_by"}, {"directed_by"}]
    assert named("the director of X also directed which films") == [{"directed_by"}, {"directed_by"}]  # not 3


def test_a_peer_noun_names_what_the_peers_share() -> None:
    assert named("who are X's classmates", ["enrolledAt", "patient of"]) == [{"enrolledAt"}]
    assert named("who are X's classmates", ["patient of"]) == []  # co-patients are no classmates
    assert named("who are X's colleagues", ["works in department", "born in"]) == [{"works in department"}]


def test_f1_of_bags() -> None:
    asked = relation_mentions("who directed the films written by the writer of X", RELATIONS)
    gold = (Step("written_by"), Step("written_by", True), Step("directed_by"))
    assert mention_f1(gold, asked) == 1.0
    assert mention_f1((Step("directed_by"),), asked) == 0.5
    assert mention_f1((Step("in_language"),), asked) == 0.0


def test_the_first_hop_is_named_next_to_the_topic() -> None:
    q = "who are the directors of films whose writers also wrote X"
    order = mention_order(q, relation_mentions(q, RELATIONS))
    assert order == [{"written_by"}, {"directed_by"}]
    assert order_agreement((Step("written_by"), Step("written_by", True), Step("directed_by")), order) == 1.0
    assert order_agreement((Step("directed_by"), Step("directed_by", True), Step("written_by")), order) == 0.0
    assert (
        mention_order("who directed it", relation_mentions("who directed it", RELATIONS)) == []
    )  # no masked topic: no order


def test_scores_compare_across_lengths_and_prefer_named_relations() -> None:
    scorer = ZeroShotPathScorer(RELATIONS)
    q = "which languages are the films directed by X in"
    chains = [(Step("directed_by"),), (Step("directed_by", True), Step("in_language")), (Step("in_language"),)]
    scores = scorer.scores(q, chains)
    assert scores.argmax() == 1
    assert scorer.scores(q, []).shape == (0,)


def test_when_wants_a_date_where_and_who_do_not() -> None:
    from kgcite.retrieve.path_scorers import asks_time, time_valued

    assert asks_time("When was the founder of X born?") is True
    assert asks_time("where was the founder of X born") is False and asks_time("what is X") is None
    assert asks_time("the films directed by X were released in which years") is True
    assert asks_time("In which county was the designer of X born?") is False  # a place, not a date
    assert time_valued(["1962-03-14", "1901"]) and not time_valued(["Harrowgate", "1901", "Paris"])
    values = {
        "born_in": ["Harrowgate", "Port Ellis"],
        "date_of_birth": ["1962-03-14", "1938-05-09"],
        "founder": ["Marla Quenby"],
    }
    scorer = ZeroShotPathScorer(list(values), examples=lambda step: values[step.relation])
    chains = [(Step("founder"), Step("born_in")), (Step("founder"), Step("date_of_birth"))]
    assert scorer.scores("Where was the founder of X born?", chains).argmax() == 0
    assert scorer.scores("When was the founder of X born?", chains).argmax() == 1


def test_who_wants_no_place_its_relation_calls_one() -> None:
    from kgcite.retrieve.path_scorers import asks_person, place_named

    assert asks_person("Who is in charge of the venue X opened at?") and asks_person("Whose farm does X come from?")
    assert not asks_person("Where does the person who founded X live?")  # the first question word asks
    assert place_named(Step("farmRegion")) and place_named(Step("located_in_town"))
    assert not place_named(Step("home_city", inverse=True)) and not place_named(Step("artistic director"))
    scorer = ZeroShotPathScorer(["premiere venue", "city", "artistic director"])
    to_city, to_director = (Step("premiere venue"), Step("city")), (Step("premiere venue"), Step("artistic director"))
    penalty = scorer.type_penalty("Who runs the venue X opened at?", [to_city, to_director])
    assert penalty[0] < 0 and penalty[1] == 0
    assert not scorer.type_penalty("Which city is the venue X opened at in?", [to_city]).any()


def test_every_named_relation_walked_and_no_unasked_one() -> None:
    scorer = ZeroShotPathScorer(["born_in", "twinned_with", "mayor"])
    q = "Who is the mayor of the city where X was born?"
    detour, birthplace, right = (
        (Step("born_in"), Step("twinned_with"), Step("mayor")),
        (Step("born_in"),),
        (Step("born_in"), Step("mayor")),
    )
    s = scorer.scores(q, [detour, birthplace, right])
    assert s[2] > scorer.threshold > max(s[0], s[1])  # through a twin city, or the birthplace alone, is no answer
    back = (Step("starred_actors"), Step("starred_actors", True), Step("in_language"))
    films = ZeroShotPathScorer(["starred_actors", "in_language"])
    assert (
        films.scores("what languages are the films starred by X actors in", [back])[0] > films.threshold
    )  # there and back is named


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Who was X's spouse?", {"spouse"}),  # the possessive 's' names no "topic's main category"
        ("Who were X's children?", {"child"}),  # "son of" states a mother; the question asks for children
        ("Who is the father of X?", {"father"}),
        ("Who did X marry?", {"spouse"}),
    ],
)
def test_question_words_name_the_asked_relation_only(question: str, asked: set[str]) -> None:
    vocabulary = ["spouse", "child", "father", "mother", "topic's main category", "occupation"]
    found = {r for m in relation_mentions(question, vocabulary) for r in m.relations}
    assert found == asked


@pytest.fixture(scope="module")
def minilm() -> EmbeddingScorer:
    """The real MiniLM (ONNX), as ``kgcite ask`` loads it."""
    return EmbeddingScorer(OnnxMiniLM())


CLUB = [
    "__sports__player__plays_for_club",
    "__sports__club__home_city",
    "__sports__club__head_coach",
    "__location__city__country",
]


def test_a_word_near_one_relation_name_is_a_mention(minilm: EmbeddingScorer) -> None:
    """'town' is no word of `home city`'s name nor of the lexicon, but MiniLM puts it near: a
    mention, required like any other, so X's club alone no longer answers."""
    question = "What town is the club of X from?"
    lexical = relation_mentions(question, CLUB)
    assert [set(m.relations) for m in lexical] == [{"__sports__player__plays_for_club"}]
    soft = soft_mentions(question, CLUB, lexical, minilm)
    assert [set(m.relations) for m in soft] == [{"__sports__club__home_city"}]
    # a relation the question names already is not named again by a near word
    named = relation_mentions("Which town is the home city of X?", CLUB)
    assert [set(m.relations) for m in named] == [{"__sports__club__home_city"}]
    assert soft_mentions("Which town is the home city of X?", CLUB, named, minilm) == []


def test_a_word_read_into_a_name_is_not_read_again(minilm: EmbeddingScorer) -> None:
    """ "founding" is part of the mention "founding date": it does not also name ``founded``, else
    every right chain misses a required hop and a longer one through ``founded`` wins."""
    relations = ["founding date", "founded", "club", "led by"]
    question = "Which club lists the entities for which X is the founding date?"
    lexical = relation_mentions(question, relations)
    assert [set(m.relations) for m in lexical] == [{"club"}, {"founding date"}]
    assert soft_mentions(question, relations, lexical, minilm) == []
    assert lexical[1].words == frozenset({lexical[1].at - 1, lexical[1].at})


def test_every_hop_needs_a_word(minilm: EmbeddingScorer) -> None:
    """In place of a one-hop [NA] a path needs a word for each hop: a named relation, or a word
    that names none ("engineer"). No word is left for `father` in "the birthplace of X"."""
    scorer = ZeroShotPathScorer(["father", "place_of_birth", "designed_by", "born_in"], minilm)
    via_father = (Step("father"), Step("place_of_birth"))
    assert scorer.names("What is the birthplace of X?", via_father)
    assert not scorer.names("What is the birthplace of X?", via_father, every=True)
    via_designer = (Step("designed_by"), Step("born_in"))
    assert scorer.names("Where was the engineer of X born?", via_designer, every=True)
    assert not scorer.names("Who is the chairman of X?", (Step("designed_by"),), every=True)  # no hop named at all
    assert (
        unexplained_words("Where was the engineer of X born?", scorer.read("Where was the engineer of X born?")[0]) == 1
    )


def test_a_word_no_relation_names_is_left_for_one_unnamed_hop(minilm: EmbeddingScorer) -> None:
    """With ``forgive`` (the grounding model's mix) a hop nobody named costs nothing when a word
    of the question that names no relation is left for it: "hometown" for *person born in*. The
    reading alone keeps the cost, and a chain that leaves a named relation out gains nothing."""
    scorer = ZeroShotPathScorer(["airline_ceo", "person_born_in", "hub_airport"], None)
    question = "What is the hometown of the airline ceo of X?"
    prefix, longer = (Step("airline_ceo"),), (Step("airline_ceo"), Step("person_born_in"))
    plain = scorer.scores(question, [prefix, longer])
    forgiven = scorer.scores(question, [prefix, longer], forgive=True)
    assert plain[0] - plain[1] >= 1.0  # the unnamed hop costs a whole mention
    assert forgiven[0] == pytest.approx(plain[0]) and forgiven[1] == pytest.approx(forgiven[0], abs=0.05)
    skipping = (Step("hub_airport"), Step("person_born_in"))  # walks no `airline ceo`
    assert scorer.scores(question, [skipping], forgive=True)[0] < forgiven[1] - 1.0


def test_spare_words_are_not_part_of_a_mention_a_count_or_filler() -> None:
    """ "tongue" belongs to "mother tongue", "theatres" to what "how many" counts, "value" and
    "whatever" say nothing of a relation: none is left for a hop."""
    scorer = ZeroShotPathScorer(["mother", "languages_spoken", "member_of", "spouse"], None)

    def spare(question: str) -> int:
        return spare_words(question, scorer.read(question)[0])

    assert spare("What was the mother tongue of X?") == 0
    assert (
        unexplained_words("What was the mother tongue of X?", scorer.read("What was the mother tongue of X?")[0]) == 1
    )
    assert spare("How many member theatres does X have?") == 0
    assert spare("Give the value of spouse for whatever has X as mother.") == 0
    assert spare("Which hometown does the spouse of X have?") == 1


def test_a_kind_named_by_what_a_name_starts_from_is_where_the_chain_ends() -> None:
    """ "What label put out X's artists?" asks for a label (a thing with a ``labelHeadquarters``),
    not for the city of its headquarters."""
    from kgcite.retrieve.path_scorers import kind_mentions, spare_words

    relations = ["labelHeadquarters", "memberOf", "performedBy", "producedBy", "signedTo"]
    q = "What label put out X's artists?"
    asked = relation_mentions(q, relations)
    # "artists" names ``performedBy`` (who performed it), walked; "label" only says the kind
    assert [(m.relations, m.optional) for m in asked] == [({"labelHeadquarters"}, True), ({"performedBy"}, False)]
    assert kind_mentions(asked) == asked[:1] and spare_words(q, asked) >= 1
    # in "In what city is X's label headquartered?" both words are said: the relation is walked
    assert not any(m.optional for m in relation_mentions("In what city is X's label headquartered?", relations))

    labels = {"signedTo"}  # the steps that end on labels (things with a labelHeadquarters)
    scorer = ZeroShotPathScorer(
        relations, kinds=lambda step, k: step.relation in labels and k.relation == "labelHeadquarters"
    )
    to_label = (Step("performedBy"), Step("signedTo"))
    to_city = (*to_label, Step("labelHeadquarters"))
    bonus = scorer.kind_bonus(q, [to_label, to_city, (Step("producedBy"),)])
    assert list(bonus) == [scorer.kind_cost, 0.0, 0.0]
    assert scorer.names(q, to_label, every=True) and not scorer.names(q, (Step("producedBy"),), every=True)
    assert not scorer.kind_bonus("Who produced X?", [to_label]).any()  # no kind named: nothing added


def store_of_rows(path: Path, rows: list[tuple[str, str, str]]) -> KGStore:
    """The embedded store loaded from ``rows`` written as a TSV file at ``path``."""
    from kgcite.kg import EmbeddedStore

    path.write_text("".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    store = EmbeddedStore()
    store.load(path)
    return store


def test_a_kind_said_by_what_a_name_reaches_is_where_the_chain_ends(tmp_path: Path) -> None:
    """ "Which *works* does X take its water from?" asks for a value of ``suppliesWorks`` (a
    works), not that that relation be walked: the station's ``drawsFrom`` ends on works, and the
    way on to the reservoirs supplying them does not."""
    from kgcite.retrieve.path_scorers import graph_kinds, kind_mentions, spare_words

    rows = [
        ("Skelby Pumping Station", "drawsFrom", "Brackenford WTW"),
        ("Skelby Pumping Station", "located_in", "Skelby"),
        ("Ambrel Reservoir", "suppliesWorks", "Brackenford WTW"),
        ("Thornby Dam", "suppliesWorks", "Ouselby Treatment Works"),
    ]
    store = store_of_rows(tmp_path / "water.tsv", rows)
    q = "Which works does X take its water from?"
    asked = relation_mentions(q, store.relations())
    assert [(m.relations, m.optional, m.reached) for m in asked] == [({"suppliesWorks"}, False, True)]
    assert kind_mentions(asked) == asked and spare_words(q, asked) == 2  # "take", "water"; no hop for "works"
    scorer = ZeroShotPathScorer(store.relations(), kinds=graph_kinds(store))
    draws, on = (Step("drawsFrom"),), (Step("drawsFrom"), Step("suppliesWorks", True))
    there_and_back = (*on, Step("suppliesWorks"))  # walks the relation named: the word's credit is the hop's
    bonus = scorer.kind_bonus(q, [draws, on, there_and_back, (Step("located_in"),)])
    assert list(bonus) == [scorer.kind_cost, 0.0, 0.0, 0.0]
    # required unless the chain ends on works: X's town leaves it out, X's works do not
    lexical = scorer.lexical(q, [draws, (Step("located_in"),)])
    assert lexical[0] - lexical[1] >= 1.0  # the penalty for leaving a named relation out


def test_what_the_ends_are_called_says_the_kind_they_are(tmp_path: Path) -> None:
    """ "At what *clinic* …" ends on things a third of whose labels say so, or whose compound
    relation names start from it (``hospital in``: hospitals); not on people nor towns."""
    from kgcite.retrieve.path_scorers import graph_end_words

    rows = [
        ("Emil Haag", "patient of", "Dr Edda Lorne"),
        ("Ivan Lutz", "patient of", "Dr Ines Morrow"),
        ("Dr Edda Lorne", "practises at", "Riverside Clinic"),
        ("Dr Ines Morrow", "practises at", "Northgate Infirmary"),
        ("Riverside Clinic", "hospital in", "Darlow"),
        ("Northgate Infirmary", "hospital in", "Pellham"),
        ("Riverside Clinic", "chief physician", "Dr Lena Hoff"),
    ]
    store = store_of_rows(tmp_path / "hospital.tsv", rows)
    ends = graph_end_words(store)
    practises, chief = Step("practises at"), Step("chief physician")
    assert {stem("clinic"), stem("hospital")} <= ends(practises)  # a label's word; `hospital in`'s role
    assert not {stem("clinic"), stem("hospital")} & ends(chief)
    scorer = ZeroShotPathScorer(store.relations(), end_words=ends)
    to_clinic, to_boss = (Step("patient of"), practises), (Step("patient of"), practises, chief)
    q = "At what clinic can the physician of X be found?"
    assert list(scorer.kind_bonus(q, [to_clinic, to_boss])) == [scorer.kind_cost, 0.0]
    assert not scorer.kind_bonus("Who treats X?", [to_clinic]).any()


@pytest.mark.fast
def test_a_mention_names_one_hop_and_the_way_back() -> None:
    """ "Tobias's mentor" names one hop of ``mentored by``: his mentor's mentor has one no word
    names; walking back along a named hop ("films starred by X actors") is named."""
    mentor = [Mention(1, frozenset(["mentored by"]))]
    assert unnamed_hops((Step("mentored by"),), mentor) == 0
    assert unnamed_hops((Step("mentored by"), Step("mentored by")), mentor) == 1
    starred = [Mention(2, frozenset(["starred_actors"]))]
    assert unnamed_hops((Step("starred_actors", inverse=True), Step("starred_actors")), starred) == 0


@pytest.mark.fast
def test_the_places_a_thing_is_in_lead_to_the_place_asked() -> None:
    """ "Which country is X in?" walks X's town and the town's county to the country; not a hop
    that places nothing (X's owner), nor one walked backwards."""
    country = [Mention(1, frozenset(["country"]))]
    question = "Which country is Port Sellick in?"
    assert placed_within(question, (Step("TOWN_COUNTY"), Step("county.region"), Step("country")), country)
    assert not placed_within(question, (Step("ownedBy"), Step("country")), country)
    assert not placed_within(question, (Step("located in", inverse=True), Step("country")), country)
    assert not placed_within("What is the country of X?", (Step("town"), Step("country")), country)
