"""The adaptive document retriever on a small HTML/text corpus written for these tests, with the
real bi-encoder and kgcite's shipped cross-encoder."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from kgcite.kg import InputError
from kgcite.models.embed import OnnxMiniLM
from kgcite.models.llm import ChatRequest, ChatResult
from kgcite.models.rerank import OnnxReranker
from kgcite.retrieve.documents import (
    Document,
    DocumentCache,
    DocumentRetriever,
    LLMSpanExtractor,
    ParagraphSplitter,
    TwoStageRanker,
    WindowExtractor,
    align_span,
    deduplicate,
    fetch_documents,
)
from kgcite.retrieve.documents.html import html_to_text
from kgcite.retrieve.documents.sources import local_files, read_local

DOCS = Path(__file__).parent / "data" / "docs"
QUESTION = "Where did Stephen Crane die?"


def words(text: str) -> int:
    return len(text.split())


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """A private copy: tests that touch files must not touch the shipped ones."""
    return Path(shutil.copytree(DOCS, tmp_path / "docs"))


def retriever(
    embedder: OnnxMiniLM, reranker: OnnxReranker | None, paths: list[Path], cache: DocumentCache, **kw: float
) -> DocumentRetriever:
    return DocumentRetriever(
        ranker=TwoStageRanker(embedder, reranker, **kw),  # type: ignore[arg-type]
        extractors=[WindowExtractor(embedder)],
        cache=cache,
        paths=paths,
    )


# -- parsing and splitting ----------------------------------------------------------------------


def test_html_keeps_blocks_and_drops_furniture() -> None:
    title, text = html_to_text((DOCS / "crane.html").read_text())
    assert title == "Stephen Crane – a short biography"
    lines = text.split("\n")
    assert "Stephen Crane" in lines and "Death" in lines  # headings are blocks of their own
    assert "Share this page." in lines  # <p> boundaries are line breaks
    for furniture in ("born on the Moon", "died in Paris", "forty novels", "font-family"):
        assert furniture not in text  # nav, script, footer, style
    # a <p> with a line break inside is one block
    assert any(ln.startswith("Stephen Crane was an American writer") and ln.endswith("Peck Crane.") for ln in lines)


def test_splitter_limits() -> None:
    splitter = ParagraphSplitter(min_tokens=10, max_tokens=60)
    doc = read_local(DOCS / "crane.html")
    passages = splitter.split(doc)
    assert passages
    for p in passages:
        assert doc.text[p.start : p.end] == p.text  # verbatim slice
        assert 10 <= words(p.text) <= 60
        assert p.text.rstrip()[-1] in ".!?"  # long blocks are cut at sentence ends only
    texts = [p.text for p in passages]
    assert not any("Share this page" in t for t in texts)  # under the minimum: dropped
    long_block = next(ln for ln in doc.text.split("\n") if ln.startswith("Crane began writing"))
    assert words(long_block) > 60
    pieces = [t for t in texts if t in long_block]
    assert len(pieces) >= 3 and " ".join(pieces) == long_block  # every sentence kept, in order
    assert ParagraphSplitter(min_tokens=10, max_tokens=200).split(doc)[1].text == long_block  # fits: kept whole
    with pytest.raises(ValueError):
        ParagraphSplitter(min_tokens=50, max_tokens=10)


def test_text_files_split_on_line_breaks() -> None:
    doc = read_local(DOCS / "badenweiler.txt")
    passages = ParagraphSplitter(min_tokens=5).split(doc)
    assert [p.text for p in passages] == [
        ln for ln in (DOCS / "badenweiler.txt").read_text().splitlines() if words(ln) >= 5
    ]


# -- evidence extraction ----------------------------------------------------------------------


def test_window_extractor_is_verbatim_and_on_topic(embedder: OnnxMiniLM) -> None:
    docs = [read_local(p) for p in local_files([DOCS])]
    passages = WindowExtractor(embedder, per_document=2).extract(QUESTION, docs)
    by_source: dict[str, list[str]] = {}
    for p in passages:
        doc = next(d for d in docs if d.source == p.source)
        assert doc.text[p.start : p.end] == p.text and p.origin == "extractor"
        by_source.setdefault(Path(p.source).name, []).append(p.text)
    assert all(len(v) <= 2 for v in by_source.values())
    assert any("died of tuberculosis" in t for t in by_source["crane.html"])
    assert not any(t.startswith("Death") for v in by_source.values() for t in v)  # windows never hold headings


def test_align_span_snaps_a_loose_copy_to_the_source() -> None:
    source = read_local(DOCS / "crane.html").text
    death = "Crane died of tuberculosis on June 5, 1900, at a health spa in Badenweiler, Germany, at the age of 28."
    exact = align_span("died of tuberculosis on June 5, 1900", source)
    assert exact is not None and source[exact[0] : exact[1]] == death  # widened to the whole sentence
    loose = "crane died of tuberculosis on june 5 1900 at a health spa in badenweiler, germany, at the age of 28."
    span = align_span(loose, source)
    assert span is not None
    assert source[span[0] : span[1]] == death
    assert align_span("Crane was a famous astronaut who walked on Mars in 1969.", source) is None


class _CopyingLLM:
    """A deterministic stand-in: 'copies' with its own spacing and case, or invents."""

    name = "scripted"

    def __init__(self, reply: str) -> None:
        self.reply = reply

    def chat_many(self, requests: list[ChatRequest]) -> list[ChatResult]:
        return [ChatResult(self.reply, self.name) for _ in requests]


def test_llm_span_extractor_keeps_only_aligned_copies(embedder: OnnxMiniLM) -> None:
    doc = read_local(DOCS / "crane.html")
    copy = "He was buried in  Evergreen cemetery in Hillside, New Jersey"
    found = LLMSpanExtractor(_CopyingLLM(copy), embedder).extract(QUESTION, [doc])  # type: ignore[arg-type]
    assert [p.text for p in found] == ["He was buried in Evergreen Cemetery in Hillside, New Jersey."]
    assert not LLMSpanExtractor(_CopyingLLM("Crane lived on the Moon."), embedder).extract(QUESTION, [doc])  # type: ignore[arg-type]


# -- ranking and dedup ------------------------------------------------------------------------


def test_deduplicate_threshold_is_strict() -> None:
    a = np.array([1.0, 0.0])
    at = lambda c: np.array([c, np.sqrt(1 - c * c)])
    vecs = np.vstack([a, at(0.95), at(0.9), at(0.5)])
    assert deduplicate(vecs, 0.9) == [0, 2, 3]  # 0.95 > 0.9 dropped; exactly 0.9 kept
    assert deduplicate(vecs, 0.995) == [0, 1, 2, 3]  # rows 1 and 2 are at cosine 0.991


def test_near_duplicate_pages_give_one_quote(embedder: OnnxMiniLM, reranker: OnnxReranker) -> None:
    cache = DocumentCache(None)
    quotes = retriever(embedder, reranker, [DOCS], cache).retrieve(QUESTION).quotes
    death = [q for q in quotes if "died of tuberculosis" in q.text]
    assert len(death) == 1  # crane.html and its mirror say the same: one is dropped
    everything = retriever(embedder, reranker, [DOCS], cache, dedup_threshold=1.01, top_k=20).retrieve(QUESTION).quotes
    assert len([q for q in everything if "died of tuberculosis" in q.text]) >= 2


def test_retrieve_and_rerank(embedder: OnnxMiniLM, reranker: OnnxReranker) -> None:
    cache = DocumentCache(None)
    r = retriever(embedder, reranker, [DOCS], cache, keep=3).retrieve(QUESTION)
    assert r.n_documents == 4 and r.n_candidates > 3
    assert len(r.quotes) <= 3  # the bi-encoder filter kept 3; the cross-encoder only orders them
    assert "Badenweiler" in r.quotes[0].text
    assert [q.score for q in r.quotes] == sorted((q.score for q in r.quotes), reverse=True)
    docs = {d.source: d for d in (read_local(p) for p in local_files([DOCS]))}
    for q in r.quotes:  # verbatim: the slice of the parsed source, whitespace as in the page
        assert docs[q.passage.source].text[q.passage.start : q.passage.end] == q.passage.text
        assert re.sub(r"\s+", " ", q.passage.text) == q.text
    assert not any("Moon" in q.text or "forty novels" in q.text for q in r.quotes)


# -- sources and the cache ------------------------------------------------------------------------


def test_second_run_reads_from_the_cache(corpus: Path, tmp_path: Path, embedder: OnnxMiniLM) -> None:
    db = tmp_path / "documents.sqlite"
    first = retriever(embedder, None, [corpus], DocumentCache(db)).retrieve(QUESTION)
    assert first.cache_hits == 0 and first.n_documents == 4
    second = retriever(embedder, None, [corpus], DocumentCache(db)).retrieve(QUESTION)  # a new process would do this
    assert second.cache_hits == 4
    assert [q.to_dict() for q in second.quotes] == [q.to_dict() for q in first.quotes]
    page = corpus / "volcanoes.html"
    page.write_text(page.read_text().replace("molten rock", "hot molten rock"))
    os.utime(page, ns=(page.stat().st_atime_ns, page.stat().st_mtime_ns + 10**9))
    third = retriever(embedder, None, [corpus], DocumentCache(db)).retrieve(QUESTION)
    assert third.cache_hits == 3  # the edited page is read again


def test_missing_and_unreadable_sources(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nowhere.html"):
        local_files([tmp_path / "nowhere.html"])
    good = tmp_path / "ok.txt"
    good.write_text("A line of text that is long enough to be a passage of its own here.")
    gone = tmp_path / "gone.txt"
    gone.write_text("x")
    errors: list[str] = []
    files = local_files([tmp_path])
    gone.unlink()  # vanishes between listing and reading
    docs, hits = fetch_documents(files, DocumentCache(None), on_error=lambda s, e: errors.append(s))
    assert [Path(d.source).name for d in docs] == ["ok.txt"] and hits == 0
    assert errors == [str(gone)]


def test_document_text_round_trips_through_the_cache(tmp_path: Path) -> None:
    cache = DocumentCache(tmp_path / "c.sqlite")
    doc = Document("x.html", "T", "line one\nline two")
    cache.put("k", doc)
    assert DocumentCache(tmp_path / "c.sqlite").get("k") == doc
