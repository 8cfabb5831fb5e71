"""The relation-grounding bi-encoder: its examples, a smoke training run, its threshold, and
adapting the shipped model to a user's graph through ``kgcite train paths --qa``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from kgcite.generate.pipeline import GroundedGenerator
from kgcite.kg import EmbeddedStore
from kgcite.retrieve.path_scorers import GROUNDING_FILE, grounding_scorer, shipped_grounding
from kgcite.retrieve.paths import Step
from kgcite.runtime import Runtime, RuntimeConfig
from kgcite.train.calibrate import asked_twice, highest_keeping, pipeline_curve
from kgcite.train.grounding import GroundingConfig, export_encoder, train_grounding
from kgcite.train.grounding_examples import StepMap, examples_for
from kgcite.train.paths import QAItem
from tests.helpers import BOOKS, kgcite

GOLD = (Step("written_by", True), Step("published_by"))


@pytest.fixture
def store(books_store: EmbeddedStore) -> EmbeddedStore:
    return books_store


def _item(store: EmbeddedStore) -> QAItem:
    topic = store.entity("Ines Calder")
    assert topic is not None
    return QAItem(
        "which publishers published the books written by [Ines Calder]", topic, ("Harbor Press", "Northwind"), GOLD
    )


def test_negatives_are_chains_the_graph_offers_never_the_gold_one(store: EmbeddedStore) -> None:
    wrong = StepMap(store).negatives("Ines Calder", GOLD, 5, random.Random(0))
    assert wrong and GOLD not in wrong
    assert GOLD[:1] in wrong  # one hop short
    offered = {Step(r, inv) for r, inv, _ in store.relation_degrees("Ines Calder")}
    assert all(c[0] in offered or c[0] == Step("written_by") for c in wrong)  # first hops the topic has (or reversed)


def test_examples_mask_the_topic_and_describe_chains_with_values(store: EmbeddedStore) -> None:
    [ex] = examples_for(store, [_item(store)], negatives=4, seed=0, source="books")
    assert ex.question == "which publishers published the books written by X"
    assert ex.positive.startswith("reverse of written by → published by (e.g. ")
    assert ex.positive not in ex.negatives and ex.hops == 2


def test_threshold_is_the_highest_that_keeps_the_pipelines_answers() -> None:
    rows = [
        {"threshold": 0.1, "hits_at_1": 0.910, "na_on_missing": 0.40},
        {"threshold": 0.3, "hits_at_1": 0.908, "na_on_missing": 0.50},
        {"threshold": 0.5, "hits_at_1": 0.880, "na_on_missing": 0.60},
    ]
    assert highest_keeping(rows) == 0.3
    assert highest_keeping(rows, tolerance=0.0) == 0.1
    assert highest_keeping(rows, tolerance=0.05) == 0.5


def test_the_calibration_curve_asks_the_whole_pipeline(store: EmbeddedStore) -> None:
    """Each dev question asked of its topic and of an entity lacking its relation, through the
    shipped scorer's pipeline: a threshold no chain clears leaves the two-hop question [NA]."""
    press = store.entity("Harbor Press")
    assert press is not None
    languages = QAItem(
        "which languages are the books published by [Harbor Press] in",
        press,
        ("Portuguese", "Danish"),
        (Step("published_by", True), Step("in_language")),
    )
    asked = asked_twice(store, [_item(store), languages], seed=1)
    assert [(a.topic.id, bool(a.answers)) for a in asked] == [
        ("Ines Calder", True),
        ("Harbor Press", False),
        ("Harbor Press", True),
        ("Ines Calder", False),
    ]
    generator = Runtime(RuntimeConfig(cache=None), store=store).generator("grounded")
    assert isinstance(generator, GroundedGenerator)
    low, high = pipeline_curve([(generator, asked)], [0.0, 50.0])
    assert low["hits_at_1"] == 1.0 and low["coverage"] == 1.0
    assert high["hits_at_1"] == 0.0  # one-hop statements alone: no publisher
    assert high["na_on_missing"] >= low["na_on_missing"]


def test_a_short_training_run_exports_a_scorer_that_loads(store: EmbeddedStore, tmp_path: Path) -> None:
    """Two steps of real training, the int8 export, and the scorer the CLI would build from it."""
    examples = examples_for(store, [_item(store)] * 4, negatives=3, seed=0, source="books")
    hf = train_grounding(examples, tmp_path / "run", GroundingConfig(batch_size=2, max_steps=2, save_every=1))
    assert (tmp_path / "run" / "checkpoint.pt").exists()
    out = tmp_path / "run" / "onnx"
    export_encoder(hf, out)
    assert json.loads((out / GROUNDING_FILE).read_text())["max_length"] == 48
    scorer = grounding_scorer(out, store)
    values = scorer.scores("which publishers published the books written by X", [GOLD, GOLD[:1]])
    assert values.shape == (2,) and np.all(np.abs(values) <= 1.0 + 1e-5)


def test_adapting_the_shipped_model_to_a_users_graph_then_asking(tmp_path: Path) -> None:
    """``kgcite train paths --qa`` adapts the shipped model in seconds; ``ask --path-scorer``
    answers with it, citing the path."""
    kb = tmp_path / "books.tsv"
    kb.write_text(BOOKS)
    qa = tmp_path / "train.jsonl"
    rows = [
        {"question": "who wrote Salt Roads", "answers": ["Ines Calder"], "topic": ["Salt Roads"]},
        {
            "question": "which publishers did Ines Calder's books come out with",
            "answers": ["Harbor Press", "Northwind"],
            "topic": "Ines Calder",
        },
        {"question": "where was the writer of [Night Ferry] born", "answers": ["Aarhus"]},
        {"question": "who is the mayor of [Lisbon]", "answers": ["Nobody"]},
    ]
    qa.write_text("".join(json.dumps({"id": str(i), **r} if i else r) + "\n" for i, r in enumerate(rows)))
    out = tmp_path / "adapted"
    res = kgcite("train", "paths", "--qa", str(qa), "--kg", str(kb), "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert "train.jsonl: 3 examples" in res.stderr and "skipped 1 (" in res.stderr and "): 3" in res.stderr
    assert (out / "adapter.npy").exists() and json.loads((out / GROUNDING_FILE).read_text())["adapter"] == "adapter.npy"
    assert "lexical weight, examples right when held out" in res.stderr and "<- chosen" in res.stderr
    assert "lexical_weight" in json.loads((out / GROUNDING_FILE).read_text())
    # the encoder is the shipped one's, shared where the file system allows: never a 22 MB copy there
    shipped = shipped_grounding() / "model.onnx"
    assert (out / "model.onnx").read_bytes() == shipped.read_bytes()
    assert (out / "model.onnx").stat().st_ino == shipped.stat().st_ino or shipped.stat().st_dev != out.stat().st_dev
    res = kgcite(
        "ask", "--kg", str(kb), "--path-scorer", str(out), "--no-cache", "Where was the author of Salt Roads born?"
    )
    assert res.returncode == 0, res.stderr
    assert "Lisbon" in res.stdout and "[NA]" not in res.stdout
    res = kgcite("train", "paths", "--qa", str(qa), "--out", str(out))
    assert res.returncode == 2 and "--kg" in res.stderr
