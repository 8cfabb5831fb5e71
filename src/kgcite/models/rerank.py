"""Relevance re-rankers (cross-encoders): how well does a passage answer a question?

Two implementations behind one Protocol: kgcite's own trained MiniLM cross-encoder as int8 ONNX
(the default, shipped, no PyTorch) and any Hugging Face cross-encoder by path (an MS MARCO
MiniLM or DeBERTa re-ranker, as EWEK-QA uses, for users who have the weights). Scores are
cached by (question, passage): the same quote is never scored twice in a process.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from kgcite.models.llm import LLMError
from kgcite.models.onnx import PairExport, softmax


@runtime_checkable
class Reranker(Protocol):
    @property
    def name(self) -> str: ...

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        """One relevance score per passage; higher is more relevant."""
        ...


def shipped_reranker_dir() -> Path:
    return Path(str(resources.files("kgcite") / "models" / "data" / "rerank"))


def relevance(logits: np.ndarray, column: int | None) -> np.ndarray:
    """One logit → sigmoid (MS MARCO style); several → softmax probability of the relevant class."""
    if logits.ndim == 1 or logits.shape[-1] == 1:
        return 1.0 / (1.0 + np.exp(-logits.reshape(-1)))
    return softmax(logits)[:, column if column is not None else -1]


def relevant_column(labels: Sequence[str]) -> int | None:
    for i, name in enumerate(labels):
        n = name.lower()
        if n in ("relevant", "label_1", "1", "yes", "entailment") or (n.startswith("relev") and "ir" not in n):
            return i
    return None


class CachedReranker:
    """Template: cache and batching here; subclasses score uncached pairs."""

    def __init__(self, *, batch_size: int = 32, cache_size: int = 100_000) -> None:
        self.batch_size, self._cache_size = batch_size, cache_size
        self._cache: OrderedDict[tuple[str, str], float] = OrderedDict()
        self.scored = 0

    @property
    def name(self) -> str:
        raise NotImplementedError

    def _scores(self, questions: list[str], passages: list[str]) -> np.ndarray:
        raise NotImplementedError

    def clear(self) -> None:
        """Forget cached scores (benchmarks timing the model itself)."""
        self._cache.clear()

    def score(self, question: str, passages: Sequence[str]) -> list[float]:
        todo = list(dict.fromkeys(p for p in passages if (question, p) not in self._cache))
        todo.sort(key=len)  # similar lengths per batch: less padding
        for i in range(0, len(todo), self.batch_size):
            chunk = todo[i : i + self.batch_size]
            for p, s in zip(chunk, self._scores([question] * len(chunk), chunk), strict=True):
                self._cache[(question, p)] = float(s)
            self.scored += len(chunk)
        out = [self._cache[(question, p)] for p in passages]
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return out


class OnnxReranker(CachedReranker):
    """An export of ``kgcite train rerank`` (``model.onnx``, ``tokenizer.json``, ``labels.json``)."""

    def __init__(self, model_dir: str | Path | None = None, *, threads: int = 2, batch_size: int = 32) -> None:
        super().__init__(batch_size=batch_size)
        self.model_dir = Path(model_dir) if model_dir else shipped_reranker_dir()
        self.threads = threads
        self._export: PairExport | None = None
        self._column: int | None = None

    @property
    def name(self) -> str:
        return f"kgcite-rerank-onnx:{self.model_dir.name}"

    def load(self) -> OnnxReranker:
        if self._export is None:
            self._export = PairExport.load(self.model_dir, self.threads, kind="re-ranker", trainer="rerank")
            self._column = relevant_column(self._export.labels)
        return self

    def _scores(self, questions: list[str], passages: list[str]) -> np.ndarray:
        self.load()
        assert self._export is not None
        return relevance(self._export.logits(questions, passages), self._column)


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
            try:
                import torch
                import transformers
            except ImportError as exc:
                raise LLMError(
                    'Hugging Face re-rankers need PyTorch and transformers: python -m pip install -e ".[train]"'
                ) from exc
            torch.set_num_threads(self.threads)
            try:
                self._tok = transformers.AutoTokenizer.from_pretrained(str(self.path))
                self._model = transformers.AutoModelForSequenceClassification.from_pretrained(str(self.path)).eval()
            except OSError as exc:
                raise LLMError(f"{self.path}: not a Hugging Face cross-encoder folder ({exc})") from exc
            cfg = self._model.config
            self._column = relevant_column([str(cfg.id2label[i]) for i in range(cfg.num_labels)])
        return self

    def _scores(self, questions: list[str], passages: list[str]) -> np.ndarray:
        import torch

        self.load()
        enc = self._tok(
            questions, passages, truncation=True, max_length=self.max_length, padding=True, return_tensors="pt"
        )
        with torch.no_grad():
            logits = self._model(**enc).logits.float().numpy()
        return relevance(logits, self._column)


def load_reranker(spec: str | None = None) -> CachedReranker:
    """``None``/``kgcite`` → the shipped model; ``hf:PATH``; a folder with ``model.onnx`` → that export."""
    if spec in (None, "", "kgcite"):
        return OnnxReranker().load()
    if spec.startswith("hf:"):
        return HFReranker(spec[3:]).load()
    path = Path(spec)
    if (path / "model.onnx").exists():
        return OnnxReranker(path).load()
    if path.is_dir():
        return HFReranker(path).load()
    raise LLMError(f"{spec}: not a re-ranker (use kgcite, hf:PATH or an ONNX export folder)")
