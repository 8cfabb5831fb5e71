"""Relation-path reasoning over a real embedded store, on a small book graph written for it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from kgcite.kg import EmbeddedStore, InputError
from kgcite.kg.loaders import read_tsv
from kgcite.models.embed import OnnxMiniLM
from kgcite.retrieve.path_scorers import ZeroShotPathScorer
from kgcite.retrieve.paths import Chain, GraphWalker, Layer, PathConfig, PathReasoner, ScoredChain, Step, bounded
from kgcite.retrieve.scoring import EmbeddingScorer


@pytest.fixture(scope="module")
def store(books_store: EmbeddedStore) -> EmbeddedStore:
    return books_store


@pytest.fixture(scope="module")
def reasoner(store: EmbeddedStore) -> PathReasoner:
    """Lexical zero-shot scoring only: deterministic, no model."""
    return PathReasoner(store, ZeroShotPathScorer(store.relations()))


def _ask(r: PathReasoner, store: EmbeddedStore, question: str, *topics: str) -> tuple[list[tuple[str, bool]], set[str]]:
    result = r.answer(question, [store.entity(t) for t in topics])  # type: ignore[misc]
    chain = [(s.relation, s.inverse) for s in result.best.chain] if result.best else []
    return chain, set(result.predicted())


def test_one_hop(reasoner: PathReasoner, store: EmbeddedStore) -> None:
    assert _ask(reasoner, store, "who wrote The Glass Orchard", "The Glass Orchard") == (
        [("written_by", False)],
        {"Ines Calder"},
    )


def test_two_hops_backwards_then_forwards(reasoner: PathReasoner, store: EmbeddedStore) -> None:
    chain, answers = _ask(reasoner, store, "which publishers published the books written by Ines Calder", "Ines Calder")
    assert chain == [("written_by", True), ("published_by", False)]
    assert answers == {"Harbor Press", "Northwind"}


def test_sharing_walks_there_and_back(reasoner: PathReasoner, store: EmbeddedStore) -> None:
    chain, answers = _ask(reasoner, store, "which books share a publisher with Night Ferry", "Night Ferry")
    assert chain == [("published_by", False), ("published_by", True)]
    assert answers == {"The Glass Orchard"}  # the topic itself is never an answer


def test_hop_count_comes_from_the_scores(reasoner: PathReasoner, store: EmbeddedStore) -> None:
    chain, answers = _ask(reasoner, store, "where was the writer of Night Ferry born", "Night Ferry")
    assert chain == [("written_by", False), ("born_in", False)] and answers == {"Aarhus"}
    chain, answers = _ask(reasoner, store, "in which languages are the books by the writer of Salt Roads", "Salt Roads")
    assert chain == [("written_by", False), ("written_by", True), ("in_language", False)]
    assert answers == {"Portuguese", "English"}


def test_every_answer_cites_the_chain_that_reaches_it(reasoner: PathReasoner, store: EmbeddedStore) -> None:
    result = reasoner.answer(
        "which publishers published the books written by Ines Calder", [store.entity("Ines Calder")]
    )  # type: ignore[list-item]
    for a in result.answers:
        first, last = a.triples
        assert first.object_id == "Ines Calder" and first.subject_id == last.subject_id and last.object_value == a.label
        assert all(store.match(subject_id=t.subject_id, relation=t.relation, value=t.object_value) for t in a.triples)
    assert result.llm_calls == 0


def test_a_second_topic_constrains_the_answers(reasoner: PathReasoner, store: EmbeddedStore) -> None:
    result = reasoner.answer(
        "which books written by Ines Calder were published by Harbor Press",
        [store.entity("Ines Calder"), store.entity("Harbor Press")],  # type: ignore[list-item]
    )
    assert result.predicted() == ["The Glass Orchard"] and result.constraints == ("Harbor Press",)
    assert [t.relation for t in result.answers[0].triples] == ["written_by", "published_by"]


def test_nothing_named_is_no_answer(reasoner: PathReasoner, store: EmbeddedStore) -> None:
    result = reasoner.answer("who is the mayor of Lisbon", [store.entity("Lisbon")])  # type: ignore[list-item]
    assert result.best is None and not result.answers and result.candidates


def test_minilm_breaks_ties_where_no_relation_is_named(store: EmbeddedStore, embedder: OnnxMiniLM) -> None:
    r = PathReasoner(store, ZeroShotPathScorer(store.relations(), EmbeddingScorer(embedder)))
    chain, answers = _ask(r, store, "what is the birthplace of Tomas Reyl", "Tomas Reyl")
    assert chain == [("born_in", False)] and answers == {"Aarhus"}


def test_a_clear_lead_names_a_one_hop_chain(reasoner: PathReasoner) -> None:
    """A one-hop chain no word names answers where nothing else comes near ("Who performed in X?")."""
    cast, tags = (Step("starred_actors", False),), (Step("has_tags", False),)
    config = reasoner.config
    lead = ScoredChain(cast, config.lead_floor + 0.05)
    assert reasoner.leads(lead, [lead, ScoredChain(tags, lead.score - config.lead_margin - 0.01)])
    # a near second ("What is X categorized as?": genre or tags) or a low score is no clear pick
    assert not reasoner.leads(lead, [lead, ScoredChain(tags, lead.score - config.lead_margin + 0.01)])
    low = ScoredChain(cast, config.lead_floor - 0.01)
    assert not reasoner.leads(low, [low, ScoredChain(tags, low.score - 1.0)])
    # two hops are asked by their words, never by a lead alone
    two = ScoredChain((*cast, Step("starred_actors", True)), 0.9)
    assert not reasoner.leads(two, [two])


def test_config_is_checked() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        PathConfig(width=0)
    with pytest.raises(ValueError, match="max_chains"):
        PathConfig(max_chains=0)
    assert Step("directed_by", True).text() == "reverse of directed by"


@pytest.mark.fast
def test_a_depth_scores_at_most_max_chains_the_asked_ones_first() -> None:
    chains = [(Step(f"rel {i}"),) for i in range(10)] + [(Step("founder"),)]
    kept, left = bounded(chains, {"founder"}, 3)
    assert kept == [chains[0], chains[1], chains[10]] and left == 8
    assert bounded(chains, set(), 20) == (chains, 0)


def test_a_wide_entity_costs_max_chains_and_says_so(store: EmbeddedStore) -> None:
    r = PathReasoner(store, ZeroShotPathScorer(store.relations()), PathConfig(max_chains=2))
    book = store.entity("The Glass Orchard")
    assert book is not None
    result = r.answer("who wrote The Glass Orchard", [book], must_walk={"written_by"})
    assert result.unscored > 0 and result.stats["chains_scored"] <= 2 * r.config.depth
    assert result.predicted() == ["Ines Calder"]


def test_a_graph_file_may_be_tab_separated(store: EmbeddedStore, tmp_path: Path) -> None:
    assert store.match(subject_id="Night Ferry", relation="in_language")[0].object_value == "Danish"
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tb\tc\nx\ty\n")
    with pytest.raises(InputError, match=r"bad.tsv:2: expected head<TAB>relation<TAB>tail, got 2 fields"):
        list(read_tsv(bad))


class _Table:
    """Scores chains by a table of relation names; a chain ending on ``short`` relations holds
    -1 of its score for stopping short of what is asked (:class:`~kgcite.retrieve.paths.KnowsShort`)."""

    name, threshold = "table", 0.5

    def __init__(self, table: dict[tuple[str, ...], float], short: set[str]) -> None:
        self.table, self.short = table, short

    def scores(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        return np.array([self.table.get(tuple(s.relation for s in c), 0.0) for c in chains], dtype=np.float32)

    def shortfall(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        return np.array([-1.0 if c[-1].relation in self.short else 0.0 for c in chains], dtype=np.float32)  # either way

    def stops_short(self, question: str, chains: Sequence[Chain]) -> np.ndarray:
        return self.shortfall(question, chains) != 0


def test_the_beam_walks_on_from_a_chain_that_stops_short(tmp_path: Path) -> None:
    # "In which province is the works that makes the vase?": the works' town is no province
    # (its score holds the shortfall), but the province lies one hop past it
    graph = tmp_path / "glass.tsv"
    graph.write_text(
        "Vase\tmade_by\tWorks\nWorks\testablished\t1793\nWorks\ttown\tHaapasalo\nHaapasalo\tprovince\tKoskela\n"
    )
    store = EmbeddedStore()
    store.load(graph)
    table = {("made_by",): 0.2, ("made_by", "established"): 0.3, ("made_by", "town"): -0.5}
    table[("made_by", "town", "province")] = 0.9
    vase = store.entity("Vase")
    assert vase is not None
    result = PathReasoner(store, _Table(table, {"town"}), PathConfig(width=1)).answer("In which province …", [vase])
    assert result.predicted() == ["Koskela"]
    # without the shortfall said apart, the beam keeps the founding year and never reaches it
    blind = _Table(table, set())
    assert PathReasoner(store, blind, PathConfig(width=1)).answer("In which province …", [vase]).predicted() == []


def test_a_chain_that_stops_short_answers_nothing(tmp_path: Path) -> None:
    # "In which province is the works that makes the vase?" where the graph lacks the town's
    # province: the town, however well it scores, is no answer
    graph = tmp_path / "glass.tsv"
    graph.write_text("Vase\tmade_by\tWorks\nWorks\ttown\tHaapasalo\n")
    store = EmbeddedStore()
    store.load(graph)
    vase = store.entity("Vase")
    assert vase is not None
    table = {("made_by", "town"): 0.9}
    result = PathReasoner(store, _Table(table, {"town"}), PathConfig(width=1)).answer("In which province …", [vase])
    assert result.best is None and result.predicted() == []
    assert PathReasoner(store, _Table(table, set())).answer("In which province …", [vase]).predicted() == ["Haapasalo"]


def test_answers_reached_only_back_through_the_topic_come_last(tmp_path: Path) -> None:
    # "When were the films that share a writer with Alpha released?": Alpha is no film sharing a
    # writer with itself, so its own year comes last; a year another film has too cites that film
    graph = tmp_path / "films.tsv"
    graph.write_text(
        "Alpha\twritten_by\tWren\nBeta\twritten_by\tWren\nGamma\twritten_by\tWren\n"
        "Alpha\trelease_year\t1999\nAlpha\trelease_year\t2001\nGamma\trelease_year\t2001\nBeta\trelease_year\t2009\n"
    )
    store = EmbeddedStore()
    store.load(graph)
    walker = GraphWalker(store)
    layers: list[Layer] = []
    for step in (Step("written_by", False), Step("written_by", True), Step("release_year", False)):
        layers.append(walker.walk("Alpha", layers, step)[0])
    answers = walker.answers("Alpha", layers)
    assert [a.label for a in answers] == ["2001", "2009", "1999"]  # two walks, one, then only through Alpha
    assert [t.subject_label for t in answers[0].triples] == ["Alpha", "Gamma", "Gamma"]
    assert [t.subject_label for t in answers[2].triples] == ["Alpha", "Alpha", "Alpha"]
