"""Stores for the shared KG suite: the same small graphs in every backend kgcite supports.

The SPARQL server is the real ``oxigraph`` server from PyPI, started on 127.0.0.1 for the test
session and stopped after it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pyoxigraph import Literal, NamedNode, Quad, RdfFormat

from kgcite.kg import EmbeddedSparqlStore, EmbeddedStore, HttpSparqlStore, IriScheme, WikidataScheme
from kgcite.kg.rdf import entity_quads, triple_quads
from kgcite.kg.scheme import RDFS_LABEL, SKOS_ALT_LABEL
from kgcite.ports import free_port
from tests.helpers import (
    ENTITIES,
    HOSTILE_LABEL,
    HOSTILE_VALUE,
    TRIPLES,
    virtuoso_or_skip,
)

# The WikiData spelling of (part of) the same graph: property ids, language-tagged labels.
WD_PROPERTIES = {"P31": "instance of", "P19": "place of birth", "P106": "occupation", "P22": "father", "P1545": "motto"}
WD_ENTITIES = {
    "Q212657": "Artemisia Gentileschi",
    "Q367360": "Orazio Gentileschi",
    "Q220": "Rome",
    "Q5": "human",
    "Q1028181": "painter",
    "Q666": HOSTILE_LABEL,
}
WD_CLAIMS = [
    ("Q212657", "P31", "Q5"),
    ("Q212657", "P19", "Q220"),
    ("Q212657", "P106", "Q1028181"),
    ("Q212657", "P22", "Q367360"),
    ("Q367360", "P106", "Q1028181"),
    ("Q666", "P1545", HOSTILE_VALUE),
]


def generic_quads() -> list[Quad]:
    scheme = IriScheme()
    quads = [q for e in ENTITIES for q in entity_quads(e, scheme)]
    return quads + [q for t in TRIPLES for q in triple_quads(t, scheme)]


def wikidata_quads() -> list[Quad]:
    s = WikidataScheme()
    label = NamedNode(RDFS_LABEL)
    quads = [
        Quad(NamedNode(s.entity_ns + k), label, Literal(v, language="en"))
        for k, v in {**WD_PROPERTIES, **WD_ENTITIES}.items()
    ]
    quads.append(
        Quad(NamedNode(s.entity_ns + "Q212657"), NamedNode(SKOS_ALT_LABEL), Literal("Artemisia", language="en"))
    )
    quads.append(Quad(NamedNode(s.entity_ns + "Q212657"), label, Literal("Artemisia Gentileschi", language="it")))
    quads.append(Quad(NamedNode(s.entity_ns + "Q212657"), label, Literal("Artemisia Gentileschi", language="de")))
    for subj, prop, obj in WD_CLAIMS:
        o = NamedNode(s.entity_ns + obj) if obj in WD_ENTITIES else Literal(obj)
        quads.append(Quad(NamedNode(s.entity_ns + subj), NamedNode(s.relation_ns + prop), o))
    return quads


def _oxigraph_binary() -> str:
    exe = shutil.which("oxigraph") or str(Path(sys.executable).parent / "oxigraph")
    if not os.path.exists(exe):
        pytest.fail("the `oxigraph` server is not installed: pip install -e '.[test]'")
    return exe


class OxigraphServer:
    """A real Oxigraph SPARQL server on loopback, with one dataset per named store."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.procs: list[subprocess.Popen[bytes]] = []

    def serve(self, name: str, quads: list[Quad]) -> str:
        data_file = self.root / f"{name}.nq"
        store = EmbeddedSparqlStore()
        store.store.extend(quads)  # as written: no kgcite label keys, like a foreign endpoint
        store.store.dump(str(data_file), format=RdfFormat.N_QUADS)
        location = self.root / name
        exe = _oxigraph_binary()
        subprocess.run(
            [exe, "load", "--location", str(location), "--file", str(data_file)], check=True, capture_output=True
        )
        return f"{self._start(name, location)}/query"

    def empty(self, name: str, *flags: str) -> str:
        """An empty dataset served with ``flags`` (``--union-default-graph``); its base URL."""
        return self._start(name, self.root / name, *flags)

    def _start(self, name: str, location: Path, *flags: str) -> str:
        """``oxigraph serve`` of ``location`` on a free port, once it answers; its base URL."""
        port = free_port()
        log = open(self.root / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [_oxigraph_binary(), "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}", *flags],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.procs.append(proc)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"oxigraph serve exited: {(self.root / f'{name}.log').read_text()}")
            try:
                if httpx.post(f"{base}/query", data={"query": "ASK {}"}, timeout=1).status_code == 200:
                    return base
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("oxigraph server did not start within 20 s")

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture(scope="session")
def oxigraph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OxigraphServer]:
    server = OxigraphServer(tmp_path_factory.mktemp("oxigraph"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def generic_endpoint(oxigraph_server: OxigraphServer) -> str:
    from kgcite.kg.rdf import with_label_keys

    return oxigraph_server.serve("generic", list(with_label_keys(generic_quads())))


@pytest.fixture(scope="session")
def wikidata_endpoint(oxigraph_server: OxigraphServer) -> str:
    return oxigraph_server.serve("wikidata", wikidata_quads())


def _virtuoso_holding(folder: Path, quads: list[Quad], *, label_keys: bool) -> Iterator[str]:
    """A real Virtuoso holding ``quads``, loaded through kgcite (SPARQL updates); its endpoint."""
    server = virtuoso_or_skip(folder)
    try:
        server.allow_updates()
        with HttpSparqlStore(server.endpoint) as loader:
            loader.add_quads(quads, label_keys=label_keys)
        yield server.endpoint
    finally:
        server.stop()


@pytest.fixture(scope="session")
def virtuoso_generic(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The generic graph in Virtuoso, with kgcite's label keys as `kg load --endpoint` writes."""
    yield from _virtuoso_holding(tmp_path_factory.mktemp("virtuoso-generic"), generic_quads(), label_keys=True)


@pytest.fixture(scope="session")
def virtuoso_wikidata(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The WikiData-spelled graph in Virtuoso, as foreign data (no kgcite label keys)."""
    yield from _virtuoso_holding(tmp_path_factory.mktemp("virtuoso-wikidata"), wikidata_quads(), label_keys=False)


GENERIC_BACKENDS = ["embedded", "embedded-sparql", "embedded-disk", "server", "virtuoso"]
WIKIDATA_BACKENDS = ["embedded", "server", "virtuoso"]


@pytest.fixture(params=GENERIC_BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    """The generic test graph in each backend; every test using it runs once per backend."""
    kind = request.param
    if kind in ("server", "virtuoso"):
        s: object = HttpSparqlStore(
            request.getfixturevalue("generic_endpoint" if kind == "server" else "virtuoso_generic")
        )
    else:
        cls = EmbeddedSparqlStore if kind == "embedded-sparql" else EmbeddedStore
        s = cls(tmp_path / "store" if kind == "embedded-disk" else None)
        s.add_quads(generic_quads())  # type: ignore[attr-defined]
    yield s
    s.close()  # type: ignore[attr-defined]


@pytest.fixture(params=WIKIDATA_BACKENDS)
def wd_store(request: pytest.FixtureRequest) -> Iterator[object]:
    """The WikiData-spelled graph, loaded as foreign data (no kgcite label keys)."""
    if request.param in ("server", "virtuoso"):
        where = "wikidata_endpoint" if request.param == "server" else "virtuoso_wikidata"
        s: object = HttpSparqlStore(request.getfixturevalue(where), WikidataScheme())
    else:
        s = EmbeddedStore(None, WikidataScheme())
        s.store.extend(wikidata_quads())  # type: ignore[attr-defined]
    yield s
    s.close()  # type: ignore[attr-defined]
