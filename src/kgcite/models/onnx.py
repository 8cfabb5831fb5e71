"""What every BERT-style ONNX model kgcite runs needs: a CPU session, a tokenizer, the inputs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kgcite.errors import ModelError


def cpu_session(path: str | Path, threads: int) -> Any:
    """An onnxruntime session on ``threads`` CPU threads (one inter-op thread: batches are serial)."""
    try:
        import onnxruntime as ort
    except ImportError as exc:
        raise ModelError("ONNX models need onnxruntime: python -m pip install -e .") from exc
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def rows_alone(session: Any) -> bool:
    """Whether the model must see one row at a time for a row's numbers to be its own. Dynamic
    int8 quantisation (onnxruntime's ``quantize_dynamic``, which ``kgcite train`` uses) scales
    each activation tensor by its range across the whole batch: batched, a path score moved by
    0.02 and evaluator verdicts changed with the rows beside them. Weight-only int8 and fp32
    models keep rows apart and are batched."""
    return bool(session.get_modelmeta().producer_name == "onnx.quantize")


def bert_tokenizer(path: str | Path, max_length: int) -> Any:
    """A ``tokenizer.json`` that truncates to ``max_length`` and pads each batch to its longest."""
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise ModelError("ONNX models need tokenizers: python -m pip install -e .") from exc
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


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise probabilities of a batch of logits (numerically stable)."""
    z = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs: np.ndarray = z / z.sum(axis=-1, keepdims=True)
    return probs


@dataclass(frozen=True)
class PairExport:
    """A cross-encoder as kgcite's trainer exports it: ``model.onnx``, ``tokenizer.json``, ``labels.json``."""

    session: Any
    tokenizer: Any
    labels: list[str]
    alone: bool = False  # :func:`rows_alone`

    @classmethod
    def load(cls, model_dir: Path, threads: int, *, kind: str, trainer: str) -> PairExport:
        """``kind`` names the model in errors ("NLI"); ``trainer`` is the ``kgcite train`` command that makes one."""
        path = model_dir / "model.onnx"
        if not path.exists():
            raise ModelError(
                f"{path}: no {kind} model here; train one with `kgcite train {trainer}` or reinstall kgcite"
            )
        meta = json.loads((model_dir / "labels.json").read_text())
        tokenizer = bert_tokenizer(model_dir / "tokenizer.json", int(meta.get("max_length", 128)))
        session = cpu_session(path, threads)
        return cls(session, tokenizer, list(meta["labels"]), rows_alone(session))

    def logits(self, firsts: Sequence[str], seconds: Sequence[str]) -> np.ndarray:
        """One row of logits per (first, second) text pair, the same in any batch."""
        pairs = list(zip(firsts, seconds, strict=True))
        step = 1 if self.alone else max(1, len(pairs))
        rows = [
            np.asarray(self.session.run(None, bert_inputs(self.tokenizer.encode_batch(pairs[i : i + step])))[0])
            for i in range(0, len(pairs), step)
        ]
        return np.vstack(rows) if rows else np.zeros((0, len(self.labels)), dtype=np.float32)
