"""`kgcite serve` under load: N different questions sent at once to /ask (the default local
model, response cache off), against the baseline of the same questions sent one at a time to a
second, identical server in the same run. Prints the latency distribution and the status codes.

With ``--faults``: the service under attack instead. While ``/health`` is polled four times a
second, and questions are asked one after another (the baseline: the same questions on the quiet
server first): an idle-connection storm (20,000 connections that send nothing, from two client
processes), 200 connections dripping their headers, a question about an entity with 50,000
relations, and 200 concurrent askers for 60 s. Reports /health's worst latency, the asks' codes
and worst latency, the server's RSS before and after, and the size of its log.

    python benchmarks/serve_load.py [--n 50] [--max-batch 8] [-- extra serve options, e.g. --no-rewrite]
    python benchmarks/serve_load.py --faults [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

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


# -- faults ---------------------------------------------------------------------------------------


def _rss_mb(proc: subprocess.Popen[str]) -> float:
    for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _hold_idle(port: int, n: int, seconds: float) -> tuple[int, int]:
    """Open ``n`` connections that send nothing, hold them ``seconds``; (opened, closed by the server)."""
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
            socks.append(s)
        except OSError:
            s.close()
    time.sleep(seconds)
    closed = 0
    for s in socks:
        s.setblocking(False)
        try:
            closed += s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    return len(socks), closed


async def _drip(port: int, seconds: float) -> bool:
    """A request whose headers arrive a byte a second; True when the server closed it in time."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    t0 = time.monotonic()
    try:
        for byte in b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"y" * 1000:
            if time.monotonic() - t0 > seconds:
                return False
            writer.write(bytes([byte]))
            await writer.drain()
            if reader.at_eof():
                return True
            try:
                if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                    return True
            except TimeoutError:
                pass
    except (ConnectionError, OSError):
        return True
    finally:
        writer.close()
    return False


