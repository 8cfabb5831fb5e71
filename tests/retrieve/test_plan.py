"""Which chain may answer, decided once in retrieval: the rules of ``kgcite.retrieve.plan``."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgcite.kg import EmbeddedStore
from kgcite.models.ner import SpacyNER
from kgcite.retrieve.evidence import Chain, Counted, Derivation, Evidence, Facts, Gap, Lacking, Lookup, Unasked
from kgcite.retrieve.linking import EntityLinker
from kgcite.retrieve.path_scorers import ZeroShotPathScorer
from kgcite.retrieve.paths import PathReasoner, Step
from kgcite.retrieve.plan import Planner, chain_answers, turns_back, wants_chain
from kgcite.retrieve.question import QuestionAnalyzer, split_parts
from kgcite.retrieve.retriever import KGRetriever

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


@pytest.mark.parametrize(
    ("question", "groups", "from_topic"),
    [
        # "the A of the B of X": B first, then A of what B reached
        ("Who is the father of the director of Jaws?", [("directed by",), ("father",)], (True, False)),
        # said after the topic: in the question's order
        ("Where was the father of Ann Lee born?", [("father",), ("place of birth",)], (True, False)),
        # joined by "and", or by the topic named again: each asked of the topic
        ("Who are the father and the director of Jaws?", [("father",), ("directed by",)], (True, True)),
        ("Where was Ann Lee born, who was Ann Lee's father?", [("place of birth",), ("father",)], (True, True)),
    ],
)
def test_the_reader_says_the_walking_order(
    question: str, groups: list[tuple[str, ...]], from_topic: tuple[bool, ...]
) -> None:
    topic = "Jaws" if "Jaws" in question else "Ann Lee"
    reading = ANALYZER.analyse(question, [topic])
    (part,) = reading.parts
    assert (list(part.groups), part.from_topic) == (groups, from_topic)
    assert wants_chain(reading, gaps=False) is (not all(from_topic))  # things of X alone are the lookup's


def test_a_gap_asks_for_the_search() -> None:
    assert wants_chain(ANALYZER.analyse("Who was Stephen Crane's father?", ["Stephen Crane"]), gaps=True)


def test_a_second_verb_of_the_asked_subject_is_a_condition_not_a_part() -> None:
    assert split_parts("Who plays for Redmarsh United and was born in Castelmir?") == [
        "Who plays for Redmarsh United and was born in Castelmir"
    ]
    assert split_parts("When was X born and where did he die?") == ["When was X born", "where did he die"]
    assert split_parts("Who founded X and is he alive?") == ["Who founded X", "is he alive"]


# -- the plan's branches, over a user's graph (topics given: no linking model) ---------------------

PUBLISHING = Path(__file__).resolve().parents[1] / "data" / "publishing.tsv"


@pytest.fixture(scope="module")
def planner() -> Planner:
    store = EmbeddedStore()
    store.load(PUBLISHING)
    retriever = KGRetriever(store, EntityLinker(store, SpacyNER()))  # the NER model loads only to link
    search = PathReasoner(store, ZeroShotPathScorer(store.relations()))
    return Planner(retriever, search)


def plan(planner: Planner, question: str, *topics: str) -> Evidence:
    return planner.plan(planner.retriever.retrieve_many([question], [list(topics)], strict=False)[0])


def test_a_relation_the_topic_holds_is_a_lookup_of_its_facts(planner: Planner) -> None:
    evidence = plan(planner, "When was Marsh & Cole founded?", "Marsh & Cole")
    assert isinstance(evidence, Lookup) and not evidence.gaps
    assert [(f.relation, [t.object_value for t in f.triples]) for f in evidence.items if isinstance(f, Facts)] == [
        ("yearFounded", ["1887"])
    ]
    assert set(evidence.timings) == {"plan"}  # no search ran


def test_a_relation_the_topic_lacks_is_a_gap_never_another_relation(planner: Planner) -> None:
    evidence = plan(planner, "When was Ottilie Greyfen born?", "Ottilie Greyfen")  # born in Eldmoor: no date
    assert isinstance(evidence, Lookup) and evidence.gaps and not evidence.found
    assert all(isinstance(i, (Gap, Unasked)) for i in evidence.items), evidence.items


def test_a_count_is_a_derivation_with_its_conclusion(planner: Planner) -> None:
    evidence = plan(planner, "How many books did Marsh & Cole publish?", "Marsh & Cole")
    assert isinstance(evidence, Derivation)
    counted = [i for i in evidence.items if isinstance(i, Counted)]
    assert len(counted) == 1 and evidence.predicted == (str(counted[0].n),) and counted[0].n >= 3


def test_no_topic_found_is_lacking(planner: Planner) -> None:
    evidence = plan(planner, "When was Nowhere Press founded?", "Nowhere Press")
    assert isinstance(evidence, Lacking) and evidence.linked == ()


def test_each_relation_named_is_walked_in_order_within_a_lookup(planner: Planner) -> None:
    evidence = plan(planner, "Where was the author of The Salt Orchard born?", "The Salt Orchard")
    assert isinstance(evidence, Lookup) and [t.relation for t in evidence.steps] == ["writtenBy"]
    assert [(f.subject, f.relation) for f in evidence.items if isinstance(f, Facts)][-1] == (
        "Samuel Idris (novelist)",
        "born in",
    )


def test_what_a_name_with_no_facts_is_asked_is_a_gap_said_of_it() -> None:
    """A hop to a value no node stands for ends the walk there: not the topic's own fact."""
    from kgcite.kg.model import Entity, Subgraph, Triple
    from kgcite.retrieve.lookup import select

    reading = ANALYZER.analyse("Where was the father of Ann Lee born?", ["Ann Lee"])
    topic = Entity("Q1", "Ann Lee")
    father, born = (Triple("Q1", "Ann Lee", r, v) for r, v in (("father", "Tobias Lee"), ("place of birth", "Eldmoor")))
    lookup = select(reading, Subgraph((topic,), (father, born)), [topic])
    assert [(type(i).__name__, getattr(i, "subject", None)) for i in lookup.items] == [
        ("Facts", "Ann Lee"),
        ("Gap", "Tobias Lee"),
    ]


