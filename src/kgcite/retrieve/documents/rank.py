"""Retrieve & Rerank, then the Deduplicator (EWEK-QA §3.1.1, Table 5).

A fast bi-encoder filter keeps the ``keep`` (paper: 70) candidates closest to the question;
a cross-encoder re-scores only those. Then, in rank order, a quote whose cosine similarity to
an already kept quote exceeds the threshold (paper: 0.9) is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kgcite.models.embed import Embedder
from kgcite.models.rerank import Reranker
from kgcite.retrieve.documents.model import Passage, Quote


def deduplicate(vectors: np.ndarray, threshold: float = 0.9) -> list[int]:
    """Indices to keep, in order: each kept row's cosine to every earlier kept row is ≤ threshold.

    Rows must be unit vectors (cosine = dot product)."""
    kept: list[int] = []
    for i in range(len(vectors)):
        if not kept or float(np.max(vectors[kept] @ vectors[i])) <= threshold:
            kept.append(i)
    return kept


@dataclass
class TwoStageRanker:
    embedder: Embedder
    reranker: Reranker | None
    keep: int = 70
    top_k: int = 5
    dedup_threshold: float = 0.9

    def rank(self, question: str, passages: Sequence[Passage]) -> tuple[list[Quote], dict[str, int]]:
        """The ``top_k`` quotes, best first, and counts per stage (candidates, filtered, deduplicated)."""
        unique = list({p.text: p for p in passages}.values())  # the same text cut twice is one candidate
        if not unique:
            return [], {"candidates": len(passages), "filtered": 0, "duplicates": 0}
        vecs = self.embedder.encode([p.text for p in unique])
        q = self.embedder.encode([question])[0]
        cos = vecs @ q
        order = np.argsort(-cos, kind="stable")[: self.keep]
        if self.reranker is not None:
            scores = self.reranker.score(question, [unique[i].text for i in order])
            ranked = [int(order[j]) for j in np.argsort(-np.asarray(scores), kind="stable")]
            final = dict(zip((int(i) for i in order), scores, strict=True))
        else:
            ranked = [int(i) for i in order]
            final = {i: float(cos[i]) for i in ranked}
        kept = [ranked[j] for j in deduplicate(vecs[ranked], self.dedup_threshold)]
        quotes = [Quote(unique[i], float(final[i]), float(cos[i])) for i in kept[: self.top_k]]
        return quotes, {"candidates": len(passages), "filtered": len(order), "duplicates": len(ranked) - len(kept)}
