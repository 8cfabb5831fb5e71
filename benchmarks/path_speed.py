"""Time per question of the graph search, with and without the graph's chains prepared.

The grounding bi-encoder reads each relation chain as a text that depends only on the chain,
never on the question's topic, so ``kgcite kg load`` encodes them once for the graph
(``PathReasoner.prepare``) into the vector cache. In the same run, for each graph of
``benchmarks/data/kgqa`` (the answer pipeline of ``kgqa.py``, the shipped grounding model, one
question at a time after one warm-up question):

- ``cold`` (baseline): a new process meeting each chain for the first time, as before;
- ``prepared``: the same after ``prepare()``; its seconds and chain count are the load's cost.

``same answers`` compares the two runs' answer texts question by question (a prepared vector
is the vector the model gives: the answers must not change).

    python benchmarks/path_speed.py [--graphs NAME ...] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from kgcite.cli.common import open_kg
from kgcite.evaluate.records.report import format_table
from kgcite.runs import dataset_file
from kgcite.runtime import Runtime, RuntimeConfig

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kgqa  # the graphs and the answer pipeline of the accuracy benchmark


def run(name: str, prepared: bool) -> tuple[list[float], list[str], Any]:
    """Per-question ms and answer texts over one graph, in a fresh runtime."""
    store = open_kg(str(kgqa.DATA / f"{name}_graph.tsv"))
    items = dataset_file(kgqa.DATA / f"{name}_questions.jsonl")
    runtime = Runtime(RuntimeConfig(cache=None), store=store)
    generator = runtime.generator("grounded")
    paths = runtime.paths
    assert paths is not None
    done = paths.prepare() if prepared else None
    kgqa.path_rows(generator, items[:1])  # loads the models
    ms, texts = [], []
    for item in items[1:]:
        t0 = time.perf_counter()
        row = kgqa.path_rows(generator, [item])[0]
        ms.append((time.perf_counter() - t0) * 1000)
        texts.append(" ".join(s["text"] for s in row.get("sentences", [])))
    return ms, texts, done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graphs", nargs="+", default=kgqa.GRAPHS, metavar="NAME", help="graphs of benchmarks/data/kgqa")
    ap.add_argument("--quick", action="store_true", help="two small graphs: a smoke run, not the reported numbers")
    args = ap.parse_args()
    graphs = ["port", "lab"] if args.quick else args.graphs
    rows, cold_all, warm_all, chains, seconds = [], [], [], 0, 0.0
    for name in graphs:
        cold, cold_texts, _ = run(name, prepared=False)
        warm, warm_texts, done = run(name, prepared=True)
        cold_all += cold
        warm_all += warm
        chains, seconds = chains + done.chains, seconds + done.seconds
        same = sum(a == b for a, b in zip(cold_texts, warm_texts, strict=True))
        rows.append(
            (
                name,
                len(cold),
                round(statistics.median(cold)),
                done.chains,
                done.seconds,
                round(statistics.median(warm)),
                round(max(warm)),
                f"{same}/{len(cold)}",
            )
        )
        print(f"{name}: done", file=sys.stderr, flush=True)
    rows.append(
        (
            "all",
            len(cold_all),
            round(statistics.median(cold_all)),
            chains,
            seconds,
            round(statistics.median(warm_all)),
            round(max(warm_all)),
            "",
        )
    )
    headers = [
        "graph",
        "questions",
        "p50 ms, cold (baseline)",
        "chains",
        "prepare s",
        "p50 ms, prepared",
        "max ms, prepared",
        "same answers",
    ]
    print(format_table(headers, rows))
    print("\ntarget: p50 <= 50 ms per question after load")


if __name__ == "__main__":
    main()
