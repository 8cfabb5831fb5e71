"""Scores of a classifier against gold labels: accuracy, per-class F1, micro-F1, confusion matrix.

Pure functions over label sequences; the NLI model's quality report and the attribution
evaluators' metrics (CAQA) both use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ClassificationReport:
    labels: tuple[str, ...]
    n: int
    accuracy: float
    f1: dict[str, float]
    micro_f1: float
    macro_f1: float
    confusion: tuple[tuple[int, ...], ...]  # rows gold, columns predicted, in ``labels`` order

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "accuracy": self.accuracy,
            "micro_f1": self.micro_f1,
            "macro_f1": self.macro_f1,
            "f1": self.f1,
            "labels": list(self.labels),
            "confusion": [list(r) for r in self.confusion],
        }


def confusion(gold: Sequence[str], pred: Sequence[str], labels: Sequence[str]) -> list[list[int]]:
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    index = {label: i for i, label in enumerate(labels)}
    m = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, pred, strict=True):
        if g not in index:
            raise ValueError(f"gold label {g!r} is not one of {list(labels)}")
        if p in index:  # an unknown prediction counts against recall only
            m[index[g]][index[p]] += 1
    return m


def classification_report(gold: Sequence[str], pred: Sequence[str], labels: Sequence[str]) -> ClassificationReport:
    """Micro-F1 over single-label classes equals accuracy; reported under both names as CAQA does."""
    m = confusion(gold, pred, labels)
    n = len(gold)
    f1: dict[str, float] = {}
    for i, label in enumerate(labels):
        tp = m[i][i]
        n_pred = sum(row[i] for row in m) + sum(
            1 for g, p in zip(gold, pred, strict=True) if p == label and g not in labels
        )
        n_gold = sum(1 for g in gold if g == label)  # an unknown prediction still counts against recall
        prec = tp / n_pred if n_pred else 0.0
        rec = tp / n_gold if n_gold else 0.0
        f1[label] = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    correct = sum(m[i][i] for i in range(len(labels)))
    acc = correct / n if n else 0.0
    present = [label for i, label in enumerate(labels) if sum(m[i])]
    macro = sum(f1[label] for label in present) / len(present) if present else 0.0
    return ClassificationReport(tuple(labels), n, acc, f1, acc, macro, tuple(tuple(r) for r in m))


def binary_accuracy(gold: Sequence[str], pred: Sequence[str], positive: str = "entailment") -> float:
    """Accuracy of ``positive`` against everything else: what alignment and ``[NA]`` rely on."""
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    return sum((g == positive) == (p == positive) for g, p in zip(gold, pred, strict=True)) / len(gold) if gold else 0.0


def false_acceptance(gold: Sequence[str], pred: Sequence[str], positive: str = "entailment") -> float:
    """Share of the pairs whose gold label is not ``positive`` that were predicted ``positive``.

    For a verifier this is the costly error (a wrong claim passes), which accuracy hides when
    recall rises at the same time."""
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    negatives = [p for g, p in zip(gold, pred, strict=True) if g != positive]
    return sum(p == positive for p in negatives) / len(negatives) if negatives else 0.0
