"""Wall time of the full evaluation (citations + alignment with the shipped NLI model) of 1,085
answers: grounded answers to every BioKaLMA specific question, made first (template mode, so
that there is an answer file to score; not timed). Baseline in the same run: citations only.

    python benchmarks/eval_speed.py [--answers FILE.jsonl]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kgcite.evaluate.metrics.alignment import AttributionScorer
from kgcite.evaluate.records.answer_file import read_records
from kgcite.evaluate.records.report import citation_report, format_table
from kgcite.evaluate.records.suite import FullEvaluation
from kgcite.judge.support import SupportJudge
from kgcite.models.nli import OnnxNLI


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--answers", help="an answer file (default: make one with kgcite run --no-rewrite)")
    ap.add_argument("--quick", action="store_true", help="20 answers: a smoke run")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kgcite-eval-speed-"))
    answers = Path(args.answers) if args.answers else tmp / "answers.jsonl"
    if not args.answers:
        print(f"making {'20' if args.quick else '1,085'} grounded answers (template mode)...", file=sys.stderr)
        subprocess.run(
            ["kgcite", "run", "--dataset", "biokalma:specific", "--out", str(answers), "--no-rewrite", "--no-cache"]
            + (["--limit", "20"] if args.quick else []),
            check=True,
            stdout=subprocess.DEVNULL,
        )
    t0 = time.perf_counter()
    report, _ = citation_report(read_records(answers))
    cit_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    nli = OnnxNLI().load()
    load_s = time.perf_counter() - t1
    rows: list[tuple[object, ...]] = [("citations only (baseline)", report.n_answers, "-", "-", f"{cit_s:.1f}")]
    for name, lexical in (
        ("citations + alignment (rules, then NLI)", True),
        ("citations + alignment (NLI on every pair)", False),
    ):
        nli = OnnxNLI().load()  # a fresh model: no cache carried over between rows
        judge = SupportJudge(nli, rules=lexical)
        t2 = time.perf_counter()
        metrics, _ = FullEvaluation(AttributionScorer(judge)).run(read_records(answers), tmp / name.replace(" ", "_"))
        rows.append(
            (
                name,
                metrics["n_answers"],
                metrics["n_alignment_pairs"],
                nli.misses,
                f"{time.perf_counter() - t2 + load_s:.1f}",
            )
        )
    print(format_table(["evaluation", "answers", "pairs", "pairs sent to NLI", "seconds"], rows))
    print(f"\nNLI model load {load_s:.1f} s (included in each row); target: <= 120 s on 2 cores")


if __name__ == "__main__":
    main()
