"""``kgcite train evaluator``: a 4-way attribution classifier (CAQA categories) on CPU.

A MiniLM cross-encoder reads ``question + answer statement`` against the evidence (the
citations) and says supportive / partially supportive / contradictory / irrelevant. Trained on
a CAQA-style train split (``kgcite build caqa``), balanced by category, and scored on the test
split of the same build.
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from kgcite.bench.caqa_files import settle
from kgcite.evaluate.metrics.attribution import CATEGORIES
from kgcite.jsonl import read_jsonl
from kgcite.models.evaluator import claim_text
from kgcite.schema import CaqaSampleRecord, validated
from kgcite.train.cross_encoder import ProgressPrinter, TrainConfig, export_onnx, train_cross_encoder
from kgcite.train.evaluator_data import balanced_mix
from kgcite.train.nli_data import LabelledPair


def read_bench(path: str | Path) -> list[dict[str, Any]]:
    """A CAQA-style JSONL split; each line needs question, answer_statement, citation, category.
    A folder a killed ``build caqa`` left half swapped is settled first (:func:`settle`)."""
    settle(Path(path).parent)
    return [
        validated(CaqaSampleRecord, d, path, lineno).model_dump(exclude_unset=True) for lineno, d in read_jsonl(path)
    ]


def pairs_of(rows: Sequence[dict[str, Any]]) -> list[LabelledPair]:
    return [
        LabelledPair(
            claim_text(r["question"], r["answer_statement"]), r["citation"], r["category"], r.get("complexity", "")
        )
        for r in rows
    ]


def balanced(rows: Sequence[dict[str, Any]], n: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``n`` rows, the same number per category where the data allows."""
    rng = random.Random(seed)
    by: dict[str, list[dict[str, Any]]] = {c: [r for r in rows if r["category"] == c] for c in CATEGORIES}
    out = []
    for c in CATEGORIES:
        rng.shuffle(by[c])
        out += by[c][: n // len(CATEGORIES)]
    rng.shuffle(out)
    return out


def train_evaluator(
    train: str | Path | Sequence[dict[str, Any]],
    out_dir: str | Path,
    config: TrainConfig,
    *,
    n: int = 12_000,
    described: str | None = None,
) -> dict[str, Any]:
    """Train on a ``kgcite build caqa`` split (a file: balanced by category) or on rows from
    several graphs (balanced by graph and category), export int8 ONNX, and write ``train.json``."""
    t0 = time.perf_counter()
    if isinstance(train, (str, Path)):
        rows, described = balanced(read_bench(train), n, config.seed), described or str(train)
    else:
        rows = balanced_mix(train, n, config.seed)
    pairs = pairs_of(rows)
    hf = train_cross_encoder(pairs, CATEGORIES, out_dir, config, progress=ProgressPrinter("train evaluator"))
    onnx_dir = Path(out_dir) / "onnx"
    export_onnx(hf, onnx_dir, max_length=config.max_length)
    summary = {
        "train": {
            "data": described or "rows",
            "n": len(pairs),
            "graphs": dict(Counter(str(r.get("graph", "")).split("-")[0] for r in rows)),
            "categories": dict(Counter(p.label for p in pairs)),
            "complexities": dict(Counter(p.source for p in pairs)),
            "config": asdict(config),
        },
        "seconds": round(time.perf_counter() - t0, 1),
        "machine": f"{platform.machine()}, {config.threads} threads",
    }
    (onnx_dir / "train.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary
