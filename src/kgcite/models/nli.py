"""Natural-language inference: does a premise entail a hypothesis? Behind one small Protocol.

Three implementations: kgcite's own trained MiniLM cross-encoder as int8 ONNX (the default,
shipped in the package, no PyTorch needed), any Hugging Face sequence-classification NLI model
by path, and a TRUE-style T5 (``premise: … hypothesis: …`` → "1"/"0") by path. All return
probabilities in the order of :data:`LABELS` and share :class:`~kgcite.models.pairs.PairModel`'s
cache keyed by the pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from kgcite.errors import ModelError
from kgcite.models.onnx import PairExport, softmax
from kgcite.models.pairs import OnnxPairModel, PairModel, load_hf, parse_spec, torch_modules

LABELS: tuple[str, ...] = ("entailment", "neutral", "contradiction")


@dataclass(frozen=True, slots=True)
class NLIResult:
    probs: dict[str, float]

    @property
    def label(self) -> str:
        return max(self.probs, key=lambda k: self.probs[k])

    @property
    def entailed(self) -> bool:
        return self.label == "entailment"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "probs": {k: round(v, 6) for k, v in self.probs.items()}}


@runtime_checkable
class NLIModel(Protocol):
    @property
    def name(self) -> str: ...

    def predict(self, premises: Sequence[str], hypotheses: Sequence[str]) -> list[NLIResult]:
        """One result per (premise, hypothesis) pair."""
        ...


def canonical_label(name: str) -> str | None:
    """Map a model's own label names (``ENTAILMENT``, ``not_entailment``, ``CONTRADICTION``...) to ours."""
    n = name.lower().replace("-", "_")
    if n.startswith(("not_", "non_")):
        return "neutral"
    for label in LABELS:
        if label[:6] in n:
            return label
    return None


class CachedNLI(PairModel[NLIResult]):
    """Template: cache and batching in :class:`PairModel`; subclasses score rows in :data:`LABELS` order."""

    def _value(self, row: np.ndarray) -> NLIResult:
        return NLIResult({label: float(row[j]) for j, label in enumerate(LABELS)})

    def predict(self, premises: Sequence[str], hypotheses: Sequence[str]) -> list[NLIResult]:
        if len(premises) != len(hypotheses):
            raise ValueError(f"{len(premises)} premises but {len(hypotheses)} hypotheses")
        return self.pairs(premises, hypotheses)

    def __call__(self, premise: str, hypothesis: str) -> NLIResult:
        return self.predict([premise], [hypothesis])[0]


class OnnxNLI(OnnxPairModel[NLIResult], CachedNLI):
    """A cross-encoder exported by ``kgcite train nli`` (the shipped one by default)."""

    folder, kind, trainer, prefix = "nli", "NLI", "nli", "kgcite-nli-onnx"
    _order: list[int]

    def _configure(self, export: PairExport) -> None:
        mapped = [canonical_label(n) for n in export.labels]
        if sorted(m for m in mapped if m) != sorted(LABELS):
            raise ModelError(f"{self.model_dir / 'labels.json'}: labels {export.labels} are not an NLI label set")
        self._order = [mapped.index(label) for label in LABELS]

    def token_count(self, premise: str, hypothesis: str) -> int:
        """Tokens the model reads for a pair (after truncation): what a speed figure is per."""
        return len(self.export.tokenizer.encode(premise, hypothesis).ids)

    def _rows(self, logits: np.ndarray) -> np.ndarray:
        return softmax(logits[:, self._order])


class _TorchNLI(CachedNLI):
    """Template for models loaded with transformers from a folder: loading here, scoring in subclasses."""

    kind = ""
    auto_class = ""  # the transformers Auto* class that loads the weights

    def __init__(self, path: str | Path, *, threads: int = 2, batch_size: int = 16, max_length: int = 512) -> None:
        super().__init__(batch_size=batch_size)
        self.path, self.threads, self.max_length = Path(path), threads, max_length
        self._model: Any = None
        self._tok: Any = None

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.path}"

    def load(self) -> _TorchNLI:
        if self._model is None:
            self._tok, self._model = load_hf(self.path, self.auto_class, self.threads, f"{self.kind} model")
            self._configure()
        return self

    def _configure(self) -> None:
        """Read what scoring needs from the loaded model (label columns, answer tokens)."""


class HFNLI(_TorchNLI):
    """Any Hugging Face sequence-classification NLI model (DeBERTa-MNLI, RoBERTa-MNLI...) by path.

    Two-way models (entailment / not entailment) report "not" as neutral."""

    kind, auto_class = "hf-nli", "AutoModelForSequenceClassification"
    _columns: list[int | None]

    def _configure(self) -> None:
        names = [str(self._model.config.id2label[i]) for i in range(self._model.config.num_labels)]
        mapped = [canonical_label(n) for n in names]
        if "entailment" not in mapped:
            raise ModelError(f"{self.path}: labels {names} have no entailment class")
        self._columns = [mapped.index(label) if label in mapped else None for label in LABELS]

    def _scores(self, premises: list[str], hypotheses: list[str]) -> np.ndarray:
        self.load()
        torch, _ = torch_modules()
        enc = self._tok(
            premises, hypotheses, truncation=True, max_length=self.max_length, padding=True, return_tensors="pt"
        )
        with torch.no_grad():
            probs = torch.softmax(self._model(**enc).logits, dim=-1).numpy()
        out = np.zeros((len(premises), len(LABELS)), dtype=np.float64)
        for j, col in enumerate(self._columns):
            if col is not None:
                out[:, j] = probs[:, col]
        return out


class T5NLI(_TorchNLI):
    """A TRUE-style T5 (``premise: P hypothesis: H`` → "1" entailed / "0" not) by path.

    The probability of "1" against "0" at the first decoded token is the entailment score."""

    kind, auto_class = "t5-nli", "AutoModelForSeq2SeqLM"
    _yes_no: tuple[int, int]

    def _configure(self) -> None:
        ids = [self._tok.encode(s, add_special_tokens=False) for s in ("1", "0")]
        self._yes_no = (ids[0][-1], ids[1][-1])

    def _scores(self, premises: list[str], hypotheses: list[str]) -> np.ndarray:
        self.load()
        torch, _ = torch_modules()
        texts = [f"premise: {p} hypothesis: {h}" for p, h in zip(premises, hypotheses, strict=True)]
        enc = self._tok(texts, truncation=True, max_length=self.max_length, padding=True, return_tensors="pt")
        start = torch.full((len(texts), 1), self._model.config.decoder_start_token_id, dtype=torch.long)
        with torch.no_grad():
            logits = self._model(**enc, decoder_input_ids=start).logits[:, 0, :]
        two = torch.softmax(logits[:, list(self._yes_no)], dim=-1).numpy()
        out = np.zeros((len(texts), len(LABELS)), dtype=np.float64)
        out[:, 0], out[:, 1] = two[:, 0], two[:, 1]
        return out


def load_nli(spec: str | None = None, *, eager: bool = True) -> CachedNLI:
    """``None``/``kgcite`` → the shipped model; ``hf:PATH``, ``t5:PATH``; a directory with
    ``model.onnx`` → that ONNX export; another directory → a Hugging Face model. ``eager=False``
    leaves an ONNX export to load on first use (a Hugging Face model always loads now: its
    errors are the likely ones)."""
    model = parse_spec(spec, "an NLI model", "nli", ("hf", "t5"))
    if model.kind == "hf":
        return HFNLI(model.path).load()
    if model.kind == "t5":
        return T5NLI(model.path).load()
    onnx = OnnxNLI(model.path)
    return onnx.load() if eager else onnx
