"""Relevance pairs for the re-ranker: labels come from the graph, and the ranking metric."""

from __future__ import annotations

from kgcite.bench.metaqa import MetaQAQuestion
from kgcite.kg.model import Triple
from kgcite.train.rerank import GROUP, heldout_pairs, metaqa_queries, ranking_scores
from kgcite.train.rerank_data import Query, relevance_pairs


def say(t: Triple) -> str:
    return f"{t.subject_label} {t.relation.replace('_', ' ')} {t.object_value}."


TRIPLES = [
    Triple(s, s, r, o, o)
    for s, r, o in [
        ("Jaws", "directed_by", "Steven Spielberg"),
        ("Jaws", "release_year", "1975"),
        ("Jaws", "has_genre", "Thriller"),
        ("Duel", "directed_by", "Steven Spielberg"),
        ("Duel", "release_year", "1971"),
        ("Alien", "directed_by", "Ridley Scott"),
        ("Alien", "release_year", "1979"),
    ]
]


def test_groups_are_one_relevant_then_three_hard_negatives() -> None:
    pairs = relevance_pairs(
        TRIPLES, say, n_queries=50, seed=1, questions=[Query("who directed Jaws", "Jaws", "directed_by")]
    )
    assert [p.label for p in pairs] == ["relevant", "irrelevant", "irrelevant", "irrelevant"]
    pos, same_entity, same_relation, unrelated = (p.hypothesis for p in pairs)
    assert "Jaws directed by Steven Spielberg." in pos
    assert "Jaws" in same_entity and "directed by" not in same_entity  # the entity without the asked property
    assert "directed by" in same_relation and "Jaws" not in same_relation  # the property on another entity
    assert "directed by" not in unrelated


def test_inverse_questions_index_the_object() -> None:
    q = MetaQAQuestion(
        1, 1, "which films did [Steven Spielberg] direct", "Steven Spielberg", ("Jaws", "Duel"), "director_to_movie"
    )
    [query] = metaqa_queries([q])
    assert query == Query("which films did Steven Spielberg direct", "Steven Spielberg", "^directed_by")


def test_ranking_scores_count_ties_against_the_model() -> None:
    assert ranking_scores([0.9, 0.1, 0.2, 0.3]) == {"n": 1, "p_at_1": 1.0, "mrr": 1.0}
    assert ranking_scores([0.5, 0.5, 0.1, 0.1])["p_at_1"] == 0.0
    assert ranking_scores([0.1, 0.9, 0.8, 0.0, 0.9, 0.0, 0.0, 0.0]) == {"n": 2, "p_at_1": 0.5, "mrr": (1 / 3 + 1) / 2}


def test_metaqa_test_groups_are_complete() -> None:
    pairs = heldout_pairs(n=50)
    assert len(pairs) == 50 * GROUP
    assert all(p.label == ("relevant" if i % GROUP == 0 else "irrelevant") for i, p in enumerate(pairs))
