"""Gold chains recovered from answers, and generated questions that know theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgcite.kg import EmbeddedStore
from kgcite.retrieve.paths import Step
from kgcite.train.paths import generated_questions, gold_chain, walker_for
from tests.helpers import BOOKS


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    path: Path = tmp_path_factory.mktemp("books") / "books.tsv"
    path.write_text(BOOKS)
    s = EmbeddedStore()
    s.load(path)
    return s


def test_the_shortest_chain_reaching_exactly_the_answers_is_gold(store: EmbeddedStore) -> None:
    chains = walker_for(store, 100).chains("Ines Calder", 2)
    assert gold_chain(chains, ["harbor_press", "Northwind"]) == (Step("written_by", True), Step("published_by"))
    assert gold_chain(chains, ["Harbor Press"]) is None  # no chain reaches exactly that


def test_two_chains_of_one_length_with_the_same_answers_are_ambiguous() -> None:
    a, b = (Step("directed_by"), Step("directed_by", True)), (Step("written_by"), Step("written_by", True))
    assert gold_chain({a: frozenset({"x"}), b: frozenset({"x"})}, ["x"]) is None
    assert gold_chain({a: frozenset({"x"}), (Step("r"),): frozenset({"x"})}, ["x"]) == (Step("r"),)


def test_generated_questions_are_answered_by_their_own_chain(store: EmbeddedStore) -> None:
    entities = [
        e for e in (store.entity(i) for i in ("The Glass Orchard", "Salt Roads", "Night Ferry", "Ines Calder")) if e
    ]
    items = list(generated_questions(store, entities, n=4, seed=1))
    assert items and all(it.topic.label in it.question and it.answers and it.chain for it in items)
    walker = walker_for(store, 100)
    for it in items:
        reached = walker.chains(it.topic.id, 3)[it.chain]  # type: ignore[index]
        assert reached == frozenset(a.lower() for a in it.answers)
