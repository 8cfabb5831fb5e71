"""Text–citation alignment and conscious-incompetence (``[NA]``) scores (KaLMA §4.3–4.4, docs/concepts.md).

The scores are pure functions of support judgments; :class:`AttributionScorer` collects the
(sentence, knowledge) pairs of many answers, asks the judge once for all of them, and hands the
judgments to those functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from kgcite.evaluate.metrics.citation import f1
from kgcite.generate.citations import ParsedAnswer, with_context
from kgcite.judge.rules import Claim, subject_stated, tokens
from kgcite.judge.support import SupportJudge, value_relations
from kgcite.kg.keys import property_key
from kgcite.kg.model import Subgraph, TripleKey
from kgcite.text.lexicon import cue_positions, name_stems, paraphrases, stem


@dataclass(frozen=True)
class AlignmentReport:
    n_pairs: int
    n_aligned: int
    alignment: float | None  # aligned / pairs over all answers; None when nothing was cited
    macro_alignment: float | None  # mean of per-answer alignment, answers with a pair only

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class NAReport:
    n_na_sentences: int
    n_na_correct: int  # [NA] sentences that entail some absent knowledge
    n_absent: int
    n_absent_found: int  # absent knowledge entailed by some [NA] sentence
    na_precision: float | None
    na_recall: float | None
    na_f1: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class GapReport:
    """kgcite's ``[NA]`` scores for grounded answers (docs/concepts.md): does an ``[NA]`` sentence
    name the missing (entity, property)? A grounded answer cannot know the missing value."""

    n_na_sentences: int
    n_na_naming: int  # [NA] sentences that name some absent (entity, property)
    n_gaps: int
    n_gaps_named: int  # absent (entity, property) named by some [NA] sentence
    gap_precision: float | None
    gap_recall: float | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def gap_report(matrices: Sequence[Sequence[Sequence[bool]]], n_gaps: Sequence[int]) -> GapReport:
    """``matrices[i][s][k]``: does the s-th ``[NA]`` sentence of answer i name its k-th gap."""
    counts = na_report(matrices, n_gaps)
    return GapReport(
        counts.n_na_sentences,
        counts.n_na_correct,
        counts.n_absent,
        counts.n_absent_found,
        counts.na_precision,
        counts.na_recall,
    )


def gaps_of(absent: Sequence[TripleKey]) -> list[tuple[str, str]]:
    """The distinct (entity, property) of absent knowledge, in order."""
    return list(dict.fromkeys((k[0], property_key(k[1])) for k in absent))


def names_gap(sentence: str, subject: str | None, relation: str, context: str = "") -> bool:
    """Does a sentence name a gap: the property (the words of its name, or a paraphrase from the
    relation lexicon) and the subject (label, last name, or a pronoun for it)? "The graph does not
    say where Stephen Crane was born" names (Stephen Crane, place of birth)."""
    words = tokens(sentence, subject)
    word_stems = [stem(w) for w in words]
    own = name_stems(relation, generic=True)
    named = (bool(own) and all(w in word_stems for w in own)) or bool(cue_positions(word_stems, paraphrases(relation)))
    return named and (subject is None or subject_stated(words, subject, context))


def alignment_report(judgments: Sequence[Sequence[bool]]) -> AlignmentReport:
    """``judgments[i]``: one bool per (sentence, citation triple) pair of answer i."""
    n = sum(len(j) for j in judgments)
    hits = sum(sum(j) for j in judgments)
    per_answer = [sum(j) / len(j) for j in judgments if j]
    return AlignmentReport(n, hits, hits / n if n else None, sum(per_answer) / len(per_answer) if per_answer else None)


def na_report(matrices: Sequence[Sequence[Sequence[bool]]], n_absent: Sequence[int]) -> NAReport:
    """``matrices[i][s][k]``: does the s-th ``[NA]`` sentence of answer i entail its k-th absent knowledge.

    Precision over ``[NA]`` sentences (one entailed absent knowledge suffices); recall over the
    absent knowledge (one ``[NA]`` sentence entailing it suffices). Paper Figure 3."""
    if len(matrices) != len(n_absent):
        raise ValueError(f"{len(matrices)} answers but {len(n_absent)} absent-set sizes")
    n_sent = sum(len(m) for m in matrices)
    correct = sum(any(row) for m in matrices for row in m)
    found = sum(any(m[s][k] for s in range(len(m))) for m, n in zip(matrices, n_absent, strict=True) for k in range(n))
    total = sum(n_absent)
    p = correct / n_sent if n_sent else None
    r = found / total if total else None
    return NAReport(n_sent, correct, total, found, p, r, f1(p, r) if p is not None and r is not None else None)


