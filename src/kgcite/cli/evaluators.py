"""``kgcite evaluate-evaluator``: score an attribution evaluator on a CAQA-style benchmark."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kgcite.cli.common import json_option, llm_options, nli_option, positive_int
from kgcite.errors import InputError, UsageError


def _evaluator(spec: str, args: argparse.Namespace, shots: list[dict[str, Any]]) -> Any:
    from kgcite.evaluate.judges.evaluators import LLMEvaluator, NLIEvaluator
    from kgcite.models.evaluator import AttributionItem, load_evaluator

    if spec == "trained" or spec.startswith("trained:"):
        return load_evaluator(spec.partition(":")[2] or None)
    if spec == "struct" or spec.startswith("struct:"):
        from kgcite.evaluate.judges.structured import load_structured

        try:
            return load_structured(spec.partition(":")[2] or None)
        except FileNotFoundError as exc:
            raise UsageError.of("--evaluator", str(exc)) from exc
    if spec == "nli":
        from kgcite.models.nli import load_nli

        return NLIEvaluator(load_nli(args.nli))
    if spec in ("llm-zero", "llm-few"):
        from kgcite.cli.common import runtime_from_args

        examples = [(AttributionItem.of(r), r["category"]) for r in shots]
        return LLMEvaluator(runtime_from_args(args).llm, examples if spec == "llm-few" else ())
    raise UsageError.of(
        "--evaluator",
        f"{spec!r}: choose struct, struct:DIR, struct:rules, nli, llm-zero, llm-few, trained or trained:DIR",
    )


def cmd_evaluate_evaluator(args: argparse.Namespace) -> int:
    from kgcite.bench.caqa_files import settle
    from kgcite.evaluate.metrics.attribution import CATEGORIES
    from kgcite.evaluate.records.judgements import factscore, judge_split, report_json, report_table, write_report
    from kgcite.train.evaluator import read_bench

    settle(Path(args.bench).parent)
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
    report = judge_split(evaluator, rows, out, batch_size=args.batch_size)
    report["factscore"] = factscore(evaluator, rows, everything, args.factscore) if args.factscore else None
    if out is not None:
        write_report(out, report)
    print(report_json(report, indent=None) if args.json else report_table(report))
    return 0


def cmd_attribution(args: argparse.Namespace) -> int:
    """One judgement, with what the evaluator read and what decided."""
    import json

    from kgcite.models.evaluator import AttributionItem

    evaluator = _evaluator(args.evaluator, args, [])
    item = AttributionItem(args.question, args.answer, args.evidence)
    (j,) = evaluator.judge([item])
    if args.json:
        print(json.dumps({"category": j.category, "scores": j.scores, "why": j.why}, ensure_ascii=False))
        return 0
    print(j.category.replace("_", " "))
    if j.why:
        print(f"  rules: {str(j.why.get('rule', '')).replace('_', ' ')} — {j.why.get('reason', '')}")
        for k, fact in enumerate(j.why.get("facts", []), 1):
            parts = [f"{role}: {', '.join(fact[role])}" for role in ("topics", "answers", "other names") if fact[role]]
            print(f"  [{k}] {fact['sentence']}  ({'; '.join(parts) or 'no names read'})")
        if "decided by" in j.why:
            strongest = ", ".join(f"{name} ({w:+.2f})" for name, w in j.why.get("strongest features", []))
            print(f"  decided by {j.why['decided by']}" + (f"; strongest features: {strongest}" if strongest else ""))
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    a = sub.add_parser(
        "attribution",
        help="does this evidence support this answer? supportive, partially supportive, contradictory or irrelevant",
        description="Judge one (question, answer, evidence) as CAQA's categories, and say why: the facts read from "
        "each evidence sentence and the rule or feature that decided. Number evidence sentences [1] [2] … or "
        "give plain sentences.",
    )
    a.add_argument("question", help="the question (quote it)")
    a.add_argument("--answer", required=True, help="the answer statement")
    a.add_argument("--evidence", required=True, help="the cited evidence: '[1] … [2] …' or sentences")
    a.add_argument("--evaluator", default="struct", metavar="struct[:DIR]|trained[:DIR]|nli", help="default struct")
    nli_option(a, "with --evaluator nli, the NLI model")
    json_option(a, "the category, scores and explanation as one JSON object")
    a.set_defaults(func=cmd_attribution)

    p = sub.add_parser(
        "evaluate-evaluator",
        help="score an attribution evaluator (struct, trained, nli, llm-zero, llm-few) on a CAQA-style benchmark",
        description="Per-category F1, micro-F1 overall and per complexity, confusion matrix, FactScore on partially "
        "supportive samples. With --out: resumable (judgements.jsonl), report.md, metrics.json, confusion.png.",
    )
    p.add_argument("--bench", required=True, metavar="FILE.jsonl", help="a split written by `kgcite build caqa`")
    p.add_argument(
        "--evaluator",
        default="struct",
        metavar="struct[:DIR]|trained[:DIR]|nli|llm-zero|llm-few",
        help="struct (default): reads the evidence as facts and reasons over them, any graph (struct:rules: the "
        "rules alone); trained: the shipped 4-way text model (or an export folder); nli: AutoIS-style; "
        "llm-zero/llm-few: CAQA's prompts",
    )
    p.add_argument("--limit", type=positive_int, help="only the first N samples")
    p.add_argument("--batch-size", type=positive_int, default=32, help="samples judged per batch (default 32)")
    p.add_argument(
        "--factscore",
        type=int,
        default=200,
        metavar="N",
        help="partially supportive samples for FactScore (0: skip; default 200)",
    )
    nli_option(p, "with --evaluator nli, the NLI model")
    json_option(p, "the report as one JSON object")
    p.add_argument("--out", metavar="DIR", help="resumable: judgements.jsonl, report.md, metrics.json, confusion.png")
    llm_options(p)
    p.set_defaults(func=cmd_evaluate_evaluator)
