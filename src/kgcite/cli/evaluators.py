"""``kgcite evaluate-evaluator``: score an attribution evaluator on a CAQA-style benchmark."""

from __future__ import annotations

import argparse
import json
import os
import time
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

from kgcite.cli.common import llm_options
from kgcite.kg import InputError


def _evaluator(spec: str, args: argparse.Namespace, shots: list[dict[str, Any]]) -> Any:
    from kgcite.evaluate.judges.evaluators import LLMEvaluator, NLIEvaluator
    from kgcite.models.evaluator import AttributionItem, load_evaluator

    if spec == "trained" or spec.startswith("trained:"):
        return load_evaluator(spec.partition(":")[2] or None)
    if spec == "nli":
        from kgcite.models.nli import load_nli

        return NLIEvaluator(load_nli(args.nli))
    if spec in ("llm-zero", "llm-few"):
        from kgcite.cli.common import runtime_from_args

        examples = [
            (AttributionItem(r["question"], r["answer_statement"], r["citation"]), r["category"]) for r in shots
        ]
        return LLMEvaluator(runtime_from_args(args).llm, examples if spec == "llm-few" else ())
    raise InputError("--evaluator", None, None, f"{spec!r}: choose nli, llm-zero, llm-few, trained or trained:DIR")


def cmd_evaluate_evaluator(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from kgcite.bench.caqa import CATEGORIES
    from kgcite.evaluate.metrics.attribution import evaluator_report
    from kgcite.jsonl import appending
    from kgcite.models.evaluator import AttributionItem
    from kgcite.train.evaluator import read_bench

    if not Path(args.bench).exists():
        raise InputError(args.bench, None, None, "no such benchmark file")
    everything = read_bench(args.bench)
    if not everything:
        raise InputError(args.bench, None, None, "has no samples (a small graph may leave a split empty)")
    rows = list(everything)
    shots = [
        next(r for r in reversed(rows) if r["category"] == c)
        for c in CATEGORIES
        if any(r["category"] == c for r in rows)
    ]
    shot_ids = {r.get("id") for r in shots}
    rows = [r for r in rows if not (args.evaluator == "llm-few" and r.get("id") in shot_ids)]
    if args.limit:
        rows = rows[: args.limit]
    for i, r in enumerate(rows):
        r.setdefault("id", f"row{i}")
    evaluator = _evaluator(args.evaluator, args, shots)
    out = Path(args.out) if args.out else None
    done: dict[str, str] = {}
    stack = ExitStack()
    fh: IO[str] | None = None
    if out is not None:
        earlier, fh = stack.enter_context(appending(out / "judgements.jsonl"))
        done = {str(o["id"]): str(o.get("category")) for o in earlier if o.get("evaluator") == evaluator.name}
    todo = [r for r in rows if r["id"] not in done]
    t0 = time.perf_counter()
    bar = tqdm(
        total=len(rows), initial=len(rows) - len(todo), desc=f"judge {evaluator.name}", unit=" sample", disable=None
    )
    try:
        for b in range(0, len(todo), args.batch_size):
            batch = todo[b : b + args.batch_size]
            judged = evaluator.judge(
                [AttributionItem(r["question"], r["answer_statement"], r["citation"]) for r in batch]
            )
            for r, j in zip(batch, judged, strict=True):
                done[r["id"]] = j.category
                if fh is not None:
                    fh.write(
                        json.dumps(
                            {"id": r["id"], "evaluator": evaluator.name, "category": j.category, "scores": j.scores}
                        )
                        + "\n"
                    )
            if fh is not None:
                fh.flush()
                os.fsync(fh.fileno())
            bar.update(len(batch))
    finally:
        bar.close()
        stack.close()
    seconds = time.perf_counter() - t0
    report = evaluator_report(rows, [done[r["id"]] for r in rows])
    report["evaluator"] = evaluator.name
    report["samples_per_s"] = len(todo) / seconds if todo and seconds > 0 else None
    report["factscore"] = _factscore(evaluator, rows, everything, args.factscore) if args.factscore else None
    if out is not None:
        _write_report(out, report)
    if args.json:
        print(json.dumps(report))
    else:
        print(_table(report))
    return 0


def _factscore(
    evaluator: Any, rows: list[dict[str, Any]], everything: list[dict[str, Any]], limit: int
) -> dict[str, Any]:
    """Each sub-fact of the answer (a sentence of the supportive citation) judged on its own
    against the partially supportive evidence; compared with the generator's known share."""
    from kgcite.evaluate.metrics.attribution import factscore_error
    from kgcite.models.evaluator import AttributionItem

    supportive = {r.get("source"): r for r in everything if r["category"] == "supportive"}
    partial = [r for r in rows if r["category"] == "partially_supportive" and r.get("source") in supportive][:limit]
    predicted, known = [], []
    for r in partial:
        facts = supportive[r["source"]].get("citations") or [supportive[r["source"]]["citation"]]
        judged = evaluator.judge([AttributionItem(r["question"], fact, r["citation"]) for fact in facts])
        predicted.append(sum(j.category == "supportive" for j in judged) / len(facts))
        known.append(r["n_supported_subfacts"] / max(1, r["n_subfacts"]))
    return factscore_error(predicted, known)


def _table(report: dict[str, Any]) -> str:
    from kgcite.evaluate.records.report import format_table

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


def _write_report(out: Path, report: dict[str, Any]) -> None:
    from kgcite.evaluate.records.plots import confusion_chart

    confusion_chart(
        report["labels"],
        report["confusion"],
        f"{report['evaluator']}: confusion",
        out / "confusion.png",
        predicted=report["predicted_labels"],
    )
    (out / "metrics.json").write_text(json.dumps(report, indent=1) + "\n")
    (out / "report.md").write_text(
        f"# Attribution evaluator\n\n```\n{_table(report)}\n```\n\n![confusion](confusion.png)\n"
    )


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "evaluate-evaluator",
        help="score an attribution evaluator (nli, llm-zero, llm-few, trained) on a CAQA-style benchmark",
        description="Per-category F1, micro-F1 overall and per complexity, confusion matrix, FactScore on partially "
        "supportive samples. With --out: resumable (judgements.jsonl), report.md, metrics.json, confusion.png.",
    )
    p.add_argument("--bench", required=True, metavar="FILE.jsonl", help="a split written by `kgcite build caqa`")
    p.add_argument(
        "--evaluator",
        required=True,
        metavar="nli|llm-zero|llm-few|trained[:DIR]",
        help="trained: the shipped 4-way model (or an export folder); nli: AutoIS-style; llm-zero/llm-few: CAQA's prompts",
    )
    p.add_argument("--limit", type=int, help="only the first N samples")
    p.add_argument("--batch-size", type=int, default=32, help="samples judged per batch (default 32)")
    p.add_argument(
        "--factscore",
        type=int,
        default=200,
        metavar="N",
        help="partially supportive samples for FactScore (0: skip; default 200)",
    )
    p.add_argument(
        "--nli", metavar="SPEC", help="with --evaluator nli: kgcite (default), hf:PATH, t5:PATH, an ONNX folder"
    )
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--out", metavar="DIR", help="resumable: judgements.jsonl, report.md, metrics.json, confusion.png")
    llm_options(p)
    p.set_defaults(func=cmd_evaluate_evaluator)
