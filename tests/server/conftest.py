"""``kgcite serve`` started for real, as a user starts it, on a free port of 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port
from tests.test_cli import kgcite, kgcite_cmd

EVIL_LABEL = "Lord <script>alert(1)</script> Byron"
EVIL_VALUE = '<img src=x onerror="window.__xss=1">'


@contextmanager
def served(*args: str, startup_s: float = 180.0) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "KGCITE_CACHE_DIR": os.environ.get("KGCITE_CACHE_DIR", "")}
    proc = subprocess.Popen(
        [*kgcite_cmd(), "serve", "--port", str(port), "--no-cache", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"kgcite serve exited {proc.returncode}: {proc.stdout.read() if proc.stdout else ''}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"kgcite serve not up after {startup_s} s")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def evil_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A graph whose labels are markup: a page that renders them as HTML would run them."""
    d = tmp_path_factory.mktemp("evil")
    graph = [["Who was Ada Lovelace's father?", [
        {"qid": "Q7259", "name": "Ada Lovelace", "father": EVIL_LABEL, "motto": EVIL_VALUE, "occupation": "mathematician", "instance of": "human"},
        {"qid": "Q5679", "name": EVIL_LABEL, "occupation": "poet", "instance of": "human"},
    ]]]
    (d / "evil.json").write_text(json.dumps(graph))
    res = kgcite("kg", "load", str(d / "evil.json"), "--store", str(d / "store"))
    assert res.returncode == 0, res.stderr
    return d / "store"


@pytest.fixture(scope="session")
def reports_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real evaluation report: `kgcite eval all` over the shipped sample answers."""
    from importlib import resources

    out = tmp_path_factory.mktemp("reports") / "samples"
    answers = Path(str(resources.files("kgcite") / "data" / "samples" / "biokalma_sample_answers.jsonl"))
    res = kgcite("eval", "all", "--answers", str(answers), "--out", str(out), "--no-nli")
    assert res.returncode == 0, res.stderr
    return out.parent


@pytest.fixture(scope="session")
def evil_server(evil_store: Path, reports_dir: Path) -> Iterator[str]:
    with served("--store", str(evil_store), "--reports", str(reports_dir)) as url:
        yield url


@pytest.fixture(scope="session")
def biokalma_server() -> Iterator[str]:
    """The default set-up: shipped BioKaLMA graph, SmolLM2 through embedded llama.cpp."""
    with served() as url:
        yield url