def test_what_is_asked_of_a_described_thing_is_never_the_topics_own_fact() -> None:
    """ "Where was the mentor of Ann Lee born?": no relation is named by "mentor", and Ann Lee's own
    birthplace is no answer: the part is unasked (the search may still walk to the mentor)."""
    from kgcite.kg.model import Entity, Subgraph, Triple
    from kgcite.retrieve.lookup import select

    topic = Entity("Q1", "Ann Lee")
    born = Triple("Q1", "Ann Lee", "place of birth", "Eldmoor")
    for question in ("Where was the mentor of Ann Lee born?", "Where was Ann Lee's mentor born?"):
        lookup = select(ANALYZER.analyse(question, ["Ann Lee"]), Subgraph((topic,), (born,)), [topic])
        assert [type(i).__name__ for i in lookup.items] == ["Unasked"], question
    lookup = select(ANALYZER.analyse("Where was Ann Lee born?", ["Ann Lee"]), Subgraph((topic,), (born,)), [topic])
    assert [type(i).__name__ for i in lookup.items] == ["Facts"]


def test_a_chain_the_lookup_cannot_walk_is_searched_for(planner: Planner) -> None:
    evidence = plan(planner, "In which city is the publisher of The Salt Orchard based?", "The Salt Orchard")
    assert isinstance(evidence, Chain) and evidence.result.best is not None
    assert [s.relation for s in evidence.result.best.chain] == ["publishedBy", "cityOfHQ"]
    assert evidence.result.predicted()[:1] == ["Brackenford"] and {"plan", "paths"} <= set(evidence.timings)


def test_how_many_counts_and_does_not_ask_for_an_explanation() -> None:
    analyzer = QuestionAnalyzer(["plays_in", "plays_instrument", "influenced by"])
    counted = analyzer.analyse("How many musicians play in the Hollin Ensemble?", ["Hollin Ensemble"])
    assert counted.parts[0].relations == ("plays_in",)  # "play" names `plays in` when counting
    explained = analyzer.analyse("How did Picasso influence Miro?", ["Picasso", "Miro"])
    assert "influenced by" not in explained.parts[0].relations  # "how did … influence" asks why, not who


def test_the_role_of_a_leaders_title_said_alone_names_it() -> None:
    analyzer = QuestionAnalyzer(["headCoach", "mentored_by", "head winemaker"])
    coached = analyzer.analyse("Who coaches Ormsby Boat Club?", ["Ormsby Boat Club"]).parts[0].relations
    assert "headCoach" in coached  # not only the teaching bond its verb also asks
    assert "headCoach" in analyzer.analyse("Who is the coach of Ormsby?", ["Ormsby"]).parts[0].relations
    # another relation's whole name said there, or the answer's kind, is not the title's role
    both = QuestionAnalyzer(["headCoach", "coach"])
    assert both.analyse("Who is the coach of Ormsby?", ["Ormsby"]).parts[0].relations == ("coach",)
    kind = analyzer.analyse("Which winemakers learned the trade from Tomas?", ["Tomas"]).parts[0].relations
    assert "head winemaker" not in kind
