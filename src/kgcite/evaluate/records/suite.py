"""``kgcite eval all``: citations, alignment, ``[NA]`` and text quality of an answer file, resumable.

Citation scores are cheap and recomputed each time; the model-judged parts (alignment, ``[NA]``,
G-Eval) of each answer are appended to ``per_answer.jsonl`` in the output folder as batches
finish, keyed by the answer's id and text, so an interrupted evaluation resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kgcite.errors import InputError
from kgcite.evaluate.judges.quality import GEval, QualityItem, mean_scores
from kgcite.evaluate.metrics.alignment import AttributionScorer, alignment_report, gap_report, gaps_of, na_report
from kgcite.evaluate.metrics.citation import PrecisionUnit
from kgcite.evaluate.records.answer_file import AnswerRecord
from kgcite.evaluate.records.report import citation_report, latest_records
from kgcite.generate.prompts import format_knowledge
from kgcite.jsonl import appending


def _fingerprint(rec: AnswerRecord, judge: str) -> str:
    """What a judged row depends on: the answer, its absent set, and the judge that read it."""
    absent = json.dumps(rec.absent) if rec.absent is not None else ""
    return hashlib.sha256(f"{rec.answer}\n{absent}\n{judge}".encode()).hexdigest()[:16]


@dataclass
class FullEvaluation:
    scorer: AttributionScorer
    geval: GEval | None = None
    unit: PrecisionUnit = "citation"
    batch_size: int = 64

    def judge_batch(self, records: Sequence[AnswerRecord]) -> list[dict[str, Any]]:
        """The model-judged results of some answers, one JSON-ready row each."""
        parsed = [r.parsed() for r in records]
        aligned = self.scorer.alignment_judgments(parsed, [r.graph for r in records])
        with_absent = [i for i, r in enumerate(records) if r.absent is not None]
        subset = (
            [parsed[i] for i in with_absent],
            [records[i].absent or () for i in with_absent],
            [records[i].graph for i in with_absent],
        )
        na, gaps = self.scorer.na_matrices(*subset), self.scorer.gap_matrices(*subset)
        na_of = dict(zip(with_absent, zip(na, gaps, strict=True), strict=True))
        quality: list[dict[str, float | None]] = [{} for _ in records]
        if self.geval is not None:
            items = [
                QualityItem(r.question, p.format(), format_knowledge(r.graph))
                for r, p in zip(records, parsed, strict=True)
            ]
            quality = self.geval.score(items)
        rows = []
        for i, rec in enumerate(records):
            row: dict[str, Any] = {
                "id": rec.id,
                "fingerprint": _fingerprint(rec, self.scorer.judge.name),
                "alignment": aligned[i],
                "quality": quality[i],
            }
            if i in na_of:
                row["na"], row["gaps"] = na_of[i]
                row["n_absent"] = len(rec.absent or ())
                row["n_gaps"] = len(gaps_of(rec.absent or ()))
            rows.append(row)
        return rows

    def run(
        self,
        records: Iterable[AnswerRecord | InputError],
        out_dir: Path | None = None,
        on_progress: Callable[[int], None] | None = None,
    ) -> tuple[dict[str, Any], list[InputError]]:
        kept, skipped = latest_records(records)
        report, _ = citation_report(kept, self.unit)
        scored = [r for r in kept if r.status == "ok"]
        with ExitStack() as stack:
            fh: IO[str] | None = None
            rows: dict[str, dict[str, Any]] = {}
            if out_dir is not None:
                earlier, fh = stack.enter_context(appending(out_dir / "per_answer.jsonl", "fingerprint"))
                rows = {str(row["id"]): row for row in earlier}  # the last row of an id wins
            todo = [
                r
                for r in scored
                if rows.get(r.id, {}).get("fingerprint") != _fingerprint(r, self.scorer.judge.name)
                or (self.geval and not rows[r.id]["quality"])
            ]
            if on_progress:
                on_progress(len(scored) - len(todo))
            for i in range(0, len(todo), self.batch_size):
                batch = todo[i : i + self.batch_size]
                for row in self.judge_batch(batch):
                    rows[row["id"]] = row
                    if fh is not None:
                        fh.write(json.dumps(row) + "\n")
                if fh is not None:
                    fh.flush()
                    os.fsync(fh.fileno())
                if on_progress:
                    on_progress(len(batch))
        final = [rows[r.id] for r in scored]
        metrics: dict[str, Any] = dict(report.to_dict()) | {"n_skipped": len(skipped)}
        align = alignment_report([r["alignment"] for r in final])
        metrics |= {
            "alignment": align.alignment,
            "macro_alignment": align.macro_alignment,
            "n_alignment_pairs": align.n_pairs,
        }
        na_rows = [r for r in final if "na" in r]
        if na_rows:
            na = na_report([r["na"] for r in na_rows], [r["n_absent"] for r in na_rows])
            metrics |= {k: v for k, v in na.to_dict().items()}
            gap_rows = [r for r in na_rows if "gaps" in r]  # rows judged before gap scores existed have none
            if gap_rows:
                metrics |= gap_report([r["gaps"] for r in gap_rows], [r["n_gaps"] for r in gap_rows]).to_dict()
        if self.geval is not None:
            metrics |= {f"quality_{k}": v for k, v in mean_scores([r["quality"] for r in final]).items()}
        metrics["judge"] = self.scorer.judge.name
        metrics["quality_judge"] = self.geval.llm.name if self.geval is not None else None
        return metrics, skipped
