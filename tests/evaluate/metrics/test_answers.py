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


def _sentence(text: str, na: bool, *cited: tuple[str, str, str]) -> dict[str, object]:
    return {"text": text, "na": na, "citations": [{"qid": q, "property": p, "value": v} for q, p, v in cited]}


def test_an_answer_of_na_sentences_alone_is_no_answer() -> None:
    """An answer whose only sentence is [NA] predicted something once: it counts as unanswered."""
    row = {
        "answers": ["1887"],
        "predicted": ["1887"],
        "sentences": [_sentence("The graph does not say when Marsh & Cole was founded.", True)],
    }
    m = answer_metrics([row])
    assert m["na_rate"] == 1.0 and m["hits_at_1"] == 0.0


def test_a_derived_answer_is_path_cited_when_its_conclusion_cites_every_fact() -> None:
    a, b = ("A", "opened", "1871"), ("B", "opened", "1903")
    whole = [_sentence("A opened in 1871.", False, a), _sentence("B opened in 1903.", False, b)]
    rows = [
        {
            "answers": ["yes"],
            "predicted": ["yes"],
            "form": "yesno",
            "sentences": [*whole, _sentence("Yes: A is older.", False, a, b)],
        },
        {
            "answers": ["A"],
            "predicted": ["A"],
            "form": "comparison",
            "sentences": [*whole, _sentence("So A is older.", False, a)],
        },
    ]
    assert answer_metrics(rows[:1])["path_cited"] == 1.0
    assert answer_metrics(rows[1:])["path_cited"] == 0.0  # the conclusion leaves B's date uncited
