"""What the document stages hand each other: documents, passages cut from them, ranked quotes.

A passage is always a slice of its document's text (``document.text[start:end]``): every quote
kgcite shows is verbatim from a source, whichever stage cut it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kgcite.timing import Timings


@dataclass(frozen=True, slots=True)
class Document:
    """A fetched and parsed source: ``text`` is its readable text, one block per line."""

    source: str  # a file path or a URL
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Passage:
    source: str
    text: str
    start: int
    end: int
    origin: str  # "splitter" (Paragraph Splitter) or "extractor" (Evidence Extractor)

    @classmethod
    def cut(cls, doc: Document, start: int, end: int, origin: str) -> Passage:
        return cls(doc.source, doc.text[start:end], start, end, origin)

    @property
    def n_tokens(self) -> int:
        return len(self.text.split())


@dataclass(frozen=True, slots=True)
class Quote:
    """A passage chosen for the answer, with the scores that chose it."""

    passage: Passage
    score: float  # cross-encoder relevance (or the bi-encoder's, without a re-ranker)
    filter_score: float  # bi-encoder cosine

    @property
    def text(self) -> str:
        return " ".join(self.passage.text.split())

    def to_dict(self) -> dict[str, Any]:
        p = self.passage
        return {
            "text": self.text,
            "source": p.source,
            "start": p.start,
            "end": p.end,
            "origin": p.origin,
            "score": round(self.score, 6),
            "filter_score": round(self.filter_score, 6),
        }


@dataclass(frozen=True)
class DocumentRetrieval:
    question: str
    quotes: tuple[Quote, ...]
    n_documents: int
    n_candidates: int  # passages from both cutters, before filtering
    cache_hits: int
    timings: Timings = field(default_factory=Timings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "quotes": [q.to_dict() for q in self.quotes],
            "documents": self.n_documents,
            "candidates": self.n_candidates,
            "cache_hits": self.cache_hits,
            "timings": self.timings.rounded(),
        }
