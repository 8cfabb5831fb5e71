"""PNG plots of evaluation results in the paper's figure layout (matplotlib, no display needed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def bar_chart(values: Mapping[str, float | None], title: str, path: Path, *, ylabel: str = "score (%)") -> Path:
    """One bar per metric, values in percent; undefined metrics are left out."""
    plt = _pyplot()
    shown = {k: 100 * v for k, v in values.items() if v is not None}
    fig, ax = plt.subplots(figsize=(7, 3.6))
    bars = ax.bar(list(shown), list(shown.values()), color="#4c72b0")
    ax.bar_label(bars, fmt="%.1f")
    ax.set_ylim(0, 110)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


_MARKERS = ("o", "D", "v", "^", "s")


def line_chart(
    x_labels: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    title: str,
    xlabel: str,
    path: Path,
    *,
    ylabel: str = "score (%)",
) -> Path:
    """Figures 4 and 5 of KaLMA: one line per metric over the experiment's conditions."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = list(range(len(x_labels)))
    for (name, ys), marker in zip(series.items(), _MARKERS * 3, strict=False):
        pts = [(x, 100 * y) for x, y in zip(xs, ys, strict=True) if y is not None]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, label=name)
    ax.set_xticks(xs, list(x_labels))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def confusion_chart(
    labels: Sequence[str],
    matrix: Sequence[Sequence[int]],
    title: str,
    path: Path,
    *,
    predicted: Sequence[str] | None = None,
) -> Path:
    """A confusion matrix as a heat map: rows gold, columns predicted, counts written in."""
    plt = _pyplot()
    cols = list(predicted or labels)
    fig, ax = plt.subplots(figsize=(1.4 * len(cols) + 2, 1.1 * len(labels) + 1.5))
    ax.imshow(matrix, cmap="Blues")
    for i, row in enumerate(matrix):
        for j, v in enumerate(row):
            ax.text(j, i, str(v), ha="center", va="center")
    ax.set_xticks(range(len(cols)), [c.replace("_", "\n") for c in cols])
    ax.set_yticks(range(len(labels)), [c.replace("_", " ") for c in labels])
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
