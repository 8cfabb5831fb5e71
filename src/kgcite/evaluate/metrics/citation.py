"""KaLMA citation quality: correctness, precision, recall, F1 (docs/concepts.md, paper §4.3, Fig. 2).

Pure functions over the parsed citations, the retrieved graph G and the minimum knowledge set M.
All three sides compare in canonical form (:mod:`kgcite.kg.keys`): ``date_of_birth`` in a
citation is the graph's ``date of birth``; values compare exactly after trimming.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Literal

from kgcite.generate.citations import CitedTriple
from kgcite.kg.keys import TripleKey, canonical_key, canonical_keys

PrecisionUnit = Literal["citation", "distinct"]


@dataclass(frozen=True, slots=True)
class AnswerCitationScore:
    """Counts for one answer; the per-answer rates derive from them."""

    n_citations: int
    n_correct: int
    n_precise: int
    n_minimum: int
    n_recalled: int

    @property
    def correctness(self) -> float | None:
        """None for an answer with no citation (left out of macro correctness, as in the authors' scorer)."""
        return self.n_correct / self.n_citations if self.n_citations else None

    @property
    def precision(self) -> float | None:
        """None for an answer with no citation or no minimum set: it has no precision (left out of
        macro; precision against an empty set would read 0 whatever was cited)."""
        return self.n_precise / self.n_citations if self.n_citations and self.n_minimum else None

    @property
    def recall(self) -> float | None:
        return self.n_recalled / self.n_minimum if self.n_minimum else None


def score_answer(
    cited: Sequence[CitedTriple],
    graph: Collection[TripleKey],
    minimum: Collection[TripleKey],
    unit: PrecisionUnit = "citation",
) -> AnswerCitationScore:
    """Score one answer's citation triples against G (``graph``) and M (``minimum``).

    A citation is correct iff all three parts are present and it is a triple of G; it is precise
    iff correct and in M (``unit="distinct"`` counts each knowledge of M once, as the authors'
    released scripts do; the paper counts every citation). A knowledge of M is recalled iff a
    correct citation equals it. Every key is compared in canonical form (:mod:`kgcite.kg.keys`).
    """
    if unit not in ("citation", "distinct"):
        raise ValueError(f"unknown precision unit {unit!r}; choose 'citation' or 'distinct'")
    g = canonical_keys(graph)
    m = canonical_keys(minimum)
    correct = [key for c in cited if c.key is not None and (key := canonical_key(c.key)) in g]
    in_m = [key for key in correct if key in m]
    return AnswerCitationScore(
        n_citations=len(cited),
        n_correct=len(correct),
        n_precise=len(in_m) if unit == "citation" else len(set(in_m)),
        n_minimum=len(m),
        n_recalled=len(m.intersection(correct)),
    )


def f1(precision: float | None, recall: float | None) -> float | None:
    if precision is None or recall is None:
        return None
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _mean(xs: Iterable[float | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else None


@dataclass(frozen=True, slots=True)
class CitationReport:
    """The dataset-level numbers ``kgcite eval citations`` prints (None: undefined, e.g. no citation)."""

    n_answers: int
    n_citations: int
    correctness: float | None
    correctness_macro: float | None
    precision_micro: float | None
    recall_micro: float | None
    f1_micro: float | None
    precision_macro: float | None
    recall_macro: float | None
    f1_macro: float | None
    n_skipped: int = 0
    n_unparsed: int = 0
    n_failed: int = 0
    n_no_graph: int = 0  # answers whose G holds nothing: citation quality is undefined, not zero
    n_minimum: int = 0  # knowledge in the minimum sets of all answers (0: precision and recall n/a)

    def to_dict(self) -> dict[str, float | int | None]:
        return asdict(self)


def aggregate(
    scores: Sequence[AnswerCitationScore],
    *,
    n_skipped: int = 0,
    n_unparsed: int = 0,
    n_failed: int = 0,
    n_no_graph: int = 0,
) -> CitationReport:
    """Micro rates pool the counts of all answers; macro rates average per-answer rates
    (answers without citations are left out of macro precision; they score 0 recall). Precision
    counts only answers that have a minimum set: without one it is not measurable (None)."""
    n_cit = sum(s.n_citations for s in scores)
    n_min = sum(s.n_minimum for s in scores)
    n_cit_m = sum(s.n_citations for s in scores if s.n_minimum)
    p_micro = sum(s.n_precise for s in scores) / n_cit_m if n_cit_m else None
    r_micro = sum(s.n_recalled for s in scores) / n_min if n_min else None
    p_macro = _mean(s.precision for s in scores)
    r_macro = _mean(s.recall for s in scores)
    return CitationReport(
        n_answers=len(scores),
        n_citations=n_cit,
        correctness=sum(s.n_correct for s in scores) / n_cit if n_cit else None,
        correctness_macro=_mean(s.correctness for s in scores),
        precision_micro=p_micro,
        recall_micro=r_micro,
        f1_micro=f1(p_micro, r_micro),
        precision_macro=p_macro,
        recall_macro=r_macro,
        f1_macro=f1(p_macro, r_macro),
        n_skipped=n_skipped,
        n_unparsed=n_unparsed,
        n_failed=n_failed,
        n_no_graph=n_no_graph,
        n_minimum=n_min,
    )
