"""The cross-encoder base: the cache, the batches and the model-spec parser (a stand-in scorer:
this is the logic around the model; the real models are tested in test_nli/test_rerank/evaluators)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kgcite.errors import ModelError
from kgcite.models.pairs import PairModel, parse_spec, shipped_dir

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


class Lengths(PairModel[int]):
    """Scores a pair by its total length and records every batch it was asked for."""

    def __init__(self) -> None:
        super().__init__(batch_size=2, cache_size=3)
        self.batches: list[list[tuple[str, str]]] = []

    def _scores(self, firsts: list[str], seconds: list[str]) -> np.ndarray:
        self.batches.append(list(zip(firsts, seconds, strict=True)))
        return np.array([len(a) + len(b) for a, b in zip(firsts, seconds, strict=True)])

    def _value(self, row: np.ndarray) -> int:
        return int(row)


def test_each_distinct_pair_is_scored_once_in_short_batches_and_answers_keep_their_order() -> None:
    model = Lengths()
    assert model.pairs(["aaaa", "a", "aa", "a"], ["b", "b", "b", "b"]) == [5, 2, 3, 2]
    assert model.batches == [[("a", "b"), ("aa", "b")], [("aaaa", "b")]]  # deduplicated, shortest first
    assert (model.hits, model.misses) == (1, 3)
    assert model.pairs(["aa"], ["b"]) == [3] and len(model.batches) == 2  # from the cache


def test_the_cache_forgets_the_least_recently_used_pair() -> None:
    model = Lengths()
    model.pairs(["a", "bb", "ccc"], ["x", "x", "x"])
    model.pairs(["a"], ["x"])  # a is now the most recent
    model.pairs(["dddd"], ["x"])  # over the size of 3: bb goes
    model.batches.clear()
    model.pairs(["a", "bb"], ["x", "x"])
    assert model.batches == [[("bb", "x")]]


def test_mismatched_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="2 first texts but 1 second"):
        Lengths().pairs(["a", "b"], ["c"])


def test_a_model_spec_names_the_shipped_model_an_export_or_a_hugging_face_folder(tmp_path: Path) -> None:
    assert parse_spec(None, "a re-ranker", "rerank").path == shipped_dir("rerank")
    assert parse_spec("kgcite", "a re-ranker", "rerank").kind == "onnx"
    assert parse_spec("t5:/x", "an NLI model", "nli", ("hf", "t5")) == parse_spec(
        "t5:/x", "an NLI model", "nli", ("t5",)
    )
    (tmp_path / "export").mkdir()
    (tmp_path / "export" / "model.onnx").write_bytes(b"")
    assert parse_spec(str(tmp_path / "export"), "a re-ranker", "rerank").kind == "onnx"
    assert parse_spec(str(tmp_path), "a re-ranker", "rerank").kind == "hf"
    with pytest.raises(ModelError, match="not an attribution evaluator .use kgcite, an ONNX export folder"):
        parse_spec(str(tmp_path), "an attribution evaluator", "evaluator", ())
    with pytest.raises(ModelError, match="hf:PATH, t5:PATH"):
        parse_spec("nowhere", "an NLI model", "nli", ("hf", "t5"))
