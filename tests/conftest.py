"""Fixtures shared across stages: real local models, loaded once per test session."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from kgcite.kg import EmbeddedStore
from kgcite.kg.loaders import shipped_biokalma
from kgcite.models.embed import OnnxMiniLM
from kgcite.models.llamacpp import LlamaCppLLM, default_gguf, http_server
from kgcite.models.ner import SpacyNER
from kgcite.models.nli import OnnxNLI
from tests.helpers import BOOKS, kgcite, virtuoso_or_skip

#: Fixtures that load a model or start a server: a test marked ``fast`` may use none of them.
HEAVY_FIXTURES = frozenset(
    {
        "ner", "embedder", "nli", "smollm", "llama_server", "reranker", "broken_server", "virtuoso_biokalma",
        "oxigraph_server", "generic_endpoint", "wikidata_endpoint", "virtuoso_generic", "virtuoso_wikidata",
        "evil_server", "tsv_server", "biokalma_server", "hub_server", "page", "browser",
    }
)  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Hold the ``fast`` marker to its word: a fast test that asks for a model or server is an error."""
    wrong = [
        f"{item.nodeid} uses {sorted(HEAVY_FIXTURES & set(getattr(item, 'fixturenames', ())))}"
        for item in items
        if item.get_closest_marker("fast") and HEAVY_FIXTURES & set(getattr(item, "fixturenames", ()))
    ]
    if wrong:
        raise pytest.UsageError("tests marked fast load a model or start a server:\n" + "\n".join(wrong))


@pytest.fixture(scope="session")
def biokalma_store() -> EmbeddedStore:
    store = EmbeddedStore()
    for path in shipped_biokalma():
        store.load(path)
    return store


@pytest.fixture(scope="session")
def ner() -> SpacyNER:
    return SpacyNER().load()


@pytest.fixture(scope="session")
def embedder() -> OnnxMiniLM:
    return OnnxMiniLM().load()


@pytest.fixture(scope="session")
def nli() -> OnnxNLI:
    """kgcite's shipped NLI model (int8 ONNX)."""
    return OnnxNLI().load()


@pytest.fixture(scope="session")
def smollm() -> LlamaCppLLM:
    return LlamaCppLLM().load()


@pytest.fixture(scope="session")
def llama_server() -> Iterator[str]:
    """A real OpenAI-compatible llama.cpp HTTP server on 127.0.0.1 with the shipped GGUF."""
    with http_server(default_gguf(), parallel=2) as url:
        yield url


class _Scripted(BaseHTTPRequestHandler):
    """Answers every POST with the status and body it was given: a broken backend."""

    status = 500
    body = b'{"error": "boom"}'
    hits = 0

    def do_POST(self) -> None:
        type(self).hits += 1
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def broken_server(request: pytest.FixtureRequest) -> Iterator[tuple[str, type[_Scripted]]]:
    """A server on 127.0.0.1 that answers with ``request.param`` = (status, body)."""
    status, body = getattr(request, "param", (500, {"error": "boom"}))
    handler = type(
        "Handler",
        (_Scripted,),
        {"status": status, "body": body if isinstance(body, bytes) else json.dumps(body).encode(), "hits": 0},
    )
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    httpd.shutdown()


@pytest.fixture(scope="session")
def reranker() -> Any:
    """kgcite's shipped re-ranker (int8 ONNX)."""
    from kgcite.models.rerank import OnnxReranker

    return OnnxReranker().load()


@pytest.fixture(scope="session")
def books_store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    """The small book graph, loaded into the real embedded store."""
    path = tmp_path_factory.mktemp("books") / "books.tsv"
    path.write_text(BOOKS)
    s = EmbeddedStore()
    s.load(path)
    return s


#: Values of one relation of the hub in ``hub_store``: 3,000 did not finish in 200 s before
#: answers and reads were bounded.
HUB_VALUES = 3_000


@pytest.fixture(scope="session")
def hub_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A graph with a hub (3,000 employees of one company) and a short chain beside it."""
    d = tmp_path_factory.mktemp("hub")
    lines = [f"Acme Corp\temployee\tWorker Number {i}" for i in range(HUB_VALUES)]
    lines += ["Acme Corp\tfounded by\tJane Roe", "Jane Roe\tplace of birth\tBrackenford"]
    (d / "hub.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = kgcite("kg", "load", str(d / "hub.tsv"), "--store", str(d / "store"))
    assert res.returncode == 0, res.stderr
    return d / "store"


@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 KB tmpfs folder, to fill the disk for real; skipped, saying why, where it cannot be
    mounted (it needs root, as CI has)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    res = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(folder)], check=False, capture_output=True, text=True
    )
    if res.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill ({res.stderr.strip()}); the full-disk tests need root")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.fixture(scope="session")
def virtuoso_biokalma(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Virtuoso on loopback holding the shipped BioKaLMA graph, loaded as a user would:
    ``kgcite kg load FILES --endpoint URL``."""
    server = virtuoso_or_skip(tmp_path_factory.mktemp("virtuoso-biokalma"))
    try:
        server.allow_updates()
        res = kgcite("kg", "load", *map(str, shipped_biokalma()), "--endpoint", server.endpoint)
        assert res.returncode == 0, res.stderr
        yield server.endpoint
    finally:
        server.stop()
