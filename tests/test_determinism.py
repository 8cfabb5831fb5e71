"""An item's output line is the same alone, first, last, in any batch and after a resume.

A research tool's answer for an item must not depend on what the process answered before: these
runs go through the CLI, over 200 MetaQA questions (1 to 3 hops, where path scores decide) and
the CAQA samples built from them, and compare every field but the timings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgcite.bench.metaqa import read_questions
from kgcite.kg.loaders import shipped_data
from tests.helpers import kgcite

KB = str(shipped_data("metaqa", "kb.txt"))


def _lines(path: Path) -> dict[str, dict[str, object]]:
    """Each line by id, without what measures this machine (timings, milliseconds)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for volatile in ("timings", "ms"):
            row.pop(volatile, None)
        out[str(row["id"])] = row
    return out


def _differing(a: dict[str, dict[str, object]], b: dict[str, dict[str, object]]) -> list[str]:
    assert a.keys() == b.keys()
    return [f"{k}: {sorted(f for f in a[k] if a[k][f] != b[k].get(f))}" for k in a if a[k] != b[k]]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The MetaQA graph in a store folder: each run opens it instead of loading 275,000 lines."""
    folder = tmp_path_factory.mktemp("determinism") / "store"
    res = kgcite("kg", "load", KB, "--store", str(folder))
    assert res.returncode == 0, res.stderr
    return str(folder)


@pytest.fixture(scope="module")
def questions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """200 MetaQA test questions: 70 of one hop, 70 of two, 60 of three."""
    items = [q for hops, n in ((1, 70), (2, 70), (3, 60)) for q in read_questions(hops)[:n]]
    path = tmp_path_factory.mktemp("determinism") / "questions.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": f"{q.hops}hop-{q.line}", "question": q.question, "answers": list(q.answers)}) + "\n"
            for q in items
        ),
        encoding="utf-8",
    )
    return path


def test_an_answer_does_not_depend_on_batch_order_or_resume(questions: Path, store: str, tmp_path: Path) -> None:
    """In order in batches of 32, against reversed in batches of 1 stopped after 60 and resumed,
    and the last item alone: identical lines (path scores included)."""
    forward = tmp_path / "forward.jsonl"
    res = kgcite("run", "--dataset", str(questions), "--store", store, "--out", str(forward), "--batch-size", "32")
    assert res.returncode == 0, res.stderr
    rows = questions.read_text(encoding="utf-8").splitlines()
    reversed_items = tmp_path / "reversed.jsonl"
    reversed_items.write_text("\n".join(reversed(rows)) + "\n", encoding="utf-8")
    backward = tmp_path / "backward.jsonl"
    for limit in ("60", "200"):
        res = kgcite(
            "run", "--dataset", str(reversed_items), "--store", store, "--out", str(backward), "--batch-size", "1",
            "--limit", limit,
        )  # fmt: skip
        assert res.returncode == 0, res.stderr
    assert "60 already done" in res.stdout
    last = tmp_path / "last.jsonl"
    last.write_text(rows[-1] + "\n", encoding="utf-8")
    out = tmp_path / "alone.jsonl"
    res = kgcite("run", "--dataset", str(last), "--store", store, "--out", str(out))
    assert res.returncode == 0, res.stderr
    alone = _lines(out)

    together = _lines(forward)
    assert len(together) == 200
    assert _differing(together, _lines(backward)) == []
    assert _differing({k: together[k] for k in alone}, alone) == []


def test_a_verdict_does_not_depend_on_batch_size_or_resume(tmp_path: Path) -> None:
    """The trained evaluator over ≥ 200 CAQA samples: batches of 7 against batches of 32 stopped
    after 100 samples and resumed: identical judgements."""
    metaqa = shipped_data("metaqa")
    res = kgcite(
        "build", "caqa", "--kg", KB, "--qa", str(metaqa / "1-hop" / "qa_test.txt"),
        "--qa", str(metaqa / "2-hop" / "qa_test.txt"), "--limit", "150", "--out", str(tmp_path / "caqa"),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    bench = tmp_path / "caqa" / "train.jsonl"
    assert len(bench.read_text(encoding="utf-8").splitlines()) >= 200

    def judge(out: str, batch: str, *limit: str) -> Path:
        res = kgcite(
            "evaluate-evaluator", "--bench", str(bench), "--evaluator", "trained", "--batch-size", batch,
            "--factscore", "0", "--out", str(tmp_path / out), *limit,
        )  # fmt: skip
        assert res.returncode == 0, res.stderr
        return tmp_path / out / "judgements.jsonl"

    sevens = judge("sevens", "7")
    judge("resumed", "32", "--limit", "100")
    resumed = judge("resumed", "32")
    a, b = _lines(sevens), _lines(resumed)
    assert len(a) >= 200
    assert _differing(a, b) == []
