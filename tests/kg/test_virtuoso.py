"""Virtuoso's failures as kgcite meets them: a server that hangs, one that goes away, and the
WikiData spelling answered end to end."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from kgcite.kg import HttpSparqlStore, KGError
from tests.helpers import kgcite, virtuoso_or_skip


def test_a_hanging_server_is_a_timeout_and_a_resumed_one_answers(tmp_path: Path) -> None:
    server = virtuoso_or_skip(tmp_path / "v")
    try:
        assert server.proc is not None
        store = HttpSparqlStore(server.endpoint, timeout=1, retries=0)
        assert store.relations() == []
        os.kill(server.proc.pid, signal.SIGSTOP)
        try:
            with pytest.raises(KGError, match="did not answer within 1 s"):
                store.entity("Q1")
        finally:
            os.kill(server.proc.pid, signal.SIGCONT)
        assert store.entity("Q1") is None  # the same client, once the server answers again
    finally:
        server.stop()


def test_a_server_that_goes_away_is_one_line_from_the_cli(tmp_path: Path) -> None:
    server = virtuoso_or_skip(tmp_path / "v")
    url = server.endpoint
    server.stop()
    res = kgcite("ask", "Who was Stephen Crane's father?", "--endpoint", url, "--no-cache")
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert f"SPARQL endpoint {url} unreachable" in res.stderr


def test_ask_in_the_wikidata_spelling_over_virtuoso(virtuoso_wikidata: str) -> None:
    res = kgcite(
        "ask", "Who was Artemisia Gentileschi's father?", "--endpoint", virtuoso_wikidata, "--scheme", "wikidata",
        "--json", "--no-cache",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    a = json.loads(res.stdout)
    assert a["linked"] == ["Q212657"] and a["predicted"] == ["Orazio Gentileschi"]


def test_the_bulk_path_export_then_virtuosos_loader(tmp_path: Path) -> None:
    """For big graphs: `kg export` writes N-Triples with label keys, Virtuoso's loader reads it."""
    graph = tmp_path / "g.tsv"
    graph.write_text("Marla Quenby\tfounded\tQuenby Bakery\nQuenby Bakery\tlocated in\tVarnholm\n")
    store = tmp_path / "store"
    assert kgcite("kg", "load", str(graph), "--store", str(store)).returncode == 0
    server = virtuoso_or_skip(tmp_path / "v")
    try:
        exported = kgcite("kg", "export", "--store", str(store), "--out", str(server.folder / "g.nt"))
        assert exported.returncode == 0, exported.stderr
        server.bulk_load(server.folder / "g.nt")
        local = kgcite("ask", "What did Marla Quenby found?", "--store", str(store), "--json", "--no-cache")
        remote = kgcite("ask", "What did Marla Quenby found?", "--endpoint", server.endpoint, "--json", "--no-cache")
        assert remote.returncode == 0, remote.stderr
        assert json.loads(remote.stdout)["answer"] == json.loads(local.stdout)["answer"]
        assert "Quenby Bakery" in json.loads(remote.stdout)["answer"]
    finally:
        server.stop()
