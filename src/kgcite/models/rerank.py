"""Relevance re-rankers (cross-encoders): how well does a passage answer a question?

Two implementations behind one Protocol: kgcite's own trained MiniLM cross-encoder as int8 ONNX
(the default, shipped, no PyTorch) and any Hugging Face cross-encoder by path (an MS MARCO
MiniLM or DeBERTa re-ranker, as EWEK-QA uses, for users who have the weights). Scores are
cached by (question, passage) in :class:`~kgcite.models.pairs.PairModel`: the same quote is
never scored twice in a process.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from kgcite.models.onnx import PairExport, softmax
from kgcite.models.pairs import OnnxPairModel, PairModel, load_hf, parse_spec, torch_modules


@runtime_checkable
class Reranker(Protocol):
    @property
    def name(self) -> str: ...

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        """One relevance score per passage; higher is more relevant."""
        ...


def relevance(logits: np.ndarray, column: int | None) -> np.ndarray:
    """One logit → sigmoid (MS MARCO style); several → softmax probability of the relevant class."""
    if logits.ndim == 1 or logits.shape[-1] == 1:
        sigmoid: np.ndarray = 1.0 / (1.0 + np.exp(-logits.reshape(-1)))
        return sigmoid
    column_probs: np.ndarray = softmax(logits)[:, column if column is not None else -1]
    return column_probs


def relevant_column(labels: Sequence[str]) -> int | None:
    for i, name in enumerate(labels):
        n = name.lower()
        if n in ("relevant", "label_1", "1", "yes", "entailment") or (n.startswith("relev") and "ir" not in n):
            return i
    return None


class CachedReranker(PairModel[float]):
    """Template: cache and batching in :class:`PairModel`; subclasses score (question, passage) pairs."""

    cache_size = 100_000

    @property
    def scored(self) -> int:
        """Pairs the model has scored (the rest came from the cache)."""
        return self.misses

    def _value(self, row: np.ndarray) -> float:
        return float(row)

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        return self.pairs([question] * len(passages), passages)


class OnnxReranker(OnnxPairModel[float], CachedReranker):
    """An export of ``kgcite train rerank`` (the shipped one by default)."""

    folder, kind, trainer, prefix = "rerank", "re-ranker", "rerank", "kgcite-rerank-onnx"
    _column: int | None = None

    def _configure(self, export: PairExport) -> None:
        self._column = relevant_column(export.labels)

    def _rows(self, logits: np.ndarray) -> np.ndarray:
        return relevance(logits, self._column)


class HFReranker(CachedReranker):
    """Any Hugging Face sequence-classification re-ranker folder (e.g. cross-encoder/ms-marco-MiniLM-L-6-v2)."""

    def __init__(self, path: str | Path, *, threads: int = 2, batch_size: int = 16, max_length: int = 512) -> None:
        super().__init__(batch_size=batch_size)
        self.path, self.threads, self.max_length = Path(path), threads, max_length
        self._model: Any = None
        self._tok: Any = None
        self._column: int | None = None

    @property
    def name(self) -> str:
        return f"hf-rerank:{self.path}"

    def load(self) -> HFReranker:
        if self._model is None:
            self._tok, self._model = load_hf(
                self.path, "AutoModelForSequenceClassification", self.threads, "cross-encoder"
            )
            cfg = self._model.config
            self._column = relevant_column([str(cfg.id2label[i]) for i in range(cfg.num_labels)])
        return self

    def _scores(self, questions: list[str], passages: list[str]) -> np.ndarray:
        torch, _ = torch_modules()
        self.load()
        enc = self._tok(
            questions, passages, truncation=True, max_length=self.max_length, padding=True, return_tensors="pt"
        )
        with torch.no_grad():
            logits = self._model(**enc).logits.float().numpy()
        return relevance(logits, self._column)


def load_reranker(spec: str | None = None) -> CachedReranker:
    """``None``/``kgcite`` → the shipped model; ``hf:PATH``; a folder with ``model.onnx`` → that export."""
    model = parse_spec(spec, "a re-ranker", "rerank")
    if model.kind == "hf":
        return HFReranker(model.path).load()
    return OnnxReranker(model.path).load()
