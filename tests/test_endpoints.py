"""Every answering path over a real SPARQL engine (Virtuoso on loopback, loaded through
``kgcite kg load --endpoint``) gives what the embedded store gives."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from kgcite.kg.loaders import shipped_biokalma
from kgcite.server.launch import served
from tests.helpers import kgcite

QUESTIONS = [
    "Who was Stephen Crane's father?",
    "Who was Stephen Crane's spouse?",  # [NA]
    "When was Ernst Hanfstaengl born?",
    "Where was the father of Stephen Crane born?",
    "Tell me about Anton Chekhov",  # no entity
]


def _answer(*args: str) -> dict[str, object]:
    res = kgcite("ask", *args, "--json", "--no-cache")
    assert res.returncode == 0, res.stderr
    out: dict[str, object] = json.loads(res.stdout)
    return out


@pytest.mark.parametrize("question", QUESTIONS)
def test_ask_over_virtuoso_is_the_embedded_answer(virtuoso_biokalma: str, question: str) -> None:
    embedded, remote = _answer(question), _answer(question, "--endpoint", virtuoso_biokalma)
    for field in ("answer", "citations", "predicted", "linked"):
        assert remote[field] == embedded[field], (field, remote[field], embedded[field])


def test_run_kg_show_and_tog_e_over_virtuoso(virtuoso_biokalma: str, tmp_path: Path) -> None:
    runs = {}
    for name, where in (("embedded", ()), ("virtuoso", ("--endpoint", virtuoso_biokalma))):
        out = tmp_path / f"{name}.jsonl"
        res = kgcite("run", "--dataset", "biokalma:specific", "--limit", "4", "--out", str(out), "--no-cache", *where)
        assert res.returncode == 0, res.stderr
        runs[name] = [(r["id"], r["answer"], r["citations"]) for r in map(json.loads, out.read_text().splitlines())]
    assert runs["virtuoso"] == runs["embedded"]
    shown = kgcite("kg", "show", "Stephen Crane", "--endpoint", virtuoso_biokalma, "--json")
    assert shown.returncode == 0 and ["father", "Jonathan Townley Crane"] in [
        o[:2] for o in json.loads(shown.stdout)[0]["outgoing"]
    ]
    local_store = tmp_path / "store"
    assert kgcite("kg", "load", *map(str, shipped_biokalma()), "--store", str(local_store)).returncode == 0
    beams = [
        kgcite(
            "retrieve", "tog-e", *where, "--question", "Who was Stephen Crane's father?", "--json", "--scorer", "bm25"
        )
        for where in (("--kg", str(local_store)), ("--endpoint", virtuoso_biokalma))
    ]
    assert all(b.returncode == 0 for b in beams), [b.stderr for b in beams]
    local, remote = (json.loads(b.stdout) for b in beams)
    assert remote["triples"] == local["triples"] and remote["triples"]


def test_serve_over_virtuoso(virtuoso_biokalma: str) -> None:
    with served(["--no-cache", "--endpoint", virtuoso_biokalma]) as url:
        a = httpx.post(f"{url}/ask", json={"question": QUESTIONS[0]}, timeout=120).json()
        assert a["answer"] == _answer(QUESTIONS[0])["answer"]
        page = httpx.get(f"{url}/entities/Q206534").json()
        assert page["label"] == "Stephen Crane" and page["triples_total"] == len(page["triples"]) > 10
