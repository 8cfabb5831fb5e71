"""The structured attribution evaluator: its rules, its combiner, and the commands users run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kgcite.evaluate.judges.structured import (
    FEATURES,
    Combiner,
    StructuredEvaluator,
    analyse,
    load_structured,
    read,
)
from kgcite.evaluate.metrics.attribution import CATEGORIES
from kgcite.models.evaluator import AttributionItem
from kgcite.train.structured import fit
from tests.helpers import kgcite

ORDINARY = Path(__file__).resolve().parents[3] / "benchmarks" / "data" / "attribution" / "ordinary.jsonl"

Q = "Who starred in the films written by the writer of Tarn Road?"
S = "Ivo Brandt starred in the films written by the writer of Tarn Road."


@pytest.mark.parametrize(
    ("evidence", "category"),
    [
        (
            "[1] Mara Kell wrote Tarn Road. [2] Mara Kell wrote Low Tide. [3] Ivo Brandt appears in Low Tide.",
            "supportive",
        ),
        (
            "[1] Mara Kell wrote Low Tide. [2] Ivo Brandt appears in Low Tide.",
            "partially_supportive",
        ),  # topic's hop gone
        (
            "[1] Mara Kell wrote Tarn Road. [2] Mara Kell wrote Low Tide. [3] Oda Fenn starred in Low Tide.",
            "contradictory",  # the chain asked about ends at another person
        ),
        ("[1] Oslo is a city. [2] The Vell is a river.", "irrelevant"),
    ],
)
def test_the_rules_read_the_chain(evidence: str, category: str) -> None:
    a = analyse(read(AttributionItem(Q, S, evidence)))
    assert a.rule == category, a.reason


def test_every_feature_is_in_range_and_named() -> None:
    a = analyse(read(AttributionItem(Q, S, "[1] Mara Kell wrote Tarn Road.")))
    assert set(a.values) == set(FEATURES) and all(0.0 <= v <= 1.0 for v in a.values.values())


def test_the_combiner_learns_a_rule_and_explains_itself() -> None:
    """Pure: on made-up features where one feature decides, the fitted network finds it."""
    rng = np.random.default_rng(0)
    x = rng.random((400, len(FEATURES)))
    decider = FEATURES.index("answers stated")
    labels = [CATEGORIES[int(v * 3.999)] for v in x[:, decider]]
    params = fit(x, labels, ["g"] * len(labels), epochs=600, hidden=16)
    combiner = Combiner(
        {"features": list(FEATURES), "labels": list(CATEGORIES)} | {k: v.tolist() for k, v in params.items()}
    )
    predicted = [CATEGORIES[i] for i in combiner.probabilities(x).argmax(1)]
    assert np.mean([p == g for p, g in zip(predicted, labels, strict=True)]) > 0.9
    top = int(x[:, decider].argmax())  # the clearest case: its deciding feature is among the three named
    assert "answers stated" in [name for name, _ in combiner.influence(x[top], CATEGORIES.index(predicted[top]))]


def test_a_combiner_trained_with_a_text_model_needs_it() -> None:
    weights = {
        "features": [*FEATURES, "text model: supportive"],
        "labels": list(CATEGORIES),
        "w1": [[0.0]] * (len(FEATURES) + 1),
        "b1": [0.0],
        "w2": [[0.0] * 4],
        "b2": [0.0] * 4,
    }
    with pytest.raises(ValueError, match="text model"):
        StructuredEvaluator(Combiner(weights))


def test_shipped_combiner_judges_and_explains() -> None:
    ev = load_structured()
    (j,) = ev.judge([AttributionItem(Q, S, "[1] Mara Kell wrote Low Tide. [2] Ivo Brandt appears in Low Tide.")])
    assert j.category == "partially_supportive" and abs(sum(j.scores.values()) - 1) < 1e-6
    assert j.why is not None and j.why["rule"] == "partially_supportive" and "tarn road" in j.why["reason"]
    assert [f["answers"] for f in j.why["facts"]] == [[], ["ivo brandt"]]
    assert ev.judge([]) == []


def test_cli_scores_the_twelve_ordinary_cases_by_default(tmp_path: Path) -> None:
    """The door users use: `evaluate-evaluator` with no --evaluator is the structured one."""
    out = tmp_path / "eval"
    res = kgcite("evaluate-evaluator", "--bench", str(ORDINARY), "--factscore", "0", "--json", "--out", str(out))
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["evaluator"] == "struct" and report["n"] == 12
    assert report["overall_micro_f1"] >= 10 / 12 - 1e-9  # the gate: at least ten of the twelve
    lines = [json.loads(line) for line in (out / "judgements.jsonl").read_text().splitlines()]
    assert all(o["why"]["facts"] and o["why"]["reason"] for o in lines)


def test_cli_attribution_says_why(tmp_path: Path) -> None:
    args = ("attribution", Q, "--answer", S, "--evidence", "[1] Oslo is a city. [2] The Vell is a river.")
    res = kgcite(*args)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("irrelevant") and "rules: irrelevant" in res.stdout
    assert "[2] The Vell is a river." in res.stdout and "decided by" in res.stdout
    js = json.loads(kgcite(*args, "--json").stdout)
    assert js["category"] == "irrelevant" and js["why"]["facts"][1]["other names"] == ["vell"]
    bad = kgcite(*args, "--evaluator", "struct:" + str(tmp_path / "none"))
    assert bad.returncode == 2 and "kgcite train struct" in bad.stderr


def test_cli_trains_a_combiner_and_scores_it(tmp_path: Path) -> None:
    res = kgcite("train", "struct", "--graphs", "synthetic", "biokalma", "--per-graph", "20", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.splitlines()[0])["graphs"].keys() == {"synthetic", "biokalma"}
    scored = kgcite(
        "evaluate-evaluator",
        "--bench",
        str(ORDINARY),
        "--evaluator",
        f"struct:{tmp_path}",
        "--factscore",
        "0",
        "--json",
    )
    assert scored.returncode == 0, scored.stderr and json.loads(scored.stdout)["n"] == 12
    misuse = kgcite("train", "struct", "--bench", str(ORDINARY), "--without", "metaqa", "--out", str(tmp_path))
    assert misuse.returncode == 2 and "--without" in misuse.stderr


def test_evidence_that_names_everything_but_links_nothing_is_never_supportive() -> None:
    """Every word of the statement is cited, but no fact links the mayor to Harrowgate."""
    res = kgcite(
        "attribution",
        "Who is the mayor of Harrowgate?",
        "--answer",
        "The mayor of Harrowgate is Sefa Okoro.",
        "--evidence",
        "[1] Port Ellis's mayor is Sefa Okoro. [2] Harrowgate's population is 41200.",
        "--json",
    )
    assert res.returncode == 0, res.stderr
    js = json.loads(res.stdout)
    assert js["category"] != "supportive" and js["why"]["rule"] == "partially_supportive"
