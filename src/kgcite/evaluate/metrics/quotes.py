"""Quote citations (EWEK-QA / ALCE style ``[n]``): validity, alignment and where citations point.

- **validity**: share of the ``[n]`` marks a model wrote that name a quote it was given;
- **alignment**: share of (sentence, cited quote) pairs where the quote supports the sentence —
  some sentence of the quote contains it verbatim or entails it (NLI); measured on the answer as
  the model wrote it and on the answer kgcite returns (after its validity and alignment checks);
- **citation sources** (EWEK-QA Figure 3): share of answers citing only the KG quote, only
  document quotes, both, or nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kgcite.generate.citations import Sentence, parse_answer
from kgcite.generate.compose import EvidenceQuote, QuotedAnswer, cited_indices
from kgcite.judge.quotes import NLIQuoteVerifier


@dataclass(frozen=True)
class QuoteReport:
    answers: int
    written: int
    invalid: int
    pairs: int
    aligned: int
    written_pairs: int
    written_aligned: int
    sources: dict[str, int]
    extractive: int

    @property
    def validity(self) -> float | None:
        return (self.written - self.invalid) / self.written if self.written else None

    @property
    def alignment(self) -> float | None:
        return self.aligned / self.pairs if self.pairs else None

    @property
    def written_alignment(self) -> float | None:
        return self.written_aligned / self.written_pairs if self.written_pairs else None

    def shares(self) -> dict[str, float]:
        return {k: v / self.answers if self.answers else 0.0 for k, v in self.sources.items()}

    def to_dict(self) -> dict[str, object]:
        return {
            "answers": self.answers,
            "validity": self.validity,
            "written_citations": self.written,
            "invalid_citations": self.invalid,
            "alignment": self.alignment,
            "aligned_pairs": self.aligned,
            "pairs": self.pairs,
            "written_alignment": self.written_alignment,
            "written_aligned_pairs": self.written_aligned,
            "written_pairs": self.written_pairs,
            "citation_sources": self.sources,
            "citation_source_shares": self.shares(),
            "extractive_answers": self.extractive,
        }


def citation_source(answer: QuotedAnswer) -> str:
    kinds = answer.cited_kinds()
    if kinds == {"kg", "document"}:
        return "both"
    if kinds == {"kg"}:
        return "kg_only"
    if kinds == {"document"}:
        return "documents_only"
    return "none"


def alignment_pairs(sentences: Sequence[Sentence], quotes: Sequence[EvidenceQuote]) -> list[tuple[str, list[str]]]:
    """(sentence, sentences of one cited quote) for every valid citation of every sentence."""
    by_index = {q.index: q for q in quotes}
    return [
        (s.text, by_index[i].sentences()) for s in sentences for i in dict.fromkeys(cited_indices(s)) if i in by_index
    ]


def count_aligned(grouped: Sequence[tuple[str, list[str]]], verifier: NLIQuoteVerifier) -> int:
    """How many (sentence, quote) pairs are supported by some sentence of the quote; one NLI batch."""
    flat = [(s, part) for s, parts in grouped for part in parts]
    verdicts = iter(verifier.supported(flat))
    return sum(any([next(verdicts) for _ in parts]) for _, parts in grouped)  # noqa: C419 - the list consumes every verdict


def quote_report(answers: Iterable[QuotedAnswer], verifier: NLIQuoteVerifier) -> QuoteReport:
    answers = list(answers)
    final = [p for a in answers for p in alignment_pairs(a.sentences, a.quotes)]
    written = [
        p for a in answers if a.raw_output for p in alignment_pairs(parse_answer(a.raw_output).sentences, a.quotes)
    ]
    sources = {"kg_only": 0, "documents_only": 0, "both": 0, "none": 0}
    for a in answers:
        sources[citation_source(a)] += 1
    return QuoteReport(
        answers=len(answers),
        written=sum(a.written_citations for a in answers),
        invalid=sum(a.invalid_citations for a in answers),
        pairs=len(final),
        aligned=count_aligned(final, verifier),
        written_pairs=len(written),
        written_aligned=count_aligned(written, verifier),
        sources=sources,
        extractive=sum(a.extractive for a in answers),
    )
