"""The HTTP SPARQL client's failures: each a clear KGError naming the endpoint."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kgcite.kg import HttpSparqlStore, KGError
from tests.helpers import kgcite
from tests.kg.conftest import OxigraphServer


def test_refused_connection_is_a_clear_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, never listening: connections are refused
        store = HttpSparqlStore(f"http://127.0.0.1:{port}/query", retries=1)
        with pytest.raises(KGError, match=rf"127.0.0.1:{port}/query unreachable"):
            store.entity("Q1")


def test_a_server_that_takes_the_connection_and_never_answers_fails_after_one_timeout() -> None:
    """A stopped Virtuoso (its socket still accepting) took 92 s to report: each retry waited the
    whole timeout again."""
    import time

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)  # the kernel completes connections; nobody reads or answers them
        port = sock.getsockname()[1]
        store = HttpSparqlStore(f"http://127.0.0.1:{port}/query", timeout=2)
        t0 = time.monotonic()
        with pytest.raises(KGError, match="did not answer within 2 s"):
            store.entity("Q1")
        assert time.monotonic() - t0 < 4
        store.close()


def test_server_rejection_carries_status_and_message(generic_endpoint: str) -> None:
    store = HttpSparqlStore(generic_endpoint)
    with pytest.raises(KGError, match="answered HTTP 400"):
        list(store._select("SELECT WHERE nonsense"))
    assert store.entity("Q212657") is not None  # the client is still usable afterwards
    store.close()


def test_an_id_no_iri_can_spell_is_no_entity_over_an_endpoint(generic_endpoint: str) -> None:
    """`kg show 'http://evil>x' --endpoint URL` was a ValueError traceback (the embedded store
    already said "no entity")."""
    from tests.helpers import kgcite

    res = kgcite("kg", "show", "http://evil>x", "--endpoint", generic_endpoint)
    assert "Traceback" not in res.stderr and "no entity with id or label 'http://evil>x'" in res.stderr, res.stderr
    store = HttpSparqlStore(generic_endpoint)
    assert store.entity("a b>c") is None and store.outgoing("a b>c") == [] and store.match(subject_id="<x>") == []
    store.close()


def test_a_load_queries_cannot_see_is_an_error_saying_what_to_do(
    oxigraph_server: OxigraphServer, tmp_path: Path
) -> None:
    """Oxigraph started without --union-default-graph took the load and then found no entity for
    any question: the load now checks that queries see what it wrote."""
    graph = tmp_path / "g.tsv"
    graph.write_text("Tarn Junction\tdesigned_by\tIvo Marsh\n", encoding="utf-8")
    for flags, ok in (((), False), (("--union-default-graph",), True)):
        base = oxigraph_server.empty(f"load{len(flags)}", *flags)
        endpoint = ("--endpoint", f"{base}/query", "--update-endpoint", f"{base}/update")
        res = kgcite("kg", "load", str(graph), *endpoint)
        if ok:
            assert res.returncode == 0, res.stderr
            shown = kgcite("kg", "show", "Tarn Junction", "--endpoint", f"{base}/query")
            assert "Ivo Marsh" in shown.stdout, shown.stderr
        else:
            assert res.returncode == 1 and "Traceback" not in res.stderr
            assert "start Oxigraph with --union-default-graph" in res.stderr, res.stderr
            shown = kgcite("kg", "show", "Tarn Junction", "--endpoint", f"{base}/query")
            assert shown.returncode == 1 and "start Oxigraph with --union-default-graph" in shown.stderr
