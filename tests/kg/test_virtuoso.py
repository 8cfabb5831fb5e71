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
            with pytest.raises(KGError, match="unreachable"):
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
