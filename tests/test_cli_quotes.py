"""``kgcite ask --source docs|both`` and ``kgcite eval quotes`` as a user runs them, offline."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.helpers import kgcite

DOCS = Path(__file__).parent / "retrieve" / "data" / "docs"


def test_ask_both_end_to_end_then_eval_quotes(tmp_path: Path) -> None:
    os.environ["KGCITE_CACHE_DIR"] = str(tmp_path / "cache")
    try:
        res = kgcite(
            "ask",
            "Where did Stephen Crane die?",
            "--source",
            "both",
            "--docs",
            str(DOCS),
            "--rewrite",
            "--constrained",
            "--json",
            "--jsonl",
        )
        plain = kgcite("ask", "Where did Stephen Crane die?", "--source", "both", "--docs", str(DOCS), "--constrained")
        again = kgcite(
            "ask",
            "Where was Stephen Crane buried?",
            "--source",
            "docs",
            "--docs",
            str(DOCS),
            "--json",
            "--jsonl",
        )
    finally:
        del os.environ["KGCITE_CACHE_DIR"]
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    kg, *docs = out["quotes"]
    assert kg["kind"] == "kg" and ["Q206534", "place of death", "Badenweiler"] in kg["triples"]
    assert docs and all(q["kind"] == "document" and Path(q["source"]).parent == DOCS for q in docs)
    assert "Badenweiler" in docs[0]["text"]
    cited = {i for s in out["sentences"] for i in s["quotes"]}
    assert cited and cited <= {q["index"] for q in out["quotes"]}
    assert out["written_citations"] >= 1 and out["invalid_citations"] == 0  # the grammar allows only given numbers
    assert (tmp_path / "cache" / "documents.sqlite").exists()
    assert out["timings"]["generate"] > 0 and "verify" in out["timings"]

    # without --rewrite no text is generated (none can be thrown away), and the timings say so
    assert plain.returncode == 0, plain.stderr
    assert "add --rewrite to let the model phrase them" in plain.stderr
    stages = plain.stderr.strip().splitlines()[-1]
    assert "extractive" in stages and "extract " in stages and "generate" not in stages, stages
    assert "docs_rank" in stages and "graph" in stages

    assert again.returncode == 0, again.stderr
    extractive = json.loads(again.stdout)
    assert extractive["extractive"] and extractive["quotes"][0]["kind"] == "document"
    assert any("Evergreen Cemetery" in s["text"] for s in extractive["sentences"])

    answers = tmp_path / "answers.jsonl"
    answers.write_text(res.stdout + again.stdout)
    report = kgcite("eval", "quotes", "--answers", str(answers), "--json")
    assert report.returncode == 0, report.stderr
    r = json.loads(report.stdout)
    assert r["answers"] == 2 and r["validity"] == 1.0
    assert r["citation_sources"]["documents_only"] >= 1 and sum(r["citation_sources"].values()) == 2
    table = kgcite("eval", "quotes", "--answers", str(answers))
    assert "alignment as written" in table.stdout and "cites documents only" in table.stdout


def test_ask_docs_errors_name_the_option(tmp_path: Path) -> None:
    res = kgcite("ask", "q?", "--source", "docs", "--no-cache")
    assert res.returncode == 2 and "--docs" in res.stderr and "Traceback" not in res.stderr
    res = kgcite("ask", "q?", "--docs", str(DOCS), "--no-cache")
    assert res.returncode == 2 and "--source docs or both" in res.stderr
    res = kgcite("ask", "q?", "--source", "docs", "--docs", str(tmp_path / "missing"), "--no-cache")
    assert res.returncode == 2 and "missing" in res.stderr and "no such document" in res.stderr


def test_eval_quotes_names_the_bad_line(tmp_path: Path) -> None:
    bad = tmp_path / "a.jsonl"
    bad.write_text('{"question": "q", "sentences": [], "quotes": []}\n{"question": "q"}\n')
    res = kgcite("eval", "quotes", "--answers", str(bad), "--no-nli")
    assert res.returncode == 2
    assert "a.jsonl:2: sentences: Field required" in res.stderr
