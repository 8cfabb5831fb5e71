"""Evidence Extractor (EWEK-QA §3.1.1, §A.7.2): query-dependent spans, as opposed to the
splitter's fixed blocks.

No extractive-QA model can be installed here, so two extractors stand in for the
paper's fine-tuned DeBERTa: :class:`WindowExtractor` scores windows of consecutive sentences
against the question with the bi-encoder, and :class:`LLMSpanExtractor` asks an LLM to copy
the supporting sentences and aligns the copy back onto the source (:func:`align_span`), so a
quote is always a verbatim slice of its document, whatever the model wrote.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from kgcite.models.embed import Embedder
from kgcite.models.llm import LLM, ChatRequest, ChatResult
from kgcite.retrieve.documents.model import Document, Passage
from kgcite.text.sentences import sentence_spans

_ENDS = frozenset(".!?\"'”’)")


class EvidenceExtractor(Protocol):
    def extract(self, question: str, docs: Sequence[Document]) -> list[Passage]: ...


@dataclass
class WindowExtractor:
    """The best ``per_document`` non-overlapping windows of 1..``max_sentences`` sentences.

    A window's vector is the normalised mean of its sentences' vectors: each sentence is
    encoded once, however many windows hold it."""

    embedder: Embedder
    max_sentences: int = 3
    per_document: int = 2
    max_tokens: int = 120

    def extract(self, question: str, docs: Sequence[Document]) -> list[Passage]:
        spans = [sentence_spans(d.text) for d in docs]
        flat = [d.text[a:b] for d, ss in zip(docs, spans, strict=True) for a, b in ss]
        if not flat:
            return []
        vecs = self.embedder.encode(flat)
        q = self.embedder.encode([question])[0]
        out: list[Passage] = []
        offset = 0
        for doc, ss in zip(docs, spans, strict=True):
            v = vecs[offset : offset + len(ss)]
            offset += len(ss)
            out.extend(self._best(doc, ss, v, q))
        return out

    @staticmethod
    def _prose(text: str, a: int, b: int) -> bool:
        """Not a heading, a menu line or a one-line "Share this page." (what a window must not hold)."""
        whole_line = (a == 0 or text[a - 1] == "\n") and (b == len(text) or text[b] == "\n")
        return text[b - 1 : b] in _ENDS and not (whole_line and len(text[a:b].split()) < 5)

    def _best(self, doc: Document, spans: list[tuple[int, int]], vecs: np.ndarray, q: np.ndarray) -> list[Passage]:
        windows: list[tuple[float, int, int]] = []
        cum = (
            np.vstack([np.zeros((1, vecs.shape[1]), dtype=vecs.dtype), np.cumsum(vecs, axis=0)]) if len(vecs) else vecs
        )
        prose = [self._prose(doc.text, a, b) for a, b in spans]
        for i in range(len(spans)):
            for n in range(1, self.max_sentences + 1):
                j = i + n
                if (
                    j > len(spans)
                    or not prose[j - 1]
                    or len(doc.text[spans[i][0] : spans[j - 1][1]].split()) > self.max_tokens
                ):
                    break
                mean = cum[j] - cum[i]
                windows.append((float(mean @ q / max(1e-12, float(np.linalg.norm(mean)))), i, j))
        windows.sort(key=lambda w: -w[0])
        taken: list[tuple[int, int]] = []
        for _, i, j in windows:
            if len(taken) == self.per_document:
                break
            if all(j <= a or i >= b for a, b in taken):
                taken.append((i, j))
        return [Passage.cut(doc, spans[i][0], spans[j - 1][1], "extractor") for i, j in taken]


def align_span(copy: str, source: str, *, min_ratio: float = 0.8) -> tuple[int, int] | None:
    """Where in ``source`` an approximate ``copy`` of it lies, widened to whole sentences; None
    when no part of the source is close enough (similarity below ``min_ratio``)."""
    copy = " ".join(copy.split()).lower()
    if len(copy) < 3:
        return None
    low = source.lower()
    start = low.find(copy)
    if start >= 0:
        end = start + len(copy)
    else:
        matcher = difflib.SequenceMatcher(None, low, copy, autojunk=False)
        blocks = [b for b in matcher.get_matching_blocks() if b.size >= 4]
        if not blocks:
            return None
        start, end = blocks[0].a, blocks[-1].a + blocks[-1].size
        if difflib.SequenceMatcher(None, " ".join(low[start:end].split()), copy, autojunk=False).ratio() < min_ratio:
            return None
    spans = sentence_spans(source)
    return max((a for a, _ in spans if a <= start), default=start), min((b for _, b in spans if b >= end), default=end)


COPY_PROMPT = (
    "Copy, word for word, the sentences of the text that help answer the question. "
    "Do not add anything.\n\nQuestion: {question}\n\nText: {text}\n\nCopied sentences:"
)


@dataclass
class LLMSpanExtractor:
    """The LLM copies supporting sentences from each document's best block(s); the copy is
    aligned back to the document. A copy that aligns nowhere gives no passage."""

    llm: LLM
    embedder: Embedder
    max_words: int = 250
    max_tokens: int = 160

    def extract(self, question: str, docs: Sequence[Document]) -> list[Passage]:
        texts = [self._context(question, d) for d in docs]
        requests = [
            ChatRequest.of(COPY_PROMPT.format(question=question, text=t), max_tokens=self.max_tokens) for t in texts
        ]
        out: list[Passage] = []
        for doc, reply in zip(docs, self.llm.chat_many(requests), strict=True):
            if not isinstance(reply, ChatResult):
                continue
            span = align_span(reply.text.strip(), doc.text)
            if span is not None:
                out.append(Passage.cut(doc, span[0], span[1], "extractor"))
        return out

    def _context(self, question: str, doc: Document) -> str:
        """The document's blocks closest to the question, up to ``max_words`` (small LLM contexts)."""
        blocks = [b for b in re.split(r"\n", doc.text) if b.strip()]
        if not blocks:
            return ""
        sims = self.embedder.encode(blocks) @ self.embedder.encode([question])[0]
        chosen: list[int] = []
        words = 0
        for i in np.argsort(-sims):
            n = len(blocks[i].split())
            if chosen and words + n > self.max_words:
                break
            chosen.append(int(i))
            words += n
        return "\n".join(blocks[i] for i in sorted(chosen))
