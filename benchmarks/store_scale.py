"""How big a graph each store serves: the embedded store (on disk and in memory) against Virtuoso,
in one run, on generated graphs of 1M and 10M triples (50M with ``--sizes``, where the machine
allows).

The graph is Wikidata-shaped: people (two thirds of the entities) with an ``instance of: human``
hub (every person: 150k edges at 1M triples), a two-valued ``sex or gender``, birthplaces, countries
and employers drawn from Zipf distributions (a few cities and firms with thousands of edges), a
spouse for some and a father for fewer; places in countries, firms headquartered in places. People
are named from 300 given names × 600 surnames, so there are namesakes; one in five has an alias.
Loaded as users load: the embedded store with kgcite's bulk loader, Virtuoso with its own bulk
loader on kgcite's N-Triples (label keys included).

Per store and size: load time, disk, resident memory (of the process or of the server), and p50 /
p95 of: an entity's one-hop triples, a label look-up (exact) and a prefix look-up, a one-hop
``ask`` ("Where was X born?") and a two-hop one ("Where was the spouse of X born?"), both through
the whole grounded pipeline; SPARQL requests per ask for Virtuoso; and one ``ask`` about the hub.

    python benchmarks/store_scale.py [--sizes 1000000 10000000] [--stores disk memory virtuoso] [--quick]
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pyoxigraph import Literal, NamedNode, Quad

from kgcite.evaluate.records.report import format_table
from kgcite.kg import EmbeddedStore, HttpSparqlStore, IriScheme
from kgcite.kg.rdf import with_label_keys, write_ntriples
from kgcite.kg.scheme import RDFS_LABEL, SKOS_ALT_LABEL
from kgcite.kg.virtuoso import Virtuoso, binary
from kgcite.runtime import Runtime, RuntimeConfig

GIVEN = [
    f"{a}{b}" for a in ("Al", "Be", "Ca", "Da", "El", "Fa", "Ga", "Ha", "Il", "Jo") for b in ("ra", "na", "mo", "vi", "ta", "lia", "ren", "son", "dor", "nia", "bel", "mir", "tus", "lo", "ne", "ssa", "rik", "don", "va", "ric", "mas", "len", "ria", "phe", "lin", "ros", "bert", "ter", "dric", "mund")
]  # fmt: skip
SURNAMES = [f"{a}{b}{c}" for a in ("Ash", "Brack", "Cold", "Dun", "Elm", "Fern", "Gale", "Holt", "Iver", "Kest", "Lorn", "Marsh") for b in ("ford", "wick", "ley", "more", "by") for c in ("", "e", "er", "ing", "son", "ton", "well", "ridge", "hurst", "cott")]  # fmt: skip
SYLLABLES = ["ka", "lo", "mi", "ra", "ven", "dor", "tal", "bri", "sen", "mar", "kel", "ost", "un", "ith", "gar", "wen"]


def _zipf_index(rng: random.Random, n: int, s: float = 1.1) -> int:
    """An index in [0, n) with P(i) ∝ 1 / (i + 1)^s (by inverting the continuous approximation)."""
    u = rng.random()
    x = ((n ** (1 - s) - 1) * u + 1) ** (1 / (1 - s))
    return min(n - 1, int(x) - 1)


class Graph:
    """The generated graph's entities and triples for a target size, reproducible (seed 0)."""

    def __init__(self, triples: int, seed: int = 0) -> None:
        self.people = max(50, int(triples / 6.2))
        self.places = max(20, self.people // 15)
        self.countries = max(5, min(200, self.places // 10))
        self.firms = max(20, self.people // 20)
        self.seed = seed
        rng = random.Random(seed)
        self.names = [f"{rng.choice(GIVEN)} {rng.choice(SURNAMES)}" for _ in range(self.people)]
        self.place_names = [self._place(rng, i) for i in range(self.places)]

    @staticmethod
    def _place(rng: random.Random, i: int) -> str:
        return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).title() + ("" if i % 7 else " City")

    def quads(self) -> Iterator[Quad]:
        """Labels, aliases and relation triples in kgcite's generic IRI spelling (no label keys)."""
        s = IriScheme()
        node = {k: NamedNode(s.entity_iri(k)) for k in ("human", "male", "female")}
        rel = {r: NamedNode(s.relation_iri(r) or "") for r in RELATIONS}
        label, alias = NamedNode(RDFS_LABEL), NamedNode(SKOS_ALT_LABEL)
        for k, n in node.items():
            yield Quad(n, label, Literal(k))
        for c in range(self.countries):
            yield Quad(NamedNode(s.entity_iri(f"C{c}")), label, Literal(f"Country {c}"))
        rng = random.Random(self.seed + 1)
        for i, name in enumerate(self.place_names):
            p = NamedNode(s.entity_iri(f"L{i}"))
            yield Quad(p, label, Literal(name))
            yield Quad(p, rel["country"], NamedNode(s.entity_iri(f"C{_zipf_index(rng, self.countries)}")))
        for f in range(self.firms):
            o = NamedNode(s.entity_iri(f"F{f}"))
            yield Quad(
                o, label, Literal(f"{SURNAMES[f % len(SURNAMES)]} {('Works', 'Mills', 'Bank', 'Press')[f % 4]} {f}")
            )
            yield Quad(o, rel["headquarters location"], NamedNode(s.entity_iri(f"L{_zipf_index(rng, self.places)}")))
        for i, name in enumerate(self.names):
            p = NamedNode(s.entity_iri(f"P{i}"))
            yield Quad(p, label, Literal(name))
            if rng.random() < 0.2:
                given, surname = name.split(" ", 1)
                yield Quad(p, alias, Literal(f"{given[0]}. {surname}"))
            yield Quad(p, rel["instance of"], node["human"])
            yield Quad(p, rel["sex or gender"], node["male" if rng.random() < 0.5 else "female"])
            yield Quad(p, rel["place of birth"], NamedNode(s.entity_iri(f"L{_zipf_index(rng, self.places)}")))
            yield Quad(
                p, rel["country of citizenship"], NamedNode(s.entity_iri(f"C{_zipf_index(rng, self.countries)}"))
            )
            if rng.random() < 0.8:
                yield Quad(p, rel["employer"], NamedNode(s.entity_iri(f"F{_zipf_index(rng, self.firms)}")))
            if rng.random() < 0.5:
                yield Quad(p, rel["spouse"], NamedNode(s.entity_iri(f"P{rng.randrange(self.people)}")))
            if rng.random() < 0.3:
                yield Quad(p, rel["father"], NamedNode(s.entity_iri(f"P{rng.randrange(self.people)}")))
        for r, q in rel.items():
            yield Quad(q, label, Literal(r))

    def probes(self, n: int, seed: int = 7) -> list[tuple[str, str]]:
        """``n`` (person id, label) pairs to ask about, the same for every store."""
        rng = random.Random(seed)
        return [(f"P{i}", self.names[i]) for i in (rng.randrange(self.people) for _ in range(n))]


RELATIONS = [
    "instance of",
    "sex or gender",
    "place of birth",
    "country of citizenship",
    "employer",
    "spouse",
    "father",
    "country",
    "headquarters location",
]


def _timed(fn: Callable[[], Any], runs: list[float]) -> Any:
    t0 = time.perf_counter()
    out = fn()
    runs.append(1000 * (time.perf_counter() - t0))
    return out


def _p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def _du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _rss_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def measure(store: Any, graph: Graph, probes: int) -> dict[str, Any]:
    """p50/p95 of the look-ups and asks on ``store``; requests per ask when it is remote."""
    runtime = Runtime(RuntimeConfig(cache=None), store=store)
    generator = runtime.generator("grounded")
    pairs = graph.probes(probes)
    hop: list[float] = []
    exact: list[float] = []
    prefix: list[float] = []
    one: list[float] = []
    two: list[float] = []
    generator.answer(f"Where was {pairs[0][1]} born?")  # models and caches loaded before timing
    requests0 = getattr(store, "requests", 0)
    for entity_id, name in pairs:
        _timed(lambda e=entity_id: store.one_hop(e), hop)
        _timed(lambda n=name: store.entities_by_label(n), exact)
        _timed(lambda n=name: store.entities_by_label(n.split()[1][:4], prefix=True, limit=10), prefix)
    for _, name in pairs[: max(5, probes // 4)]:
        _timed(lambda n=name: generator.answer(f"Where was {n} born?"), one)
        _timed(lambda n=name: generator.answer(f"Where was the spouse of {n} born?"), two)
    asks = 2 * len(one)
    requests = (getattr(store, "requests", 0) - requests0) / asks if hasattr(store, "requests") else None
    hub: list[float] = []
    answer = _timed(lambda: generator.answer("Which entities are an instance of human?"), hub)
    return {
        "one-hop": hop,
        "label exact": exact,
        "label prefix": prefix,
        "ask, 1 hop": one,
        "ask, 2 hops": two,
        "requests/ask": requests,
        "hub ask ms": hub[0],
        "hub note": next((r for r in answer.repairs if "values of" in r or "hub" in r), "none"),
    }


def run_disk(graph: Graph, folder: Path, probes: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    store = EmbeddedStore(folder / "store")
    store.add_quads(graph.quads())
    load = time.perf_counter() - t0
    out = measure(store, graph, probes)
    out |= {
        "load s": load,
        "disk": _du(folder / "store"),
        "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }
    store.close()
    return out


def run_memory(graph: Graph, probes: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    store = EmbeddedStore()
    store.add_quads(graph.quads())
    load = time.perf_counter() - t0
    out = measure(store, graph, probes)
    out |= {"load s": load, "disk": 0, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}
    del store
    gc.collect()
    return out


def run_virtuoso(graph: Graph, folder: Path, probes: int, buffers: int) -> dict[str, Any]:
    with Virtuoso(folder / "virtuoso", buffers=buffers, query_timeout_s=600) as server:
        t0 = time.perf_counter()
        dump = server.folder / "graph.nt"
        write_ntriples(with_label_keys(graph.quads()), dump)
        server.bulk_load(dump)
        load = time.perf_counter() - t0
        dump.unlink()
        store = HttpSparqlStore(server.endpoint, timeout=600)
        out = measure(store, graph, probes)
        assert server.proc is not None
        out |= {"load s": load, "disk": _du(server.folder), "rss": _rss_of(server.proc.pid)}
        store.close()
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000], help="triples (default 1M 10M)")
    ap.add_argument(
        "--stores", nargs="+", default=["disk", "memory", "virtuoso"], choices=["disk", "memory", "virtuoso"]
    )
    ap.add_argument(
        "--probes", type=int, default=200, help="entities looked up per size (default 200; asks: a quarter)"
    )
    ap.add_argument("--buffers", type=int, default=250_000, help="Virtuoso's 8 KB buffers (default 250,000: 2 GB)")
    ap.add_argument("--quick", action="store_true", help="20,000 triples, 20 probes: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.sizes, args.probes, args.buffers = [20_000], 20, 10_000
    stores = [s for s in args.stores if s != "virtuoso" or binary() is not None]
    if len(stores) < len(args.stores):
        print("virtuoso-t is not installed (apt install virtuoso-opensource): Virtuoso rows left out")
    rows = []
    for size in args.sizes:
        graph = Graph(size)
        for kind in stores:
            folder = Path(tempfile.mkdtemp(prefix="kgcite-scale-"))
            try:
                t0 = time.perf_counter()
                if kind == "disk":
                    r = run_disk(graph, folder, args.probes)
                elif kind == "memory":
                    r = run_memory(graph, args.probes)
                else:
                    r = run_virtuoso(graph, folder, args.probes, args.buffers)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            name = {"disk": "embedded, on disk", "memory": "embedded, in memory", "virtuoso": "Virtuoso 7.2 (HTTP)"}[
                kind
            ]
            timings = [
                f"{_p(r[k], 50):.1f} / {_p(r[k], 95):.1f}"
                for k in ("one-hop", "label exact", "label prefix", "ask, 1 hop", "ask, 2 hops")
            ]
            rows.append(
                [
                    f"{size:,}",
                    name,
                    f"{r['load s']:.0f}",
                    f"{r['disk'] / 1e6:,.0f}",
                    f"{r['rss'] / 1e6:,.0f}",
                    *timings,
                    "n/a" if r["requests/ask"] is None else f"{r['requests/ask']:.1f}",
                    f"{r['hub ask ms']:.0f}",
                ]
            )
            print(f"{size:,} {name}: done in {time.perf_counter() - t0:.0f} s; hub: {r['hub note']}", flush=True)
    headers = [
        "triples",
        "store",
        "load s",
        "disk MB",
        "RSS MB",
        "one-hop p50/p95 ms",
        "label p50/p95",
        "prefix p50/p95",
        "ask 1-hop p50/p95",
        "ask 2-hop p50/p95",
        "requests/ask",
        "hub ask ms",
    ]
    print()
    print(format_table(headers, rows))
    print("\nRSS: the benchmark process for the embedded store (models included, peak), the server for Virtuoso.")


if __name__ == "__main__":
    main()
