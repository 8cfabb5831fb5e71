"""Scoring an attribution evaluator on a CAQA-style split, resumably (``kgcite evaluate-evaluator``).

Each batch's judgements are appended to ``judgements.jsonl`` and synced before the next batch,
so a stopped run loses at most one batch and a rerun judges only what is missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from kgcite.evaluate.judges.evaluators import AttributionEvaluator, judge_rows
from kgcite.evaluate.metrics.attribution import evaluator_report, factscore_error
from kgcite.evaluate.records.report import format_table
from kgcite.jsonl import appending
from kgcite.models.evaluator import AttributionItem
from kgcite.schema import EvaluatorReport

Row = Mapping[str, Any]


def judge_split(
    evaluator: AttributionEvaluator, rows: Sequence[Row], out: Path | None = None, *, batch_size: int = 32
) -> dict[str, Any]:
    """Every row judged (each needs an ``id``), then :func:`evaluator_report` with ``evaluator``
    and ``samples_per_s`` (of the samples judged in this run) added. With ``out``, judgements made
    earlier by the same evaluator of the same sample (:func:`sample_key`: another benchmark's
    sample of that id is judged afresh) are read back instead of judged again."""
    done: dict[str, str] = {}
    keys = {str(r["id"]): sample_key(r) for r in rows}
    with ExitStack() as stack:
        fh: IO[str] | None = None
        if out is not None:
            earlier, fh = stack.enter_context(appending(out / "judgements.jsonl", "evaluator"))
            done = {
                str(o["id"]): str(o.get("category"))
                for o in earlier
                if o.get("evaluator") == evaluator.name and o.get("sample") == keys.get(str(o["id"]))
            }
        todo = [r for r in rows if r["id"] not in done]
        bar = stack.enter_context(
            tqdm(
                total=len(rows),
                initial=len(rows) - len(todo),
                desc=f"judge {evaluator.name}",
                unit=" sample",
                disable=None,
            )
        )
        t0 = time.perf_counter()
        for b in range(0, len(todo), batch_size):
            batch = todo[b : b + batch_size]
            judged = evaluator.judge([AttributionItem.of(r) for r in batch])
            for r, j in zip(batch, judged, strict=True):
                done[r["id"]] = j.category
            if fh is not None:
                fh.writelines(
                    json.dumps(
                        {
                            "id": r["id"],
                            "evaluator": evaluator.name,
                            "sample": keys[str(r["id"])],
                            "category": j.category,
                            "scores": j.scores,
                        }
                        | ({"why": j.why} if j.why is not None else {})
                    )
                    + "\n"
                    for r, j in zip(batch, judged, strict=True)
                )
                fh.flush()
                os.fsync(fh.fileno())
            bar.update(len(batch))
        seconds = time.perf_counter() - t0
    report = evaluator_report(rows, [done[r["id"]] for r in rows])
    report["evaluator"] = evaluator.name
    report["samples_per_s"] = len(todo) / seconds if todo and seconds > 0 else None
    return report


def sample_key(row: Row) -> str:
    """A short digest of a sample's whole content: what makes an earlier judgement reusable."""
    text = json.dumps(row, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def report_json(report: Mapping[str, Any], indent: int | None = 1) -> str:
    """The report as ``metrics.json`` holds it (checked against :class:`EvaluatorReport`)."""
    return EvaluatorReport.model_validate(report).model_dump_json(indent=indent)


def factscore(
    evaluator: AttributionEvaluator, rows: Sequence[Row], everything: Sequence[Row], limit: int
) -> dict[str, Any]:
    """Each sub-fact of the answer (a sentence of the supportive citation) judged on its own
    against the partially supportive evidence; compared with the generator's known share."""
    supportive = {r.get("source"): r for r in everything if r["category"] == "supportive"}
    partial = [r for r in rows if r["category"] == "partially_supportive" and r.get("source") in supportive][:limit]
    predicted, known = [], []
    for r in partial:
        facts = supportive[r["source"]].get("citations") or [supportive[r["source"]]["citation"]]
        judged, _ = judge_rows(evaluator, [{**r, "answer_statement": fact} for fact in facts])
        predicted.append(sum(c == "supportive" for c in judged) / len(facts))
        known.append(r["n_supported_subfacts"] / max(1, r["n_subfacts"]))
    return factscore_error(predicted, known)


def report_table(report: Mapping[str, Any]) -> str:
    """The report as a two-column table a reader scans: F1 per category and complexity, FactScore, speed."""

    def f(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}"

    rows = [("overall micro-F1", f(report["overall_micro_f1"]))]
    rows += [(f"F1 {k}", f(v)) for k, v in report["f1"].items()]
    rows += [(f"micro-F1 {k}", f(v)) for k, v in report["complexity_micro_f1"].items()]
    if report.get("factscore"):
        fs = report["factscore"]
        rows += [
            ("FactScore (evaluator / known)", f"{fs['factscore']:.3f} / {fs['known']:.3f}"),
            ("FactScore error rate", f"{fs['error_rate']:.3f}"),
        ]
    if report.get("samples_per_s"):
        rows.append(("samples/s", f"{report['samples_per_s']:.1f}"))
    return f"{report['evaluator']} on {report['n']:,} samples\n" + format_table(["measure", "value"], rows)


def write_report(out: Path, report: Mapping[str, Any]) -> None:
    """``metrics.json``, ``report.md`` and ``confusion.png`` beside ``judgements.jsonl``."""
    from kgcite.evaluate.records.plots import confusion_chart

    confusion_chart(
        report["labels"],
        report["confusion"],
        f"{report['evaluator']}: confusion",
        out / "confusion.png",
        predicted=report["predicted_labels"],
    )
    (out / "metrics.json").write_text(report_json(report) + "\n")
    (out / "report.md").write_text(
        f"# Attribution evaluator\n\n```\n{report_table(report)}\n```\n\n![confusion](confusion.png)\n"
    )
