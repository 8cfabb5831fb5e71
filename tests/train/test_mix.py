"""The mix of the grounding model and the words that name relations, chosen on a user's examples."""

from __future__ import annotations

from kgcite.bench.synthetic import synthetic_graph
from kgcite.retrieve.path_scorers import shipped_grounding
from kgcite.runtime import export_answerer
from kgcite.train.grounding_examples import store_of
from kgcite.train.mix import choose_mix
from kgcite.train.paths import QAItem, graph_questions


def test_questions_that_say_the_relations_names_lean_on_the_words() -> None:
    """A synthetic graph's relations have invented names ("mollwiesed by") its questions say word
    for word: the model, trained on real words, reads them worse than the words do, and twenty
    examples are enough to tell."""
    store = store_of(synthetic_graph(7001))
    asked = graph_questions(store, 60, 5, style="test")
    items: list[QAItem] = [it for it in asked if it.chain and len(it.chain) == 2][:20]
    mix = choose_mix(
        [(store, items)],
        shipped_grounding(),
        export_answerer,
        progress=False,
    )
    assert mix.asked == len(items) and mix.default == 0.25
    assert mix.weight > mix.default and mix.right[mix.weight] > mix.right[mix.default]
    assert "<- chosen" in mix.table()
