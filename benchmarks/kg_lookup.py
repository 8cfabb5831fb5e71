"""KG store speed on a generated graph: load time and one-hop lookup latency.

Compares, in one run on this machine: the embedded store's quad-pattern API, the same embedded
store answering through SPARQL (the baseline), and a real Oxigraph SPARQL server on 127.0.0.1.

    python benchmarks/kg_lookup.py                 # 1M triples, 1000 lookups per backend
    python benchmarks/kg_lookup.py --triples 100000 --lookups 200 --no-server
"""

from __future__ import annotations

import argparse
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
from pyoxigraph import RdfFormat

from kgcite.evaluate.records.report import format_table
from kgcite.kg import EmbeddedSparqlStore, EmbeddedStore, Entity, HttpSparqlStore, IriScheme, Triple
from kgcite.kg.rdf import entity_quads, triple_quads

RELATIONS = [f"literal relation {i}" for i in range(15)] + [f"entity relation {i}" for i in range(5)]


def generated_quads(n_entities: int, seed: int = 0) -> Iterator:  # type: ignore[type-arg]
    """20 triples per entity: 15 literal values, 5 links to other entities (so incoming edges exist)."""
    rng = random.Random(seed)
    scheme = IriScheme()
    for i in range(n_entities):
        eid = f"Q{i}"
        yield from entity_quads(Entity(eid, label(i)), scheme)
        for r, rel in enumerate(RELATIONS):
            if r < 15:
                yield from triple_quads(Triple(eid, label(i), rel, f"value {rng.randrange(10_000)}"), scheme)
            else:
                target = rng.randrange(n_entities)
                yield from triple_quads(Triple(eid, label(i), rel, label(target), f"Q{target}"), scheme)


def label(i: int) -> str:
    return f"Entity {i} {('Smith', 'Rossi', 'Müller', 'Tanaka')[i % 4]}"


def percentiles(samples: list[float]) -> tuple[float, float]:
    qs = statistics.quantiles(samples, n=100, method="inclusive")
    return qs[49], qs[94]


def timed(fn: Callable[[str], object], ids: list[str]) -> tuple[float, float]:
    for i in ids[:20]:  # warm caches and connections
        fn(i)
    samples = []
    for i in ids:
        t0 = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - t0) * 1000)
    return percentiles(samples)


def start_server(location: Path) -> tuple[subprocess.Popen[bytes], str]:
    exe = shutil.which("oxigraph")
    if exe is None:
        raise SystemExit("the oxigraph server is not installed (pip install oxigraph), or pass --no-server")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [exe, "serve-read-only", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/query"
    for _ in range(400):
        try:
            if httpx.post(url, data={"query": "ASK {}"}, timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("oxigraph server did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--triples", type=int, default=1_000_000, help="relation triples to generate (20 per entity)")
    ap.add_argument("--lookups", type=int, default=1000, help="random entities looked up per backend")
    ap.add_argument("--no-server", action="store_true", help="skip the SPARQL server")
    ap.add_argument("--quick", action="store_true", help="2,000 triples, 50 look-ups: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.triples, args.lookups = 2000, 50
    n_entities = max(1, args.triples // len(RELATIONS))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        store = EmbeddedStore(root / "embedded")
        t0 = time.perf_counter()
        store.add_quads(generated_quads(n_entities))
        load_s = time.perf_counter() - t0
        n_quads = len(store)
        print(
            f"graph: {n_entities:,} entities, {n_entities * len(RELATIONS):,} relation triples, "
            f"{n_quads:,} quads with labels and label keys"
        )
        print(f"embedded bulk load (on disk): {load_s:.1f} s ({n_quads / load_s:,.0f} quads/s)")

        rng = random.Random(1)
        ids = [f"Q{rng.randrange(n_entities)}" for _ in range(args.lookups)]
        memory = EmbeddedStore()
        t0 = time.perf_counter()
        memory.add_quads(generated_quads(n_entities))
        print(f"embedded bulk load (in memory): {time.perf_counter() - t0:.1f} s")
        sparql = EmbeddedSparqlStore(scheme=store.scheme)
        sparql.store = store.store  # same data, same process: only the query path differs
        rows: list[tuple[str, str, float, float]] = []
        for name, s in (
            ("embedded in memory, pattern API", memory),
            ("embedded on disk, pattern API", store),
            ("embedded on disk, SPARQL", sparql),
        ):
            rows.append((name, "outgoing", *timed(s.outgoing, ids)))
            rows.append((name, "one_hop (entity+out+in)", *timed(s.one_hop, ids)))
        labels = [store.entity(i).label for i in ids[:200]]  # type: ignore[union-attr]
        rows.append(
            ("embedded in memory, pattern API", "label lookup (exact)", *timed(memory.entities_by_label, labels))
        )
        rows.append(("embedded on disk, pattern API", "label lookup (exact)", *timed(store.entities_by_label, labels)))
        rows.append(("embedded on disk, SPARQL", "label lookup (exact)", *timed(sparql.entities_by_label, labels)))
        prefixes = [lab[: len(lab) - 2] for lab in labels]
        rows.append(
            (
                "embedded in memory, pattern API",
                "label lookup (prefix)",
                *timed(lambda t: memory.entities_by_label(t, prefix=True, limit=10), prefixes),
            )
        )
        rows.append(
            (
                "embedded on disk, SPARQL",
                "label lookup (prefix)",
                *timed(lambda t: sparql.entities_by_label(t, prefix=True, limit=10), prefixes),
            )
        )

        if not args.no_server:
            dump = root / "graph.nq"
            store.store.dump(str(dump), format=RdfFormat.N_QUADS)
            t0 = time.perf_counter()
            subprocess.run(
                [
                    shutil.which("oxigraph") or "oxigraph",
                    "load",
                    "--location",
                    str(root / "server"),
                    "--file",
                    str(dump),
                ],
                check=True,
                capture_output=True,
            )
            print(f"oxigraph server load (CLI, from N-Quads): {time.perf_counter() - t0:.1f} s")
            proc, url = start_server(root / "server")
            try:
                remote = HttpSparqlStore(url)
                rows.append(("SPARQL server (HTTP)", "outgoing", *timed(remote.outgoing, ids)))
                rows.append(("SPARQL server (HTTP)", "one_hop (entity+out+in)", *timed(remote.one_hop, ids)))
                rows.append(("SPARQL server (HTTP)", "label lookup (exact)", *timed(remote.entities_by_label, labels)))
                rows.append(
                    (
                        "SPARQL server (HTTP)",
                        "label lookup (prefix)",
                        *timed(lambda t: remote.entities_by_label(t, prefix=True, limit=10), prefixes),
                    )
                )
                remote.close()
            finally:
                proc.terminate()
                proc.wait()

        base = {op: p50 for name, op, p50, _ in rows if name == "embedded on disk, SPARQL"}
        table = [(name, op, p50, p95, base[op] / p50) for name, op, p50, p95 in rows]
        print()
        print(format_table(["backend", "operation", "p50 ms", "p95 ms", "speed-up vs embedded SPARQL"], table))
        print()
        for name, op, p50, _ in rows:
            if name.endswith("pattern API") and op == "outgoing":
                print(
                    f"{name}: one-hop (outgoing) p50 = {p50:.3f} ms; target <= 0.1 ms: {'met' if p50 <= 0.1 else 'NOT met'}"
                )
        store.close()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
