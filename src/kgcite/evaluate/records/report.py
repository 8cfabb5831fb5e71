"""Scoring an answer file and printing the numbers readably."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from kgcite.errors import InputError
from kgcite.evaluate.metrics.citation import AnswerCitationScore, CitationReport, PrecisionUnit, aggregate, score_answer
from kgcite.evaluate.records.answer_file import AnswerRecord
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
    could not answer (``status: failed``) are counted, not scored; so are answers whose G holds
    no entity (98 BioKaLMA questions have none): as in the KaLMA authors' scorer, there is
    nothing to cite, so citation quality is undefined for them.
    """
    scores: list[AnswerCitationScore] = []
    latest, skipped = latest_records(records)
    n_unparsed = n_failed = n_no_graph = 0
    for rec in latest:
        if rec.status == "failed":
            n_failed += 1
            continue
        graph = graph_of(rec) if graph_of else rec.graph
        if not graph.entities and not graph.triples:
            n_no_graph += 1
            continue
        parsed = rec.parsed()
        n_unparsed += parsed.n_unparsed
        scores.append(score_answer(parsed.cited_triples(), graph.keys, rec.minimum, unit))
    report = aggregate(scores, n_skipped=len(skipped), n_unparsed=n_unparsed, n_failed=n_failed, n_no_graph=n_no_graph)
    return report, skipped


def latest_records(records: Iterable[AnswerRecord | InputError]) -> tuple[list[AnswerRecord], list[InputError]]:
    """One record per id (the last line wins: a resumed run retried it), and the bad lines."""
    skipped: list[InputError] = []
    latest: dict[str, AnswerRecord] = {}
    for rec in records:
        if isinstance(rec, InputError):
            skipped.append(rec)
        else:
            latest.pop(rec.id, None)
            latest[rec.id] = rec
    return list(latest.values()), skipped


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
        ("correctness", report.correctness, report.correctness_macro),
        ("precision", report.precision_micro, report.precision_macro),
        ("recall", report.recall_micro, report.recall_macro),
        ("F1", report.f1_micro, report.f1_macro),
    ]
    counts = (
        f"{report.n_answers} answers, {report.n_citations} citation triples "
        f"({report.n_unparsed} unparsable), {report.n_skipped} bad lines skipped, {report.n_failed} failed items"
        + (f", {report.n_no_graph} answers without a graph (not scored)" if report.n_no_graph else "")
        + f"; precision unit: {unit}"
    )
    return f"{format_table(['metric', 'micro', 'macro'], rows)}\n{counts}" + (
        f"\n{NO_MINIMUM}" if report.n_answers and not report.n_minimum else ""
    )


#: What precision and recall read as on data without minimum knowledge sets, and why.
NO_MINIMUM = (
    "precision, recall, F1: n/a (no minimum knowledge sets in these answers: they say which triples an answer "
    "needs; kgcite build kalma makes datasets that have them)"
)


def _pct(value: object) -> str:
    return "n/a" if value is None else f"{100 * float(value):.1f}"  # type: ignore[arg-type]


def _md_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


QUALITY_ASPECTS = ("coherence", "consistency", "fluency", "relevance")


def eval_report_markdown(metrics: dict[str, object], source: str) -> str:
    """``report.md`` of ``kgcite eval all``: KaLMA Table 7's layout (citation eval | text eval)."""
    cit = _md_table(
        ["Align.", "Corr.", "Prec.", "Rec.", "F1.", "Prec. (macro)", "Rec. (macro)", "F1. (macro)"],
        [
            [
                _pct(metrics.get(k))
                for k in (
                    "alignment",
                    "correctness",
                    "precision_micro",
                    "recall_micro",
                    "f1_micro",
                    "precision_macro",
                    "recall_macro",
                    "f1_macro",
                )
            ]
        ],
    )
    parts = [
        f"# Evaluation of `{source}`",
        (
            f"{metrics['n_answers']} answers, {metrics['n_citations']} citation triples, {metrics['n_alignment_pairs']} "
            f"sentence–citation pairs; {metrics['n_failed']} failed items, {metrics['n_skipped']} bad lines skipped. "
            f"Alignment judge: `{metrics['judge']}`. Scores in %."
        ),
        "## Citation evaluation",
        cit,
        *(
            [NO_MINIMUM[0].upper() + NO_MINIMUM[1:] + "."]
            if metrics.get("n_answers") and not metrics.get("n_minimum")
            else []
        ),
        "![metrics](metrics.png)",
    ]
    if metrics.get("n_absent") is not None:
        parts += [
            "## Conscious incompetence ([NA])",
            _md_table(
                [
                    "[NA] sentences",
                    "absent knowledge",
                    "[NA] precision",
                    "[NA] recall",
                    "[NA] F1",
                    "gap precision",
                    "gap recall",
                ],
                [
                    [
                        metrics["n_na_sentences"],
                        metrics["n_absent"],
                        _pct(metrics["na_precision"]),
                        _pct(metrics["na_recall"]),
                        _pct(metrics["na_f1"]),
                        _pct(metrics.get("gap_precision")),
                        _pct(metrics.get("gap_recall")),
                    ]
                ],
            ),
            (
                "[NA] precision/recall (KaLMA) ask whether an [NA] sentence states the missing knowledge, value included; "
                "gap precision/recall whether it names the missing entity and property, which is all a grounded answer can know."
            ),
        ]
    if metrics.get("quality_judge"):
        parts += [
            f"## Text evaluation (G-Eval, 1–5, judge `{metrics['quality_judge']}`)",
            _md_table(
                ["Coh.", "Con.", "Flu.", "Rel."],
                [[_cell(metrics.get(f"quality_{a}")) for a in QUALITY_ASPECTS]],
            ),
        ]
    return "\n\n".join(parts) + "\n"


def experiment_markdown(
    title: str, rows: Sequence[dict[str, object]], condition_header: str, labels: Sequence[str], plot: str, *, na: bool
) -> str:
    """KaLMA Table 5 (removal) / the data of Figure 5 (retrieval): one row per condition."""
    body = [
        [
            label,
            _pct(r.get("correctness")),
            _pct(r.get("precision_micro")),
            _pct(r.get("recall_micro")),
            _pct(r.get("f1_micro")),
            _pct(r.get("alignment")),
        ]
        for label, r in zip(labels, rows, strict=True)
    ]
    parts = [f"# {title}", _md_table([condition_header, "Corr.", "Prec.", "Rec.", "F1.", "Align."], body)]
    if na:
        parts.append(
            _md_table(
                [
                    condition_header,
                    "[NA] sentences",
                    "[NA] precision",
                    "[NA] recall",
                    "[NA] F1",
                    "gap precision",
                    "gap recall",
                ],
                [
                    [
                        label,
                        r.get("n_na_sentences"),
                        _pct(r.get("na_precision")),
                        _pct(r.get("na_recall")),
                        _pct(r.get("na_f1")),
                        _pct(r.get("gap_precision")),
                        _pct(r.get("gap_recall")),
                    ]
                    for label, r in zip(labels, rows, strict=True)
                ],
            )
        )
    parts.append(f"![{plot}]({plot})")
    n = rows[0].get("n_answers") if rows else 0
    parts.append(f"{n} items per condition; scores in %.")
    return "\n\n".join(parts) + "\n"


def format_timings(timings: Mapping[str, float]) -> str:
    """``retrieve 12 ms · generate 840 ms``: a stage-by-stage line for the terminal."""
    return " · ".join(f"{k} {v * 1000:.0f} ms" for k, v in timings.items())
