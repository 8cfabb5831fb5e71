"""Attribution evaluators and their harness on a CAQA-style bench built from MetaQA in the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgcite.bench.caqa import CATEGORIES, CaqaBuilder, metaqa_samples, split_of
from kgcite.bench.caqa_query import TripleIndex
from kgcite.bench.metaqa import read_questions
from kgcite.evaluate.judges.evaluators import LLMEvaluator, NLIEvaluator, read_label
from kgcite.evaluate.metrics.attribution import evaluator_report, factscore_error
from kgcite.kg.loaders import read_tsv, shipped_data
from kgcite.models.evaluator import AttributionItem
from kgcite.models.llamacpp import LlamaCppLLM
from kgcite.models.nli import OnnxNLI
from kgcite.train.nli_data import metaqa_template
from tests.helpers import kgcite


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index = TripleIndex(read_tsv(shipped_data("metaqa", "kb.txt")))
    qs = [q for h in (1, 2) for q in read_questions(h)[:60]]
    rows = [
        s.to_dict() | {"split": split_of(s.source, s.complexity, 0)}
        for s in CaqaBuilder(index, metaqa_template).build_all(metaqa_samples(qs))
    ]
    path = tmp_path_factory.mktemp("bench") / "test.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ("Supportive", "supportive"),
        (" Insufficient. The reference lacks…", "partially_supportive"),
        ("The citation is partially supportive", "partially_supportive"),
        ("Response: contradictory", "contradictory"),
        ("Extrapolatory", "irrelevant"),
        ("I cannot tell", "unknown"),
    ],
)
def test_labels_are_read_from_free_text(reply: str, label: str) -> None:
    assert read_label(reply) == label


def test_report_is_per_category_and_complexity() -> None:
    rows = [
        {"category": c, "complexity": x}
        for c, x in [
            ("supportive", "single"),
            ("irrelevant", "single"),
            ("contradictory", "union"),
            ("supportive", "union"),
        ]
    ]
    r = evaluator_report(rows, ["supportive", "supportive", "contradictory", "unknown"])
    assert r["overall_micro_f1"] == 0.5 and r["n"] == 4
    assert r["complexity_micro_f1"] == {"single": 0.5, "union": 0.5, "intersection": None, "concatenation": None}
    assert r["f1"]["contradictory"] == 1.0 and r["f1"]["supportive"] == pytest.approx(
        0.5
    )  # the "unknown" counts against recall
    assert r["predicted_labels"][-1] == "unknown" and len(r["confusion"][0]) == 5
    assert factscore_error([0.5, 1.0], [0.5, 0.5]) == {"n": 2, "factscore": 0.75, "known": 0.5, "error_rate": 0.25}


def test_nli_evaluator_is_binary(nli: OnnxNLI) -> None:
    items = [
        AttributionItem(
            "Who directed Jaws?", "Jaws was directed by Steven Spielberg.", "Jaws was directed by Steven Spielberg."
        ),
        AttributionItem("Who directed Jaws?", "Jaws was directed by Steven Spielberg.", "Volcanoes erupt lava."),
    ]
    got = [j.category for j in NLIEvaluator(nli).judge(items)]
    assert got == ["supportive", "not_supportive"]


def test_llm_few_shot_prompt_and_real_model(smollm: LlamaCppLLM) -> None:
    shot = (AttributionItem("Q?", "A.", "Evidence."), "partially_supportive")
    ev = LLMEvaluator(smollm, [shot])
    assert "Response: Insufficient" in ev.prompt(AttributionItem("q", "a", "e")) and ev.name.startswith("llm-few")
    out = ev.judge(
        [
            AttributionItem(
                "Who directed Jaws?", "Steven Spielberg directed Jaws.", "Jaws was directed by Steven Spielberg."
            )
        ]
    )
    assert out[0].category in (*CATEGORIES, "unknown")  # whatever the 135M model says, it is read or counted wrong


def test_cli_json_contract_and_resume(bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "nli"
    res = kgcite(
        "evaluate-evaluator",
        "--bench",
        str(bench),
        "--evaluator",
        "nli",
        "--limit",
        "60",
        "--factscore",
        "10",
        "--json",
        "--out",
        str(out),
    )
    assert res.returncode == 0, res.stderr
    r = json.loads(res.stdout)
    assert (
        r["n"] == 60
        and set(r["f1"]) == set(CATEGORIES)
        and set(r["complexity_micro_f1"]) >= {"single", "concatenation"}
    )
    assert 0 <= r["overall_micro_f1"] <= 1 and r["factscore"]["n"] >= 1
    assert (out / "report.md").exists() and (out / "confusion.png").stat().st_size > 1000
    assert len((out / "judgements.jsonl").read_text().splitlines()) == 60
    again = kgcite(
        "evaluate-evaluator",
        "--bench",
        str(bench),
        "--evaluator",
        "nli",
        "--limit",
        "60",
        "--factscore",
        "0",
        "--json",
        "--out",
        str(out),
    )
    assert json.loads(again.stdout)["overall_micro_f1"] == r["overall_micro_f1"]
    assert len((out / "judgements.jsonl").read_text().splitlines()) == 60  # nothing judged twice
    bad = kgcite("evaluate-evaluator", "--bench", str(tmp_path / "none.jsonl"), "--evaluator", "nli")
    assert bad.returncode == 2 and "none.jsonl" in bad.stderr


def test_judgements_of_another_benchmark_are_judged_afresh(bench: Path, tmp_path: Path) -> None:
    """The same ids in another benchmark reused the first one's judgements (0.838 against 0.831)."""
    rows = [json.loads(line) for line in bench.read_text().splitlines()[:40]]
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("".join(json.dumps(r) + "\n" for r in rows))
    rotated = [r | {"answer_statement": rows[(i + 20) % len(rows)]["answer_statement"]} for i, r in enumerate(rows)]
    second.write_text("".join(json.dumps(r) + "\n" for r in rotated))
    out = tmp_path / "out"
    assert kgcite("evaluate-evaluator", "--bench", str(first), "--out", str(out), "--json").returncode == 0
    reused = kgcite("evaluate-evaluator", "--bench", str(second), "--out", str(out), "--json")
    fresh = kgcite("evaluate-evaluator", "--bench", str(second), "--json")
    assert reused.returncode == 0 and fresh.returncode == 0, reused.stderr
    assert json.loads(reused.stdout)["f1"] == json.loads(fresh.stdout)["f1"]
    changed = sum(r != t for r, t in zip(rows, rotated, strict=True))
    assert changed > 30 and len((out / "judgements.jsonl").read_text().splitlines()) == 40 + changed


