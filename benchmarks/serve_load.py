"""`kgcite serve` under load: N different questions sent at once to /ask (the default local
model, response cache off), against the baseline of the same questions sent one at a time to a
second, identical server in the same run. Prints the latency distribution and the status codes.

    python benchmarks/serve_load.py [--n 50] [--max-batch 8] [-- extra serve options, e.g. --no-rewrite]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import Counter

import httpx

from kgcite.evaluate.records.report import format_table
from kgcite.kg.loaders import read_biokalma, shipped_biokalma
from kgcite.server.launch import served


def questions(n: int) -> list[str]:
    people = dict.fromkeys(
        it.graph.entities[0].label for p in shipped_biokalma() for it in read_biokalma(p) if it.graph.entities
    )
    return [f"Where was {name} born?" for name in list(people)[:n]]


async def _post(client: httpx.AsyncClient, url: str, q: str) -> tuple[int, float]:
    t0 = time.perf_counter()
    r = await client.post(f"{url}/ask", json={"question": q})
    return r.status_code, time.perf_counter() - t0


async def concurrent(url: str, qs: list[str]) -> list[tuple[int, float]]:
    async with httpx.AsyncClient(timeout=1800) as client:
        return await asyncio.gather(*(_post(client, url, q) for q in qs))


async def sequential(url: str, qs: list[str]) -> list[tuple[int, float]]:
    async with httpx.AsyncClient(timeout=1800) as client:
        return [await _post(client, url, q) for q in qs]


def row(name: str, results: list[tuple[int, float]], wall: float, batches: int) -> tuple[str, ...]:
    lat = sorted(s for _, s in results)
    dec = statistics.quantiles(lat, n=10)
    codes = ", ".join(f"{c}×{k}" for c, k in sorted(Counter(c for c, _ in results).items()))
    return (
        name,
        f"{wall:.1f}",
        f"{len(results) / wall:.2f}",
        f"{dec[0]:.2f}",
        f"{statistics.median(lat):.2f}",
        f"{dec[8]:.2f}",
        f"{lat[-1]:.2f}",
        str(batches),
        codes,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--max-batch", type=int, default=8)
    ap.add_argument("serve_args", nargs="*", help="extra `kgcite serve` options (after --)")
    ap.add_argument("--quick", action="store_true", help="5 requests: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.n = 5
    qs = questions(args.n)
    rows = []
    for name, run in (("one at a time (baseline)", sequential), (f"{args.n} at once", concurrent)):
        with served(["--no-cache", "--max-batch", str(args.max_batch), *args.serve_args]) as url:
            t0 = time.perf_counter()
            results = asyncio.run(run(url, qs))
            wall = time.perf_counter() - t0
            rows.append(row(name, results, wall, httpx.get(f"{url}/health").json()["batches"]))
    print(
        f"POST /ask, {args.n} questions, SmolLM2 via embedded llama.cpp, response cache off, max batch {args.max_batch}"
    )
    print(
        format_table(
            ["requests", "wall s", "answers/s", "p10 s", "p50 s", "p90 s", "max s", "model batches", "status"], rows
        )
    )


if __name__ == "__main__":
    main()
