"""EWEK-QA's answer composer (§3.2, §A.4): numbered quotes in, an answer citing ``[n]`` out.

The KG triples (from ToG-E) are quote 1, document quotes follow. The LLM writes; then a
citation of a number that was not given is dropped (validity), and a citation whose quote does
not support its sentence is dropped, leaving an uncited sentence flagged ``[NA]`` (alignment).
When nothing the model wrote keeps a citation — or there is no model — the answer is
*extractive*: the evidence sentences closest to the question, verbatim, each citing its quote
(docs/concepts.md: the program guarantees, the model only phrases).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from kgcite.errors import LLMError, ModelError, each_or_error
from kgcite.generate.citations import (
    Citation,
    NACitation,
    QuoteCitation,
    Sentence,
    format_answer,
    parse_answer,
)
from kgcite.generate.prompts import quote_grammar, quote_prompt, quote_system
from kgcite.generate.verbalize import verbalize
from kgcite.generate.verify import QuoteVerifier, invents
from kgcite.kg.model import Triple, TripleKey
from kgcite.models.embed import Embedder
from kgcite.models.llm import LLM, ChatRequest
from kgcite.retrieve.base import GraphRetriever
from kgcite.retrieve.documents.model import Quote
from kgcite.retrieve.documents.retriever import DocumentRetriever, Gathered
from kgcite.retrieve.scoring import distinctive_overlap
from kgcite.text.sentences import sentence_spans
from kgcite.text.values import normalize, value_forms
from kgcite.timing import Timings

# kgcite.schema (pydantic, ~130 ms) is imported where a record is made, not when a command starts
if TYPE_CHECKING:
    from kgcite.schema import EvidenceQuoteRecord, QuotedAnswerRecord

_PRONOUN = re.compile(r"(he|she|it|they|his|her|its|their|this|these)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class EvidenceQuote:
    """One numbered quote as the composer shows it."""

    index: int
    kind: str  # "kg" or "document"
    text: str
    source: str
    triples: tuple[TripleKey, ...] = ()

    def sentences(self) -> list[str]:
        """What a cited sentence is checked against, one by one (the NLI model reads short premises)."""
        return [self.text[a:b] for a, b in sentence_spans(self.text)] or [self.text]

    def known(self) -> str:
        """Normalised text a citing sentence may take names and numbers from (KG dates also spoken)."""
        return " ".join([normalize(self.text), *(form for k in self.triples for form in value_forms(k[2]))])

    def record(self) -> EvidenceQuoteRecord:
        from kgcite.schema import (
            EvidenceQuoteRecord,
        )

        return EvidenceQuoteRecord(
            index=self.index,
            kind="kg" if self.kind == "kg" else "document",
            text=self.text,
            source=self.source,
            triples=[list(k) for k in self.triples] or None,
        )

    def to_dict(self) -> dict[str, Any]:
        return self.record().model_dump()


def evidence_quotes(
    triples: Sequence[Triple], documents: Sequence[Quote], *, max_triples: int = 10
) -> list[EvidenceQuote]:
    """KG triples (as template sentences) as quote 1 when there are any; document quotes after."""
    out: list[EvidenceQuote] = []
    kept = list(dict.fromkeys(triples))[:max_triples]
    if kept:
        out.append(
            EvidenceQuote(1, "kg", " ".join(verbalize(t) for t in kept), "knowledge graph", tuple(t.key for t in kept))
        )
    for q in documents:
        out.append(EvidenceQuote(len(out) + 1, "document", q.text, q.passage.source))
    return out


def cited_indices(sentence: Sentence) -> list[int]:
    return [c.index for c in sentence.citations if isinstance(c, QuoteCitation)]


@dataclass(frozen=True)
class QuotedAnswer:
    question: str
    sentences: tuple[Sentence, ...]
    quotes: tuple[EvidenceQuote, ...]
    model: str
    extractive: bool = False
    raw_output: str = ""
    written_citations: int = 0  # [n] marks the model wrote
    invalid_citations: int = 0  # of those, numbers that name no quote
    repairs: tuple[str, ...] = ()
    timings: Timings = field(default_factory=Timings)

    @property
    def answer(self) -> str:
        return format_answer(self.sentences)

    def cited_kinds(self) -> set[str]:
        by_index = {q.index: q.kind for q in self.quotes}
        return {by_index[i] for s in self.sentences for i in cited_indices(s) if i in by_index}

    def record(self) -> QuotedAnswerRecord:
        from kgcite.schema import (
            QuotedAnswerRecord,
            QuoteSentence,
        )

        return QuotedAnswerRecord(
            question=self.question,
            answer=self.answer,
            sentences=[QuoteSentence(text=s.text, na=s.na, quotes=cited_indices(s)) for s in self.sentences],
            quotes=[q.record() for q in self.quotes],
            model=self.model,
            extractive=self.extractive,
            written_citations=self.written_citations,
            invalid_citations=self.invalid_citations,
            repairs=list(self.repairs),
            raw_output=self.raw_output,
            timings=self.timings.rounded(),
        )

    def to_dict(self) -> dict[str, Any]:
        return self.record().model_dump()


class QuoteComposer:
    def __init__(
        self,
        llm: LLM | None,
        embedder: Embedder,
        verifier: QuoteVerifier,
        *,
        max_tokens: int = 200,
        constrained: bool = False,
        overlap_weight: float = 0.5,
    ) -> None:
        self.llm, self.embedder, self.verifier, self.max_tokens = llm, embedder, verifier, max_tokens
        # how much the question's distinguishing words count beside the cosine when the extractive
        # answer picks a quote's sentence (0: the cosine alone)
        self.overlap_weight = overlap_weight
        self.constrained = constrained  # a GBNF grammar makes every sentence end with [n] citations

    def compose(self, question: str, quotes: Sequence[EvidenceQuote]) -> QuotedAnswer:
        t0 = time.perf_counter()
        raw = ""
        llm = self.llm if quotes else None  # nothing to quote: nothing to ask
        if llm is not None:
            request = ChatRequest.of(
                quote_prompt(question, [q.text for q in quotes]),
                system=quote_system(len(quotes)),
                max_tokens=self.max_tokens,
                grammar=quote_grammar(len(quotes)) if self.constrained else None,
            )
            reply = llm.chat_many([request])[0]
            if isinstance(reply, LLMError):
                raise reply
            raw = reply.text.strip()
        t1 = time.perf_counter()
        sentences: tuple[Sentence, ...]
        sentences, written, invalid, notes = self.check(raw, quotes, question) if raw else ((), 0, 0, [])
        t2 = time.perf_counter()
        timings = Timings({"generate": t1 - t0, "verify": t2 - t1}, llm_calls=1) if llm is not None else Timings()
        extractive = not any(cited_indices(s) for s in sentences)
        if extractive:
            if raw:
                notes.append("no sentence of the model's answer kept a supported citation: extractive answer")
            sentences = tuple(self.extract(question, quotes))
            timings["extract"] = time.perf_counter() - t2
        return QuotedAnswer(
            question=question,
            sentences=tuple(sentences),
            quotes=tuple(quotes),
            model="extractive" if extractive else (self.llm.name if self.llm is not None else "extractive"),
            extractive=extractive,
            raw_output=raw,
            written_citations=written,
            invalid_citations=invalid,
            repairs=tuple(notes),
            timings=timings,
        )

    def check(
        self, raw: str, quotes: Sequence[EvidenceQuote], question: str
    ) -> tuple[tuple[Sentence, ...], int, int, list[str]]:
        """Validity then alignment: keep the citations that name a quote that supports the sentence
        (NLI or verbatim), and none of a sentence that names a name or number its quotes lack."""
        by_index = {q.index: q for q in quotes}
        parsed = parse_answer(raw)
        written = sum(isinstance(c, QuoteCitation) for c in parsed.citations())
        notes: list[str] = []
        invalid = 0
        pairs: list[tuple[str, str]] = []
        for s in parsed.sentences:
            for i in cited_indices(s):
                if i in by_index:
                    pairs.extend((s.text, part) for part in by_index[i].sentences())
                else:
                    invalid += 1
                    notes.append(f"validity: [{i}] names no quote (there are {len(quotes)}); citation removed")
        verdicts = dict(zip(pairs, self.verifier.supported(pairs), strict=True))
        out = []
        for s in parsed.sentences:
            valid = [i for i in dict.fromkeys(cited_indices(s)) if i in by_index]
            keep = [i for i in valid if any(verdicts[(s.text, p)] for p in by_index[i].sentences())]
            for i in valid:
                if i not in keep:
                    notes.append(f"alignment: quote [{i}] does not support '{s.text}'; citation removed")
            if keep and invents(s.text, " ".join([normalize(question), *(by_index[i].known() for i in keep)])):
                notes.append(f"alignment: '{s.text}' names something its quotes {keep} do not; citations removed")
                keep = []
            marks: list[Citation] = [QuoteCitation(i) for i in keep]
            if not keep:
                marks.append(NACitation())
            out.append(Sentence(s.text, tuple(marks)))
        return tuple(out), written, invalid, notes

    def extract(self, question: str, quotes: Sequence[EvidenceQuote]) -> list[Sentence]:
        """From the KG quote and from the best-ranked document quote (the re-ranker read the whole
        passage; a lone sentence says "He" where the passage said "Crane"): the sentence closest
        to the question, verbatim, citing its quote. Closest is the embedding's cosine plus the
        question's words that set the sentence apart from the quote's others (see
        :func:`distinctive_overlap`), and a sentence that opens with a pronoun brings the
        sentences back to one that names whom it means (at most two)."""
        picks: list[Sentence] = []
        q = self.embedder.encode([question])[0]
        for kind in ("kg", "document"):
            quote = next((x for x in quotes if x.kind == kind), None)
            if quote is not None:
                parts = quote.sentences()
                closeness = self.embedder.encode(parts) @ q + self.overlap_weight * np.array(
                    distinctive_overlap(question, parts)
                )
                best = int(np.argmax(closeness))
                lo, hi = best, best + 1
                while lo > max(0, best - 2) and _PRONOUN.match(parts[lo]):  # "He was buried…" needs who "he" is
                    lo -= 1
                if hi < len(parts) and _PRONOUN.match(parts[hi]):  # …and may go on about the same one
                    hi += 1
                picks.extend(Sentence(part, (QuoteCitation(quote.index),)) for part in parts[lo:hi])
        if not picks:
            return [
                Sentence(
                    "Neither the knowledge graph nor the documents hold anything on this question.", (NACitation(),)
                )
            ]
        return picks


def quoted_answer_from_dict(d: Any, path: str | Path = "answer", line: int | None = None) -> QuotedAnswer:
    """The inverse of :meth:`QuotedAnswer.to_dict`; an :class:`InputError` names ``path``, ``line``
    and the first bad field."""
    from kgcite.schema import (
        QuotedAnswerRecord,
        validated,
    )

    r = validated(QuotedAnswerRecord, d, path, line)
    return QuotedAnswer(
        question=r.question,
        sentences=tuple(
            Sentence(s.text, tuple(QuoteCitation(i) for i in s.quotes) + ((NACitation(),) if s.na else ()))
            for s in r.sentences
        ),
        quotes=tuple(
            EvidenceQuote(q.index, q.kind, q.text, q.source, tuple((k[0], k[1], k[2]) for k in q.triples or ()))
            for q in r.quotes
        ),
        model=r.model,
        extractive=r.extractive,
        raw_output=r.raw_output,
        written_citations=r.written_citations,
        invalid_citations=r.invalid_citations,
        repairs=tuple(r.repairs),
        timings=Timings(r.timings),
    )


class QuoteAnswerer:
    """EWEK-QA end to end: graph triples (ToG-E's, or any :class:`GraphRetriever`'s) and/or
    document quotes → one composer. An :class:`~kgcite.generate.answerer.Answerer`."""

    def __init__(
        self,
        composer: QuoteComposer,
        graph: GraphRetriever | None,
        documents: DocumentRetriever | None,
        *,
        max_triples: int = 10,
    ) -> None:
        if graph is None and documents is None:
            raise ValueError("answering from quotes needs the knowledge graph, documents, or both")
        self.composer, self.graph, self.documents, self.max_triples = composer, graph, documents, max_triples

    def answer(
        self, question: str, topics: Sequence[str] | None = None, gathered: Gathered | None = None
    ) -> QuotedAnswer:
        """``gathered``: the question's documents, fetched beforehand (:meth:`gather`)."""
        timings = Timings()
        triples: tuple[Triple, ...] = ()
        if self.graph is not None:
            found = self.graph.search(question, topics or None)
            triples = found.triples
            timings = timings.merged(found.timings)
        docs: tuple[Quote, ...] = ()
        if self.documents is not None:
            retrieval = self.documents.retrieve(question, gathered)
            docs = retrieval.quotes
            timings = timings.merged(retrieval.timings, prefix="docs_")
        answer = self.composer.compose(question, evidence_quotes(triples, docs, max_triples=self.max_triples))
        return replace(answer, timings=timings.merged(answer.timings))

    def gather(self, question: str) -> Gathered | None:
        """The question's documents, searched and fetched: network work, done before (and apart
        from) the models that rank and compose; None without documents."""
        return self.documents.gather(question) if self.documents is not None else None

    def answer_many(
        self, questions: Sequence[str], topics: Sequence[Sequence[str] | None] | None = None
    ) -> list[QuotedAnswer | ModelError]:
        """One answer per question; a model that fails on one is that question's error, not the batch's."""
        given = list(topics) if topics is not None else [None] * len(questions)
        return each_or_error(lambda qt: self.answer(*qt), list(zip(questions, given, strict=True)), ModelError)
