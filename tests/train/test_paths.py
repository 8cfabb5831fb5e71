"""Gold chains recovered from answers, and the pairs the path cross-encoder learns from."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgcite.kg import EmbeddedStore
from kgcite.retrieve.paths import Step
from kgcite.train.paths import QAItem, _Walker, generated_questions, gold_chain, path_pairs
from tests.conftest import BOOKS


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    path: Path = tmp_path_factory.mktemp("books") / "books.tsv"
    path.write_text(BOOKS)
    s = EmbeddedStore()
    s.load(path)
    return s


def test_the_shortest_chain_reaching_exactly_the_answers_is_gold(store: EmbeddedStore) -> None:
    chains = _Walker(store, 100).chains("Ines Calder", 2)
    assert gold_chain(chains, ["harbor_press", "Northwind"]) == (Step("written_by", True), Step("published_by"))
    assert gold_chain(chains, ["Harbor Press"]) is None  # no chain reaches exactly that


def test_two_chains_of_one_length_with_the_same_answers_are_ambiguous() -> None:
    a, b = (Step("directed_by"), Step("directed_by", True)), (Step("written_by"), Step("written_by", True))
    assert gold_chain({a: frozenset({"x"}), b: frozenset({"x"})}, ["x"]) is None
    assert gold_chain({a: frozenset({"x"}), (Step("r"),): frozenset({"x"})}, ["x"]) == (Step("r"),)


def test_pairs_mask_the_topic_and_never_call_a_right_chain_wrong(store: EmbeddedStore) -> None:
    items = [
        QAItem(
            "which publishers published the books written by [Ines Calder]",
            store.entity("Ines Calder"),
            ("Harbor Press", "Northwind"),
        ),  # type: ignore[arg-type]
        QAItem("who is the mayor of Lisbon", store.entity("Lisbon"), ("Someone",)),  # type: ignore[arg-type]
    ]
    pairs, skipped = path_pairs(store, items, negatives=3)
    assert skipped == 1
    relevant = [p for p in pairs if p.label == "relevant"]
    assert [(p.premise, p.hypothesis) for p in relevant] == [
        ("which publishers published the books written by X", "reverse of written by → published by")
    ]
    assert all(p.hypothesis != relevant[0].hypothesis for p in pairs if p.label == "irrelevant")
    assert any(p.hypothesis == "reverse of written by" for p in pairs)  # the gold chain's prefix is a negative


def test_generated_questions_are_answered_by_their_own_chain(store: EmbeddedStore) -> None:
    entities = [
        e for e in (store.entity(i) for i in ("The Glass Orchard", "Salt Roads", "Night Ferry", "Ines Calder")) if e
    ]
    items = list(generated_questions(store, entities, n=4, seed=1))
    assert items and all(it.topic.label in it.question and it.answers for it in items)
    pairs, skipped = path_pairs(store, items)
    assert len([p for p in pairs if p.label == "relevant"]) + skipped == len(items)


def test_train_paths_on_a_users_graph_then_answer_with_it(tmp_path: Path) -> None:
    """A few steps of ``kgcite train paths`` on a graph file and its questions; the export
    is then the scorer of ``kgcite ask``."""
    import json

    from tests.helpers import kgcite

    kb = tmp_path / "books.tsv"
    kb.write_text(BOOKS)
    qa = tmp_path / "train.jsonl"
    rows = [
        {"question": "who wrote Salt Roads", "answers": ["Ines Calder"], "topic": ["Salt Roads"]},
        {
            "question": "which publishers published the books written by Ines Calder",
            "answers": ["Harbor Press", "Northwind"],
            "topic": "Ines Calder",
        },
        {"question": "where was the writer of [Night Ferry] born", "answers": ["Aarhus"]},
    ]
    qa.write_text("".join(json.dumps({"id": str(i), **r}) + "\n" for i, r in enumerate(rows)))
    out = tmp_path / "run"
    res = kgcite(
        "train", "paths", "--qa", str(qa), "--kg", str(kb), "--out", str(out), "--max-steps", "2", "--batch-size", "4"
    )
    assert res.returncode == 0, res.stderr
    onnx = out / "onnx"
    assert (onnx / "model.onnx").exists() and json.loads((onnx / "train.json").read_text())["data"][
        "train.jsonl_questions"
    ] == 3
    res = kgcite(
        "ask",
        "--kg",
        str(kb),
        "--path-scorer",
        str(onnx),
        "--topic",
        "Night Ferry",
        "--no-cache",
        "where was the writer of Night Ferry born",
    )
    assert res.returncode == 0, (
        res.stderr
    )  # a two-step model decides nothing useful; it must load and answer or say [NA]
    assert "Night Ferry" in res.stdout
    res = kgcite("train", "paths", "--qa", str(qa), "--out", str(out))
    assert res.returncode == 2 and "--kg" in res.stderr
