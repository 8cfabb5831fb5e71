"""The re-ranker adapter: kgcite's shipped cross-encoder, score conventions, clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kgcite.errors import ModelError
from kgcite.models.rerank import OnnxReranker, load_reranker, relevance, relevant_column


def test_shipped_reranker_prefers_the_passage_that_answers(reranker: OnnxReranker) -> None:
    q = "Who directed Jaws?"
    passages = [
        "Jaws was released in 1975. Jaws is a thriller film.",
        "Jaws was directed by Steven Spielberg. Jaws was released in 1975.",
        "Alien was directed by Ridley Scott.",
    ]
    scores = reranker.score(q, passages)
    assert int(np.argmax(scores)) == 1 and all(0.0 <= s <= 1.0 for s in scores)
    before = reranker.scored
    assert reranker.score(q, passages[::-1]) == scores[::-1]  # cached by (question, passage), order kept
    assert reranker.scored == before


def test_score_conventions() -> None:
    assert relevant_column(["irrelevant", "relevant"]) == 1
    assert relevant_column(["LABEL_0", "LABEL_1"]) == 1
    assert relevant_column(["score"]) is None
    one = relevance(np.array([[0.0], [2.0]]), None)  # MS MARCO style single logit: sigmoid
    assert one.tolist() == pytest.approx([0.5, 1 / (1 + np.exp(-2))])
    two = relevance(np.array([[0.0, 0.0], [0.0, np.log(3.0)]]), 1)
    assert two.tolist() == pytest.approx([0.5, 0.75])


def test_missing_reranker_is_clear(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no re-ranker model here; train one with `kgcite train rerank`"):
        OnnxReranker(tmp_path).load()
    with pytest.raises(ModelError, match="not a re-ranker"):
        load_reranker(str(tmp_path / "missing"))
