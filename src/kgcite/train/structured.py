"""``kgcite train struct``: the structured evaluator's combiner, a small network over its features.

The features (:mod:`kgcite.evaluate.judges.structured`) are graph-agnostic and cheap, so the
combiner trains in seconds on numpy alone: one hidden layer, Adam, categories weighted equally,
the sources of the training rows (graphs) weighted equally too, so no one graph's surface wins;
five seeds averaged, so a verdict does not hang on one initialisation.
"""

from __future__ import annotations

import json
import platform
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from kgcite.evaluate.judges.structured import FEATURES, TEXT_FEATURES, TextScorer, feature_rows
from kgcite.evaluate.metrics.attribution import CATEGORIES
from kgcite.models.evaluator import AttributionItem

Row = dict[str, Any]
#: Networks per combiner, one seed each, their probabilities averaged: a steadier verdict than one.
MEMBERS = 5


def features_of(rows: Sequence[Row], text: TextScorer | None = None, batch_size: int = 64) -> np.ndarray:
    """The feature matrix of CAQA-style rows (with the text model's four scores when given)."""
    names = list(FEATURES) + (list(TEXT_FEATURES) if text is not None else [])
    out = []
    for b in tqdm(range(0, len(rows), batch_size), desc="features", unit=" batch", disable=None):
        items = [AttributionItem.of(r) for r in rows[b : b + batch_size]]
        out += [[f.get(n, 0.0) for n in names] for f in feature_rows(items, text)]
    return np.asarray(out, dtype=np.float64).reshape(len(rows), len(names))


def fit(
    x: np.ndarray,
    labels: Sequence[str],
    groups: Sequence[str],
    *,
    hidden: int = 32,
    epochs: int = 400,
    lr: float = 0.01,
    l2: float = 1e-4,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """Full-batch Adam on cross-entropy, each (group, category) cell weighted to the same total."""
    rng = np.random.default_rng(seed)
    y = np.asarray([CATEGORIES.index(label) for label in labels])
    cells = Counter(zip(groups, labels, strict=True))
    w = np.asarray([1.0 / cells[(g, label)] for g, label in zip(groups, labels, strict=True)])
    w = w / w.sum()
    d = x.shape[1]
    k = len(CATEGORIES)
    params = {
        "w1": rng.normal(0, (2.0 / d) ** 0.5, (d, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0, (1.0 / hidden) ** 0.5, (hidden, k)),
        "b2": np.zeros(k),
    }
    m = {p: np.zeros_like(v) for p, v in params.items()}
    v2 = {p: np.zeros_like(v) for p, v in params.items()}
    onehot = np.eye(k)[y]
    for t in range(1, epochs + 1):
        pre = x @ params["w1"] + params["b1"]
        h = np.maximum(0.0, pre)
        z = h @ params["w2"] + params["b2"]
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        dz = (p - onehot) * w[:, None]
        grads = {"w2": h.T @ dz + l2 * params["w2"], "b2": dz.sum(axis=0)}
        dh = (dz @ params["w2"].T) * (pre > 0)
        grads |= {"w1": x.T @ dh + l2 * params["w1"], "b1": dh.sum(axis=0)}
        for name, g in grads.items():
            m[name] = 0.9 * m[name] + 0.1 * g
            v2[name] = 0.999 * v2[name] + 0.001 * g * g
            params[name] -= lr * (m[name] / (1 - 0.9**t)) / (np.sqrt(v2[name] / (1 - 0.999**t)) + 1e-8)
    return params


def train_combiner(
    rows: Sequence[Row],
    out: str | Path,
    *,
    text: TextScorer | None = None,
    text_spec: str | None = None,
    described: str = "rows",
    seed: int = 0,
) -> dict[str, Any]:
    """Fit the combiner on CAQA-style rows (``graph`` names each row's source) and write
    ``combiner.json``: weights, feature names and a card of what it was trained on (``text_spec``:
    how to load the text model again, ``None`` for the shipped one)."""
    t0 = time.perf_counter()
    x = features_of(rows, text)
    labels = [str(r["category"]) for r in rows]
    groups = [str(r.get("graph", "")).split("-")[0] for r in rows]
    members = [fit(x, labels, groups, seed=seed + k) for k in range(MEMBERS)]
    names = list(FEATURES) + (list(TEXT_FEATURES) if text is not None else [])
    card = {
        "data": described,
        "n": len(rows),
        "graphs": dict(Counter(groups)),
        "categories": dict(Counter(labels)),
        "text model": text.name if text is not None else None,
        "text model spec": text_spec,
        "seconds": round(time.perf_counter() - t0, 1),
        "machine": platform.machine(),
    }
    weights: dict[str, Any] = {"features": names, "labels": list(CATEGORIES), "card": card}
    weights["members"] = [{k: np.round(v, 6).tolist() for k, v in m.items()} for m in members]
    path = Path(out)
    path.mkdir(parents=True, exist_ok=True)
    tmp = path / "combiner.json.tmp"
    tmp.write_text(json.dumps(weights) + "\n")
    tmp.replace(path / "combiner.json")
    return card
