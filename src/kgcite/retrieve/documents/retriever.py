"""The adaptive document retriever: sources → documents → splitter + extractor candidates →
bi-encoder filter → cross-encoder re-rank → dedup → the top quotes.

Template method in the style of the KG retrievers: :meth:`locate` says which documents to read
(local paths, or a search backend's hits), the rest is shared.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kgcite.retrieve.documents.addresses import AddressPolicy
from kgcite.retrieve.documents.extract import EvidenceExtractor, LLMSpanExtractor
from kgcite.retrieve.documents.model import Document, DocumentRetrieval, Passage
from kgcite.retrieve.documents.rank import TwoStageRanker
from kgcite.retrieve.documents.sources import (
    DocumentCache,
    RobotsRules,
    SearchBackend,
    cached_search,
    fetch_documents,
    local_files,
)
from kgcite.retrieve.documents.split import ParagraphSplitter
from kgcite.timing import Timings

log = logging.getLogger(__name__)


def _warn(source: str, exc: Exception) -> None:
    log.warning("skipped %s: %s", source, exc)


@dataclass(frozen=True)
class Gathered:
    """A question's documents, read from disk and the network before any model runs: a server
    gathers them off its model thread, so a slow site never holds the models."""

    docs: tuple[Document, ...]
    cache_hits: int
    seconds: float


@dataclass
class DocumentRetriever:
    ranker: TwoStageRanker
    splitter: ParagraphSplitter = field(default_factory=ParagraphSplitter)
    extractors: Sequence[EvidenceExtractor] = ()
    cache: DocumentCache = field(default_factory=lambda: DocumentCache(None))
    paths: Sequence[str | Path] = ()
    search: SearchBackend | None = None
    search_k: int = 10
    workers: int = 8
    on_error: Callable[[str, Exception], None] = _warn  # a source that cannot be read is reported and skipped
    robots: RobotsRules | None = field(default_factory=RobotsRules)  # None: ignore robots.txt (your own servers)
    policy: AddressPolicy = field(default_factory=AddressPolicy)  # internal addresses refused unless allowed

    def locate(self, question: str) -> tuple[list[Path | str], int]:
        """Files and URLs to read for this question, and how many search results came from the cache."""
        found: list[Path | str] = list(local_files(self.paths))
        hits = 0
        if self.search is not None:
            results, cached = cached_search(self.search, question, self.search_k, self.cache)
            found.extend(h.url for h in results)
            hits += cached
        return found, hits

    def candidates(self, question: str, docs: Sequence[Document]) -> list[Passage]:
        out = [p for d in docs for p in self.splitter.split(d)]
        for extractor in self.extractors:
            out.extend(extractor.extract(question, docs))
        return out

    def gather(self, question: str) -> Gathered:
        """The documents to read for ``question``: searched, fetched (each fetch under its deadline), read."""
        t0 = time.perf_counter()
        where, search_hits = self.locate(question)
        docs, doc_hits = fetch_documents(
            where, self.cache, workers=self.workers, on_error=self.on_error, robots=self.robots, policy=self.policy
        )
        return Gathered(tuple(docs), search_hits + doc_hits, time.perf_counter() - t0)

    def retrieve(self, question: str, gathered: Gathered | None = None) -> DocumentRetrieval:
        """Quotes for ``question`` from its documents (:meth:`gather`ed here unless given)."""
        found = gathered if gathered is not None else self.gather(question)
        docs = list(found.docs)
        t1 = time.perf_counter()
        passages = self.candidates(question, docs)
        t2 = time.perf_counter()
        quotes = self.ranker.rank(question, passages)
        t3 = time.perf_counter()
        return DocumentRetrieval(
            question=question,
            quotes=tuple(quotes),
            n_documents=len(docs),
            n_candidates=len(passages),
            cache_hits=found.cache_hits,
            timings=Timings(
                {"fetch": found.seconds, "split_extract": t2 - t1, "rank": t3 - t2},
                llm_calls=len(docs) * sum(isinstance(e, LLMSpanExtractor) for e in self.extractors),
            ),
        )