def _watch(url: str, questions: list[str], stop: Any, out: Any) -> None:
    """In its own process (a client busy with the fault must not delay the measure): /health four
    times a second, and questions asked one after another, until ``stop`` is set."""
    health: list[tuple[float, int]] = []
    asks: list[tuple[float, int]] = []

    def poll() -> None:
        with httpx.Client(timeout=30) as client:
            while not stop.is_set():
                t0 = time.perf_counter()
                try:
                    code = client.get(f"{url}/health").status_code
                except httpx.HTTPError:
                    code = 0
                health.append((time.perf_counter() - t0, code))
                time.sleep(0.25)

    def ask() -> None:
        with httpx.Client(timeout=180) as client:
            k = 0
            while not stop.is_set():
                t0 = time.perf_counter()
                try:
                    code = client.post(f"{url}/ask", json={"question": questions[k % len(questions)]}).status_code
                except httpx.HTTPError:
                    code = 0
                asks.append((time.perf_counter() - t0, code))
                k += 1

    threads = [threading.Thread(target=poll), threading.Thread(target=ask)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put((health, asks))


class Watch:
    """/health and asks measured by another process (:func:`_watch`) while a fault runs."""

    def __init__(self, url: str, questions: list[str]) -> None:
        self.url, self.questions = url, questions
        self.health: list[tuple[float, int]] = []
        self.asks: list[tuple[float, int]] = []

    async def during(self, fault: Callable[[], Awaitable[str]]) -> str:
        ctx = multiprocessing.get_context("spawn")
        stop, out = ctx.Event(), ctx.Queue()
        watcher = ctx.Process(target=_watch, args=(self.url, self.questions, stop, out))
        watcher.start()
        try:
            return await fault()
        finally:
            stop.set()
            self.health, self.asks = out.get(timeout=300)
            watcher.join()

    def row(self, name: str, outcome: str) -> tuple[str, ...]:
        def codes(xs: list[tuple[float, int]]) -> str:
            return ", ".join(f"{c}×{k}" for c, k in sorted(Counter(c for _, c in xs).items()))

        return (
            name,
            f"{max((t for t, _ in self.health), default=0):.2f}",
            codes(self.health),
            f"{max((t for t, _ in self.asks), default=0):.2f}",
            codes(self.asks),
            outcome,
        )


def _wide_graph(folder: Path, relations: int) -> Path:
    graph = folder / "wide.tsv"
    rows = ["Wide\tfounder\tAda Stone", "Ada Stone\tborn in\tPortlow"]
    rows += [f"Wide\tproperty {i}\tvalue {i}" for i in range(relations)]
    graph.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return graph


def faults(quick: bool) -> None:
    idle, drips, relations, askers, seconds, hold = (
        (1_000, 10, 500, 20, 3, 11.0) if quick else (20_000, 200, 50_000, 200, 60, 15.0)
    )
    qs = questions(50)
    rows: list[tuple[str, ...]] = []
    log: list[str] = []
    procs: list[subprocess.Popen[str]] = []
    with served(["--no-cache"], output=log, processes=procs) as url:
        port = int(url.rsplit(":", 1)[1])
        for q in qs:  # warm: every question once, so that the caches hold what the load asks
            httpx.post(f"{url}/ask", json={"question": q}, timeout=180)
        rss0 = _rss_mb(procs[0])

        async def quiet() -> str:
            await asyncio.sleep(2)
            return "nothing"

        async def storm() -> str:
            per = idle // 2
            loop = asyncio.get_running_loop()
            with multiprocessing.get_context("spawn").Pool(2) as pool:
                results = await loop.run_in_executor(None, lambda: pool.starmap(_hold_idle, [(port, per, hold)] * 2))
            opened, closed = sum(r[0] for r in results), sum(r[1] for r in results)
            return f"{opened:,} idle connections opened, {closed:,} closed by the server within {hold:.0f} s"

        async def drip() -> str:
            closed = await asyncio.gather(*(_drip(port, hold) for _ in range(drips)))
            return f"{sum(closed)} of {drips} header drips closed by the server"

        async def crowd() -> str:
            codes: Counter[int] = Counter()
            end = time.monotonic() + seconds

            async def asker(k: int) -> None:
                async with httpx.AsyncClient(timeout=180) as client:
                    while time.monotonic() < end:
                        try:
                            r = await client.post(f"{url}/ask", json={"question": qs[k % len(qs)]})
                            codes[r.status_code] += 1
                        except httpx.HTTPError:
                            codes[0] += 1

            await asyncio.gather(*(asker(k) for k in range(askers)))
            return f"{askers} askers: " + ", ".join(f"{c}×{n}" for c, n in sorted(codes.items()))

        for name, fault in (
            ("quiet (baseline)", quiet),
            (f"{idle:,} idle connections", storm),
            (f"{drips} header drips", drip),
            (f"{askers} concurrent askers, {seconds} s", crowd),
        ):
            watch = Watch(url, qs)
            rows.append(watch.row(name, asyncio.run(watch.during(fault))))
        time.sleep(5)
        rss1 = _rss_mb(procs[0])
    with (
        tempfile.TemporaryDirectory() as d,
        served(["--no-cache", "--kg", str(_wide_graph(Path(d), relations))]) as wide,
    ):
        question = "Where was the founder of Wide born?"

        async def wide_entity() -> str:
            async with httpx.AsyncClient(timeout=300) as client:
                t0 = time.perf_counter()
                r = await client.post(f"{wide}/ask", json={"question": question})
                answer = r.json().get("answer", "") if r.status_code == 200 else r.text[:80]
                return f"{r.status_code} in {time.perf_counter() - t0:.1f} s: {answer[:60]}"

        watch = Watch(wide, ["Who founded Wide?"])
        rows.append(watch.row(f"an entity with {relations:,} relations", asyncio.run(watch.during(wide_entity))))
    size = sum(len(o.encode()) for o in log)
    print("kgcite serve under faults (shipped BioKaLMA graph; the wide entity on its own graph)")
    print(format_table(["fault", "/health max s", "/health codes", "ask max s", "ask codes", "outcome"], rows))
    print(
        f"RSS {rss0:.0f} MB after warm-up, {rss1:.0f} MB 5 s after the faults ({(rss1 / rss0 - 1) * 100:+.1f}%); log {size / 1024:.1f} KB"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--max-batch", type=int, default=8)
    ap.add_argument("serve_args", nargs="*", help="extra `kgcite serve` options (after --)")
    ap.add_argument("--quick", action="store_true", help="5 requests (with --faults: smaller faults): a smoke run")
    ap.add_argument("--faults", action="store_true", help="the service under attack (module docstring)")
    args = ap.parse_args()
    if args.faults:
        faults(args.quick)
        return
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
