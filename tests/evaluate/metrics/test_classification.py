"""Classifier scores: hand-computed values on a small labelled sample."""

from __future__ import annotations

import pytest

from kgcite.evaluate.metrics.classification import binary_accuracy, classification_report, false_acceptance

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`

LABELS = ("entailment", "neutral", "contradiction")
GOLD = ["entailment", "entailment", "neutral", "neutral", "contradiction", "contradiction"]
PRED = ["entailment", "neutral", "entailment", "neutral", "entailment", "contradiction"]


def test_report_counts_and_f1() -> None:
    r = classification_report(GOLD, PRED, LABELS)
    assert r.accuracy == pytest.approx(3 / 6) and r.micro_f1 == r.accuracy
    assert r.confusion == ((1, 1, 0), (1, 1, 0), (1, 0, 1))
    assert r.f1["entailment"] == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))
    assert r.f1["contradiction"] == pytest.approx(2 * 1 * 0.5 / 1.5)


def test_false_acceptance_is_share_of_non_entailments_called_entailment() -> None:
    assert false_acceptance(GOLD, PRED) == pytest.approx(2 / 4)
    assert false_acceptance(GOLD, GOLD) == 0.0
    assert false_acceptance(["entailment"], ["neutral"]) == 0.0  # no negatives to let through
    with pytest.raises(ValueError, match="2 gold labels but 1"):
        false_acceptance(GOLD[:2], PRED[:1])


def test_binary_accuracy_counts_entailment_against_the_rest() -> None:
    # gold/pred agree on entailment-or-not at indices 0, 3, 5 (neutral vs contradiction is no error)
    assert binary_accuracy(GOLD, PRED) == pytest.approx(3 / 6)
    assert binary_accuracy(["neutral"], ["contradiction"]) == 1.0 and binary_accuracy([], []) == 0.0
