"""Paragraph Splitter (EWEK-QA §3.1.1, §A.7.1): a document's blocks become candidate passages.

Blocks are the document's lines (line breaks, and ``<p>`` and other block tags for HTML, see
:mod:`.html`). A block shorter than ``min_tokens`` is dropped; a block longer than
``max_tokens`` is cut into runs of whole sentences of at most ``max_tokens`` (a single sentence
longer than that is kept whole rather than cut mid-sentence). Tokens are whitespace words.
The paper's exact token limits did not survive in our copy of its text; the defaults below
are ours (WebGLM, which it extends, drops lines under 50 characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgcite.retrieve.documents.model import Document, Passage
from kgcite.text.sentences import sentence_spans


@dataclass(frozen=True)
class ParagraphSplitter:
    min_tokens: int = 10
    max_tokens: int = 120

    def __post_init__(self) -> None:
        if not 0 < self.min_tokens <= self.max_tokens:
            raise ValueError(f"need 0 < min_tokens ({self.min_tokens}) <= max_tokens ({self.max_tokens})")

    def split(self, doc: Document) -> list[Passage]:
        out: list[Passage] = []
        for line in re.finditer(r"[^\n]+", doc.text):
            n = len(line.group().split())
            if n < self.min_tokens:
                continue
            if n <= self.max_tokens:
                out.append(Passage.cut(doc, line.start(), line.end(), "splitter"))
                continue
            out.extend(self._pack(doc, line.start(), line.group()))
        return out

    def _pack(self, doc: Document, base: int, block: str) -> list[Passage]:
        """Greedy runs of whole sentences, each at most ``max_tokens`` (unless one sentence is longer)."""
        runs: list[tuple[int, int]] = []
        start = end = -1
        size = 0
        for a, b in sentence_spans(block):
            n = len(block[a:b].split())
            if start >= 0 and size + n > self.max_tokens:
                runs.append((start, end))
                start = -1
            if start < 0:
                start, size = a, 0
            end, size = b, size + n
        if start >= 0:
            runs.append((start, end))
        return [
            Passage.cut(doc, base + a, base + b, "splitter")
            for a, b in runs
            if len(block[a:b].split()) >= self.min_tokens
        ]