def test_shipped_trained_evaluator_beats_chance(bench: Path) -> None:
    from kgcite.models.evaluator import TrainedEvaluator
    from kgcite.train.evaluator import read_bench

    rows = read_bench(bench)[:200]
    judged = (
        TrainedEvaluator()
        .load()
        .judge([AttributionItem(r["question"], r["answer_statement"], r["citation"]) for r in rows])
    )
    assert all(set(j.scores) == set(CATEGORIES) and abs(sum(j.scores.values()) - 1) < 1e-4 for j in judged)
    report = evaluator_report(rows, [j.category for j in judged])
    assert report["overall_micro_f1"] > 0.5  # chance is 0.25


def test_llm_evaluator_through_an_openai_compatible_server(bench: Path, llama_server: str, tmp_path: Path) -> None:
    """The CLI path a user with a real server takes: every judgement is an HTTP call to it."""
    out = tmp_path / "llm"
    args = (
        "evaluate-evaluator",
        "--bench",
        str(bench),
        "--evaluator",
        "llm-few",
        "--base-url",
        llama_server,
        "--model",
        "smollm2",
    )
    res = kgcite(*args, "--limit", "8", "--batch-size", "4", "--factscore", "0", "--json", "--out", str(out))
    assert res.returncode == 0, res.stderr
    r = json.loads(res.stdout)
    assert (
        r["n"] == 8 and r["evaluator"].startswith(f"llm-few:openai:{llama_server}") and 0 <= r["overall_micro_f1"] <= 1
    )
    lines = [json.loads(line) for line in (out / "judgements.jsonl").read_text().splitlines()]
    assert len(lines) == 8 and all(o["category"] in (*CATEGORIES, "unknown") for o in lines)
