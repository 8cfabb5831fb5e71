"""kgcite's trained attribution evaluator: a 4-way cross-encoder over (claim, evidence).

The claim is the question with its answer statement (:func:`claim_text`, the same text the
trainer pairs with the evidence); the four labels are CAQA's categories. Shipped as int8 ONNX.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kgcite.models.pairs import OnnxPairModel


@dataclass(frozen=True, slots=True)
class AttributionItem:
    question: str
    answer_statement: str
    evidence: str

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> AttributionItem:
        """A CAQA-style row (``question``, ``answer_statement``, ``citation``) as the evaluator reads it."""
        return cls(row["question"], row["answer_statement"], row["citation"])


@dataclass(frozen=True, slots=True)
class Judgement:
    category: str  # one of the CAQA categories, "not_supportive" (binary evaluators), or "unknown"
    scores: dict[str, float]
    why: dict[str, Any] | None = None  # what the evaluator read and what decided (structured evaluator)


def claim_text(question: str, answer_statement: str) -> str:
    """The first text of the pair: what the evidence must support (training and judging alike)."""
    return f"Question: {question} Answer: {answer_statement}"


class TrainedEvaluator(OnnxPairModel[Judgement]):
    """An export of ``kgcite train evaluator`` (the shipped one by default)."""

    folder, kind, trainer, prefix = "evaluator", "attribution evaluator", "evaluator", "trained"
    cache_size = 10_000  # a benchmark's samples seldom repeat; FactScore's sub-facts do

    def _value(self, row: np.ndarray) -> Judgement:
        scores = {label: float(p) for label, p in zip(self.export.labels, row, strict=True)}
        return Judgement(max(scores, key=lambda k: scores[k]), scores)

    def judge(self, items: Sequence[AttributionItem]) -> list[Judgement]:
        return self.pairs([claim_text(i.question, i.answer_statement) for i in items], [i.evidence for i in items])


def load_evaluator(spec: str | Path | None = None) -> TrainedEvaluator:
    """``None``/``kgcite`` → the shipped evaluator; else a ``kgcite train evaluator`` export folder
    (a folder without ``model.onnx`` is refused with how to make one)."""
    return TrainedEvaluator(None if str(spec or "") in ("", "kgcite") else spec).load()
