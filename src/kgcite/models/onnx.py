"""What every BERT-style ONNX model kgcite runs needs: a CPU session, a tokenizer, the inputs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kgcite.models.llm import LLMError


def cpu_session(path: str | Path, threads: int) -> Any:
    """An onnxruntime session on ``threads`` CPU threads (one inter-op thread: batches are serial)."""
    try:
        import onnxruntime as ort
    except ImportError as exc:
        raise LLMError("ONNX models need onnxruntime: python -m pip install -e .") from exc
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def bert_tokenizer(path: str | Path, max_length: int) -> Any:
    """A ``tokenizer.json`` that truncates to ``max_length`` and pads each batch to its longest."""
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise LLMError("ONNX models need tokenizers: python -m pip install -e .") from exc
    tok = Tokenizer.from_file(str(path))
    tok.enable_truncation(max_length)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    return tok


def bert_inputs(encodings: Sequence[Any]) -> dict[str, np.ndarray]:
    """The three BERT inputs of a tokenised batch (segment ids 0 for single texts, 1 for a pair's second)."""
    return {
        "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
    }
