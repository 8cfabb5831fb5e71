"""``kgcite eval answers``'s arithmetic: pure functions over hand-made rows."""

from __future__ import annotations

import pytest

from kgcite.evaluate.metrics.answers import answer_metrics, chains_to, set_scores

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def test_set_scores_compare_names_loosely() -> None:
    assert set_scores(["steven_spielberg"], ["Steven Spielberg"]) == (1.0, 1.0, 1.0)
    p, r, f = set_scores(["A", "B"], ["a", "c", "d"])
    assert (p, r) == (0.5, pytest.approx(1 / 3)) and f == pytest.approx(0.4)
    assert set_scores([], ["a"]) == (0.0, 0.0, 0.0)


def test_a_chain_must_walk_from_a_topic_to_the_answer() -> None:
    chain = [
        ("Jaws", "directed_by", "Steven Spielberg"),
        ("Munich", "directed_by", "Steven Spielberg"),
        ("Munich", "in_language", "German"),
    ]
    assert chains_to(chain, ["Jaws"], "German")
    assert not chains_to(chain, ["Duel"], "German")  # starts elsewhere
    assert not chains_to(chain[::2], ["Jaws"], "German")  # a gap: Jaws … Munich share nothing
    assert not chains_to(chain, ["Jaws"], "English")
    assert not chains_to([], ["Jaws"], "Jaws")


def test_metrics_over_rows() -> None:
    rows = [
        {
            "answers": ["German"],
            "topic": ["Jaws"],
            "predicted": ["German", "English"],
            "ms": 10,
            "llm_calls": 0,
            "answer_paths": {
                "German": [
                    ["Jaws", "directed_by", "S"],
                    ["Munich", "directed_by", "S"],
                    ["Munich", "in_language", "German"],
                ],
                "English": [["Jaws", "in_language", "English"]],
            },
            "citations": [
                ["Jaws", "directed_by", "S"],
                ["Munich", "in_language", "German"],
                ["Jaws", "in_language", "Klingon"],
            ],
        },
        {"answers": ["x"], "topic": ["y"], "predicted": [], "ms": 30, "llm_calls": 1},
    ]
    m = answer_metrics(rows, in_graph=lambda t: t[2] != "Klingon")
    assert m["n"] == 2 and m["hits_at_1"] == 0.5 and m["na_rate"] == 0.5
    assert m["answer_precision"] == 0.25 and m["answer_recall"] == 0.5
    assert m["citation_correctness"] == pytest.approx(2 / 3) and m["path_cited"] == 1.0
    assert m["llm_calls_per_question"] == 0.5 and m["p50_ms"] == 20
    assert answer_metrics(rows)["citation_correctness"] is None
    assert answer_metrics([]) == {"n": 0}
