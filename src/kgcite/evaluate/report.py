"""Scoring an answer file and printing the numbers readably."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kgcite.evaluate.citation import AnswerCitationScore, CitationReport, PrecisionUnit, aggregate, score_answer
from kgcite.evaluate.records import AnswerRecord
from kgcite.kg.loaders import InputError
from kgcite.kg.model import Subgraph

GraphOf = Callable[[AnswerRecord], Subgraph]


def citation_report(
    records: Iterable[AnswerRecord | InputError],
    unit: PrecisionUnit = "citation",
    graph_of: GraphOf | None = None,
) -> tuple[CitationReport, list[InputError]]:
    """Score every record (``graph_of`` picks G; default: the record's own ``kg``).

    Bad lines come in as errors (see ``read_records(skip_bad=True)``); they are counted and returned.
    An id seen twice (a resumed run retried it) counts once, by its last line; items the run
    could not answer (``status: failed``) are counted, not scored.
    """
    scores: list[AnswerCitationScore] = []
    skipped: list[InputError] = []
    latest: dict[str, AnswerRecord] = {}
    for rec in records:
        if isinstance(rec, InputError):
            skipped.append(rec)
        else:
            latest.pop(rec.id, None)
            latest[rec.id] = rec
    n_unparsed = n_failed = 0
    for rec in latest.values():
        if rec.status == "failed":
            n_failed += 1
            continue
        graph = graph_of(rec) if graph_of else rec.graph
        parsed = rec.parsed()
        n_unparsed += parsed.n_unparsed
        scores.append(score_answer(parsed.cited_triples(), graph.keys, rec.minimum, unit))
    return aggregate(scores, n_skipped=len(skipped), n_unparsed=n_unparsed, n_failed=n_failed), skipped


def _cell(value: object) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain aligned text table (numbers right-aligned)."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    numeric = [all(isinstance(row[i], (int, float)) or row[i] is None for row in rows) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric, strict=True)
        ).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in cells)])


def format_citation_report(report: CitationReport, unit: PrecisionUnit) -> str:
    rows: list[tuple[str, object, object]] = [
        ("correctness", report.correctness, None),
        ("precision", report.precision_micro, report.precision_macro),
        ("recall", report.recall_micro, report.recall_macro),
        ("F1", report.f1_micro, report.f1_macro),
    ]
    counts = (
        f"{report.n_answers} answers, {report.n_citations} citation triples "
        f"({report.n_unparsed} unparsable), {report.n_skipped} bad lines skipped, {report.n_failed} failed items; "
        f"precision unit: {unit}"
    )
    return f"{format_table(['metric', 'micro', 'macro'], rows)}\n{counts}"
