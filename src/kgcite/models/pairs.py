"""Cross-encoders: a model that reads a pair of texts and returns one row of scores.

kgcite runs three (NLI, the passage re-ranker, the attribution evaluator). They share what is
not about their labels: an LRU cache keyed by the pair, batches of similar length (less
padding), loading an ONNX export or a Hugging Face folder, and one way to name a model on the
command line (:func:`parse_spec`). A subclass says only how to score uncached pairs and what a
row of scores means.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Generic, Self, TypeVar

import numpy as np

from kgcite.errors import ModelError
from kgcite.models.onnx import PairExport, softmax

V = TypeVar("V")


class PairModel(Generic[V]):
    """Template: cache and batching here; subclasses implement :meth:`_scores` and :meth:`_value`."""

    cache_size = 200_000  # pairs kept; a subclass whose pairs rarely repeat keeps fewer

    def __init__(self, *, batch_size: int = 32, cache_size: int | None = None) -> None:
        self.batch_size, self._cache_size = batch_size, cache_size or self.cache_size
        self._cache: OrderedDict[tuple[str, str], V] = OrderedDict()
        self.hits = self.misses = 0

    @property
    def name(self) -> str:
        raise NotImplementedError

    def load(self) -> Self:
        """Load the weights now rather than on first use (a server warming up)."""
        return self

    def _scores(self, firsts: list[str], seconds: list[str]) -> np.ndarray:
        """One row of scores per uncached pair."""
        raise NotImplementedError

    def _value(self, row: np.ndarray) -> V:
        """What a row of scores means to callers (a label distribution, a relevance, a category)."""
        raise NotImplementedError

    def clear(self) -> None:
        """Forget cached values (benchmarks timing the model itself)."""
        self._cache.clear()

    def pairs(self, firsts: Sequence[str], seconds: Sequence[str]) -> list[V]:
        """One value per (first, second) pair, in order; each distinct pair scored once."""
        if len(firsts) != len(seconds):
            raise ValueError(f"{len(firsts)} first texts but {len(seconds)} second texts")
        keys = list(zip(firsts, seconds, strict=True))
        todo = list(dict.fromkeys(k for k in keys if k not in self._cache))
        self.hits += len(keys) - len(todo)
        self.misses += len(todo)
        todo.sort(key=lambda k: len(k[0]) + len(k[1]))  # similar lengths in one batch: less padding
        for i in range(0, len(todo), self.batch_size):
            chunk = todo[i : i + self.batch_size]
            rows = self._scores([a for a, _ in chunk], [b for _, b in chunk])
            for key, row in zip(chunk, rows, strict=True):
                self._cache[key] = self._value(row)
        out = []
        for k in keys:
            self._cache.move_to_end(k)
            out.append(self._cache[k])
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return out


def shipped_dir(folder: str) -> Path:
    """Where a model shipped inside the package lives (``kgcite/models/data/<folder>``)."""
    return Path(str(resources.files("kgcite") / "models" / "data" / folder))


class OnnxPairModel(PairModel[V]):
    """A cross-encoder exported by ``kgcite train <trainer>``: ``model.onnx``, ``tokenizer.json``,
    ``labels.json``; the shipped one when no folder is given. Loaded once, on first use."""

    folder = ""  # the shipped model's folder under kgcite/models/data
    kind = ""  # the model's name in errors ("NLI")
    trainer = ""  # the `kgcite train` command that makes one
    prefix = ""  # the first part of :attr:`name`

    def __init__(self, model_dir: str | Path | None = None, *, threads: int = 2, batch_size: int = 32) -> None:
        super().__init__(batch_size=batch_size)
        self.model_dir = Path(model_dir) if model_dir else shipped_dir(self.folder)
        self.threads = threads
        self._export: PairExport | None = None

    @property
    def name(self) -> str:
        return f"{self.prefix}:{self.model_dir.name}"

    def load(self) -> Self:
        """Load the export now (it loads on first use otherwise): errors surface at start-up."""
        _ = self.export
        return self

    @property
    def export(self) -> PairExport:
        if self._export is None:
            export = PairExport.load(self.model_dir, self.threads, kind=self.kind, trainer=self.trainer)
            self._configure(export)
            self._export = export
        return self._export

    def _configure(self, export: PairExport) -> None:
        """Check the export's labels and keep what scoring needs from them."""

    def _scores(self, firsts: list[str], seconds: list[str]) -> np.ndarray:
        return self._rows(self.export.logits(firsts, seconds))

    def _rows(self, logits: np.ndarray) -> np.ndarray:
        return softmax(logits)


def torch_modules() -> tuple[Any, Any]:
    """``(torch, transformers)``, or a :class:`ModelError` saying how to install them."""
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise ModelError(
            'Hugging Face models need PyTorch and transformers: python -m pip install -e ".[train]"'
        ) from exc
    return torch, transformers


def load_hf(path: Path, auto_class: str, threads: int, kind: str) -> tuple[Any, Any]:
    """``(tokenizer, model)`` of a Hugging Face folder, in evaluation mode on ``threads`` threads."""
    torch, transformers = torch_modules()
    torch.set_num_threads(threads)
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(path))
        model = getattr(transformers, auto_class).from_pretrained(str(path)).eval()
    except OSError as exc:
        raise ModelError(f"{path}: not a Hugging Face {kind} folder ({exc})") from exc
    return tokenizer, model


@dataclass(frozen=True)
class ModelSpec:
    """A model named on the command line: an ``onnx`` export (the shipped one too) or a ``hf``/``t5`` folder."""

    kind: str
    path: Path


def parse_spec(spec: str | None, what: str, shipped: str, prefixes: Sequence[str] = ("hf",)) -> ModelSpec:
    """``None``/``kgcite`` → the shipped model (in folder ``shipped``); ``PREFIX:PATH`` for each of
    ``prefixes``; a folder with ``model.onnx`` → that export; another folder → a Hugging Face
    model (when ``hf`` is allowed)."""
    if spec in (None, "", "kgcite"):
        return ModelSpec("onnx", shipped_dir(shipped))
    for prefix in prefixes:
        if spec.startswith(f"{prefix}:"):
            return ModelSpec(prefix, Path(spec[len(prefix) + 1 :]))
    path = Path(spec)
    if (path / "model.onnx").exists():
        return ModelSpec("onnx", path)
    if path.is_dir() and "hf" in prefixes:
        return ModelSpec("hf", path)
    forms = ", ".join(["kgcite", *(f"{p}:PATH" for p in prefixes), "an ONNX export folder"])
    raise ModelError(f"{spec}: not {what} (use {forms})")
