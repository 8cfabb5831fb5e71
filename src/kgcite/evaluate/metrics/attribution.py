"""Scores of an attribution evaluator on a CAQA-style benchmark (CAQA §5.2, Tables 6–7):
F1 per category, micro-F1 overall and per complexity, the confusion matrix, and FactScore on
partially supportive samples against the generator's known share of supported sub-facts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kgcite.evaluate.metrics.classification import classification_report, confusion

#: CAQA's attribution categories and sample complexities.
CATEGORIES = ("supportive", "partially_supportive", "contradictory", "irrelevant")
COMPLEXITIES = ("single", "union", "intersection", "concatenation")


def evaluator_report(rows: Sequence[Mapping[str, Any]], predicted: Sequence[str]) -> dict[str, Any]:
    """Pure: gold rows (``category``, ``complexity``) against predicted categories."""
    gold = [str(r["category"]) for r in rows]
    overall = classification_report(gold, predicted, CATEGORIES)
    by_complexity: dict[str, float | None] = {}
    for c in COMPLEXITIES:
        idx = [i for i, r in enumerate(rows) if r.get("complexity") == c]
        by_complexity[c] = (
            classification_report([gold[i] for i in idx], [predicted[i] for i in idx], CATEGORIES).micro_f1
            if idx
            else None
        )
    extra = sorted({p for p in predicted if p not in CATEGORIES})
    return {
        "n": len(rows),
        "overall_micro_f1": overall.micro_f1,
        "f1": overall.f1,
        "complexity_micro_f1": by_complexity,
        "labels": list(CATEGORIES),
        "predicted_labels": list(CATEGORIES) + extra,
        "confusion": confusion(gold, predicted, list(CATEGORIES) + extra)
        if extra
        else [list(r) for r in overall.confusion],
    }


def factscore_error(predicted: Sequence[float], known: Sequence[float]) -> dict[str, float | int]:
    """Mean FactScore of the evaluator and of the generator's labels, and their mean absolute gap."""
    n = len(predicted)
    if not n:
        return {"n": 0, "factscore": 0.0, "known": 0.0, "error_rate": 0.0}
    return {
        "n": n,
        "factscore": sum(predicted) / n,
        "known": sum(known) / n,
        "error_rate": sum(abs(p - k) for p, k in zip(predicted, known, strict=True)) / n,
    }


#: The head of CAQA Table 6's layout: F1 per category, micro-F1 per complexity, overall, speed.
TABLE6_HEAD = [
    "bench",
    "evaluator",
    "n",
    "Sup.",
    "Par.",
    "Con.",
    "Irr.",
    "S.",
    "U.",
    "I.",
    "C.",
    "micro-F1",
    "samples/s",
]


def table6_row(bench: str, name: str, report: Mapping[str, Any]) -> tuple[Any, ...]:
    """One row of :data:`TABLE6_HEAD` from :func:`evaluator_report` plus ``per_s``; – where undefined."""

    def f(v: float | None) -> str:
        return "–" if v is None else f"{v:.3f}"

    return (
        bench,
        name,
        report["n"],
        *(f(report["f1"][c]) for c in CATEGORIES),
        *(f(report["complexity_micro_f1"][c]) for c in COMPLEXITIES),
        f(report["overall_micro_f1"]),
        f"{report['per_s']:.1f}",
    )
