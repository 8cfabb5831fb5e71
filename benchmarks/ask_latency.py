"""Latency of `kgcite ask` per stage, after models are loaded: p50 over 30 BioKaLMA questions.

Grounded mode with ``--rewrite`` (SmolLM2-135M, embedded llama.cpp, 2 threads), no response
cache; in the same run, the default ``ask``: grounded template text, no LLM call.

    python benchmarks/ask_latency.py [--n 30] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time

from kgcite.evaluate.records.report import format_table
from kgcite.generate.pipeline import AttributedAnswer
from kgcite.runs import dataset
from kgcite.runtime import Runtime, RuntimeConfig

STAGES = ("link", "retrieve", "plan", "paths", "generate", "verify")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="3 questions: a smoke run, not the reported numbers")
    args = ap.parse_args()
    if args.quick:
        args.n = 3
    questions = [it.question for it in dataset("biokalma:specific")[: args.n]]
    t0 = time.perf_counter()
    runtime = Runtime(RuntimeConfig(cache=None, rewrite=True))
    generators = {"grounded --rewrite (SmolLM2)": runtime.generator("grounded")}
    runtime.generator("grounded").answer("Who was Stephen Crane's father?")  # load everything once
    load_s = time.perf_counter() - t0
    generators["grounded, template (default ask)"] = Runtime(
        RuntimeConfig(cache=None, rewrite=False), store=runtime.kg
    ).generator("grounded")
    rows = []
    for name, gen in generators.items():
        stage: dict[str, list[float]] = {s: [] for s in STAGES}
        total, kept = [], 0
        for q in questions:
            t = time.perf_counter()
            a = gen.answer(q)  # one question at a time, as `kgcite ask` does
            total.append(time.perf_counter() - t)
            assert isinstance(a, AttributedAnswer)
            kept += a.rewritten
            for s in STAGES:
                stage[s].append(a.timings.get(s, 0.0))
        p50 = {s: statistics.median(v) * 1000 for s, v in stage.items()}
        rows.append(
            (
                name,
                *(p50[s] for s in STAGES),
                p50["link"] + p50["retrieve"],
                statistics.median(total) * 1000,
                statistics.quantiles(total, n=20)[-1] * 1000,
                f"{kept}/{len(questions)}",
            )
        )
    print(f"models loaded in {load_s:.1f} s (BioKaLMA store, spaCy, MiniLM ONNX, llama.cpp)\n")
    print(
        format_table(
            ["pipeline", *[f"{s} ms" for s in STAGES], "link+retrieve ms", "ask p50 ms", "ask p95 ms", "rewrites kept"],
            rows,
        )
    )


if __name__ == "__main__":
    main()