def _labels(graph: Subgraph | None) -> dict[str, str]:
    if graph is None:
        return {}
    labels = {t.subject_id: t.subject_label for t in graph.triples}
    labels.update({e.id: e.label for e in graph.entities})
    return labels


def alignment_claims(answer: ParsedAnswer, graph: Subgraph | None = None) -> list[Claim]:
    """One claim per (sentence, complete citation triple); the graph gives the subject's label
    and the relations it holds the value under. Without it the subject is not checked."""
    labels, held = _labels(graph), value_relations(graph.triples) if graph is not None else {}
    out = []
    for s, context in with_context(answer.sentences):
        keys = [k for t in s.cited_triples() if (k := t.key) is not None]
        together = tuple((labels.get(k[0], k[0]), k[1], k[2]) for k in keys)  # a conclusion is recomputed from these
        out += [
            Claim(
                s.text,
                labels.get(k[0]),
                k[1],
                k[2],
                context,
                held.get((k[0], k[2].strip())) if graph else None,
                together,
            )
            for k in keys
        ]
    return out


def na_claims(answer: ParsedAnswer, absent: Sequence[TripleKey], graph: Subgraph | None = None) -> list[list[Claim]]:
    """For each ``[NA]`` sentence, one claim per absent knowledge (does the sentence state it?)."""
    labels = _labels(graph)
    return [
        [Claim(s.text, labels.get(k[0]), k[1], k[2], context) for k in absent]
        for s, context in with_context(answer.sentences)
        if s.na
    ]


class AttributionScorer:
    """Alignment and ``[NA]`` scores of many answers with one batched call to the judge."""

    def __init__(self, judge: SupportJudge) -> None:
        self.judge = judge

    def alignment_judgments(
        self, answers: Sequence[ParsedAnswer], graphs: Sequence[Subgraph | None] | None = None
    ) -> list[list[bool]]:
        per_answer = [alignment_claims(a, g) for a, g in zip(answers, graphs or [None] * len(answers), strict=True)]
        flat = iter(self.judge.judge([c for claims in per_answer for c in claims]))
        return [[next(flat) for _ in claims] for claims in per_answer]

    def alignment(
        self, answers: Sequence[ParsedAnswer], graphs: Sequence[Subgraph | None] | None = None
    ) -> AlignmentReport:
        return alignment_report(self.alignment_judgments(answers, graphs))

    def na_matrices(
        self,
        answers: Sequence[ParsedAnswer],
        absent: Sequence[Sequence[TripleKey]],
        graphs: Sequence[Subgraph | None] | None = None,
    ) -> list[list[list[bool]]]:
        per_answer = [
            na_claims(a, ks, g) for a, ks, g in zip(answers, absent, graphs or [None] * len(answers), strict=True)
        ]
        flat = iter(self.judge.judge([c for rows in per_answer for row in rows for c in row]))
        return [[[next(flat) for _ in row] for row in rows] for rows in per_answer]

    def gap_matrices(
        self,
        answers: Sequence[ParsedAnswer],
        absent: Sequence[Sequence[TripleKey]],
        graphs: Sequence[Subgraph | None] | None = None,
    ) -> list[list[list[bool]]]:
        """Pure text: no model is asked whether an [NA] sentence names a gap."""
        out = []
        for a, ks, g in zip(answers, absent, graphs or [None] * len(answers), strict=True):
            labels, gaps = _labels(g), gaps_of(ks)
            out.append(
                [
                    [names_gap(s.text, labels.get(e), p, context) for e, p in gaps]
                    for s, context in with_context(a.sentences)
                    if s.na
                ]
            )
        return out

    def na(
        self,
        answers: Sequence[ParsedAnswer],
        absent: Sequence[Sequence[TripleKey]],
        graphs: Sequence[Subgraph | None] | None = None,
    ) -> NAReport:
        return na_report(self.na_matrices(answers, absent, graphs), [len(ks) for ks in absent])
