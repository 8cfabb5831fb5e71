"""The HTTP SPARQL client's failures: each a clear KGError naming the endpoint."""

from __future__ import annotations

import socket

import pytest

from kgcite.kg import HttpSparqlStore, KGError


def test_refused_connection_is_a_clear_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, never listening: connections are refused
        store = HttpSparqlStore(f"http://127.0.0.1:{port}/query", retries=1)
        with pytest.raises(KGError, match=rf"127.0.0.1:{port}/query unreachable"):
            store.entity("Q1")


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
