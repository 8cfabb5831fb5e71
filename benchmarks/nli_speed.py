"""Throughput of the shipped NLI model: pairs per second at batch 32, inputs padded to 128 tokens,
2 threads, no cache hits. Baseline in the same run: batch 1.

    python benchmarks/nli_speed.py [--n 640]
"""

from __future__ import annotations

import argparse
import time

from kgcite.evaluate.records.report import format_table
from kgcite.models.nli import OnnxNLI


def pairs(n: int, salt: str) -> tuple[list[str], list[str]]:
    # ~60-word premises: with the hypothesis and special tokens the input is ~128 tokens
    body = (
        "Stephen Crane was an American poet, novelist and short story writer who was born in Newark, New Jersey, "
        "studied at Syracuse University, played baseball for the university team, and wrote The Red Badge of "
        "Courage, a novel about the American Civil War that made him famous before he died in Badenweiler of "
        "tuberculosis at the age of twenty-eight, after years spent as a war correspondent in Cuba and Greece and as "
        "a journalist in New York City, where he wrote about the poor, the immigrants and the street life of the Bowery "
        "that shaped his first novel, Maggie "
    )
    return [f"{body}{salt} {i}." for i in range(n)], [f"place of birth: Newark {i}" for i in range(n)]


def rate(model: OnnxNLI, n: int, batch: int, salt: str) -> tuple[float, int]:
    model.batch_size = batch
    prem, hyp = pairs(n, salt)
    tokens = model.token_count(prem[0], hyp[0])
    t0 = time.perf_counter()
    model.predict(prem, hyp)
    return n / (time.perf_counter() - t0), tokens


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=640)
    ap.add_argument("--quick", action="store_true", help="64 pairs: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.n = 64
    model = OnnxNLI(threads=2).load()
    rate(model, 32, 32, "warm-up")
    rows = []
    for batch, salt in ((32, "a"), (1, "b")):
        n = args.n if batch > 1 else max(64, args.n // 5)
        r, tokens = rate(model, n, batch, salt)
        rows.append((f"batch {batch}" + (" (baseline)" if batch == 1 else ""), n, tokens, f"{r:.1f}"))
    print(format_table(["setting", "pairs", "tokens/pair", "pairs/s"], rows))
    print("\ntarget: >= 40 pairs/s at batch 32 (128 tokens) on 2 cores")


if __name__ == "__main__":
    main()
