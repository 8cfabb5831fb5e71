"""The evaluation commands end to end: nli, eval all (resumable, report files), both experiments."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from kgcite.experiments import items_with_minimum, remove_knowledge, replace_graphs
from kgcite.kg.loaders import shipped_data
from tests.helpers import kgcite

SAMPLES = shipped_data("samples", "biokalma_sample_answers.jsonl")
MINIMUM_SETS = shipped_data("samples", "minimum_sets.jsonl")


def test_nli_json_contract() -> None:
    res = kgcite(
        "nli", "--premise", "Stephen Crane was born in Newark.", "--hypothesis", "place of birth: Newark", "--json"
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["label"] == "entailment"
    assert set(out["probs"]) == {"entailment", "neutral", "contradiction"}
    assert abs(sum(out["probs"].values()) - 1) < 1e-3
    text = kgcite("nli", "--premise", "Stephen Crane was born in Newark.", "--hypothesis", "place of death: Newark")
    assert text.stdout.splitlines()[0] in ("neutral", "contradiction")


def test_eval_all_json_report_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "eval"
    res = kgcite("eval", "all", "--answers", str(SAMPLES), "--out", str(out), "--json")
    assert res.returncode == 0, res.stderr
    metrics = json.loads(res.stdout)
    cit = json.loads(kgcite("eval", "citations", "--answers", str(SAMPLES), "--json").stdout)
    assert {k: metrics[k] for k in cit} == cit  # the citation keys, unchanged
    assert 0 < metrics["alignment"] <= 1 and metrics["n_alignment_pairs"] > 0
    assert "na_precision" not in metrics  # no absent set given
    assert {p.name for p in out.iterdir()} == {"report.md", "metrics.json", "metrics.png", "per_answer.jsonl"}
    assert (out / "metrics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = (out / "report.md").read_text()
    assert "| Align. | Corr. |" in report
    assert (
        f"# Evaluation of `{SAMPLES.name}`" in report and str(SAMPLES.parent) not in report
    )  # served pages show no paths
    lines = (out / "per_answer.jsonl").read_text().splitlines()
    again = kgcite("eval", "all", "--answers", str(SAMPLES), "--out", str(out), "--json")
    assert json.loads(again.stdout) == metrics
    assert (out / "per_answer.jsonl").read_text().splitlines() == lines  # nothing judged twice


def test_eval_all_na_scores_and_bad_lines(tmp_path: Path) -> None:
    rec = {
        "id": "na-1",
        "question": "Where was Stephen Crane born and where did he die?",
        "answer": "Stephen Crane was born in Newark [Q206534, place of birth: Newark]. He died in Badenweiler [NA].",
        "kg": [{"qid": "Q206534", "name": "Stephen Crane", "place of birth": "Newark"}],
        "minimum_knowledge": [["Q206534", "place of birth", "Newark"], ["Q206534", "place of death", "Badenweiler"]],
        "absent_knowledge": [["Q206534", "place of death", "Badenweiler"]],
    }
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps(rec) + "\n" + '{"id": "bad", "question": "q"}\n')
    bad = kgcite("eval", "all", "--answers", str(path), "--out", str(tmp_path / "e1"))
    assert bad.returncode == 2 and f"{path}:2: minimum_knowledge: missing" in bad.stderr
    res = kgcite("eval", "all", "--answers", str(path), "--out", str(tmp_path / "e2"), "--skip-bad", "--json")
    m = json.loads(res.stdout)
    assert (m["na_precision"], m["na_recall"], m["n_skipped"]) == (1.0, 1.0, 1)
    assert (m["gap_precision"], m["gap_recall"]) == (1.0, 1.0)  # "He died in Badenweiler" names (Crane, place of death)
    assert "Conscious incompetence" in (tmp_path / "e2" / "report.md").read_text()


def test_removal_and_replacement_are_deterministic_and_nested() -> None:
    items = items_with_minimum(MINIMUM_SETS)
    assert len(items) == 20 and all(len(it.minimum) == 3 for it in items)
    one, two = remove_knowledge(items[0], 1, 0), remove_knowledge(items[0], 2, 0)
    assert set(one.absent or ()) < set(two.absent or ()) and len(two.absent or ()) == 2
    assert not set(two.absent or ()) & two.graph.keys and len(two.graph) == len(items[0].graph) - 2
    assert remove_knowledge(items[0], 2, 0) == two
    swapped60 = {c.id for c, it in zip(replace_graphs(items, 60, 0), items, strict=True) if c.graph is not it.graph}
    swapped80 = {c.id for c, it in zip(replace_graphs(items, 80, 0), items, strict=True) if c.graph is not it.graph}
    assert len(swapped60) == 8 and len(swapped80) == 4 and swapped80 < swapped60


def test_removal_removes_knowledge_written_in_another_spelling() -> None:
    item = items_with_minimum(MINIMUM_SETS)[0]
    respelled = replace(item, minimum=tuple((q, p.replace(" ", "_").upper(), v) for q, p, v in item.minimum))
    cond = remove_knowledge(respelled, 3, 0)
    assert len(cond.graph) == len(item.graph) - 3
    assert not any(k in cond.graph for k in item.minimum)


def test_experiments_write_table_and_plots(tmp_path: Path) -> None:
    for kind, plots in (
        ("removal", {"figure4_na.png", "table5_citations.png"}),
        ("retrieval", {"figure5_retrieval.png"}),
    ):
        out = tmp_path / kind
        res = kgcite(
            "experiment", kind, "--dataset", str(MINIMUM_SETS), "--out", str(out), "--limit", "5", "--no-rewrite"
        )
        assert res.returncode == 0, res.stderr
        assert plots <= {p.name for p in out.iterdir()}
        rows = json.loads((out / "results.json").read_text())
        assert len(rows) == (4 if kind == "removal" else 5)
        recall = [r["recall_micro"] for r in rows]
        assert recall[0] > recall[-1]  # less knowledge (or worse graphs), less recall
        if kind == "removal":
            assert rows[-1]["n_absent"] == 15 and "| 0 (gold) |" in res.stdout
            # grounded answers name each removed (entity, property) the question asked for
            assert rows[-1]["gap_recall"] >= 0.9 and rows[-1]["gap_precision"] >= 0.9 and "gap recall" in res.stdout
