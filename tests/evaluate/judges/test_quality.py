"""G-Eval: the paper's prompts, probability-weighted scores, and a real local judge."""

from __future__ import annotations

import math

import pytest

from kgcite.evaluate.judges.quality import ASPECTS, GEval, QualityItem, geval_prompt, mean_scores, weighted_score
from kgcite.models.llamacpp import LlamaCppLLM
from kgcite.models.llm import ChatResult


def test_prompts_are_the_papers() -> None:
    p = geval_prompt("coherence", "Who was Stephen Crane?", "A writer.")
    assert "the DUC quality question of structure and coherence" in p  # Table 14
    assert p.rstrip().endswith("- Coherence:")
    c = geval_prompt("consistency", "Q?", "A.", knowledge="{name: Stephen Crane, qid: Q206534}")
    assert "compare it to the knowledge" in c and "Q206534" in c  # Table 15 sees the knowledge
    assert "Q206534" not in geval_prompt("fluency", "Q?", "A.", knowledge="{qid: Q206534}")
    assert set(ASPECTS) == {"coherence", "consistency", "fluency", "relevance"}


def test_weighted_score() -> None:
    lp = math.log
    r = ChatResult("4", "m", top_logprobs=(("4", lp(0.6)), ("5", lp(0.2)), ("Paris", lp(0.1)), (" 3", lp(0.2))))
    assert weighted_score(r) == pytest.approx((4 * 0.6 + 5 * 0.2 + 3 * 0.2) / 1.0)
    assert weighted_score(ChatResult("Score: 2", "m")) == 2.0  # no log-probs: the digit
    assert weighted_score(ChatResult("excellent", "m")) is None
    assert mean_scores([{"fluency": 4.0}, {"fluency": None}, {"fluency": 2.0}]) == {"fluency": 3.0}
    with pytest.raises(ValueError):
        GEval(None, ["style"])  # type: ignore[arg-type]


def test_geval_with_the_local_model(smollm: LlamaCppLLM) -> None:
    items = [
        QualityItem(
            "Where was Stephen Crane born?",
            "Stephen Crane was born in Newark.",
            "{name: Stephen Crane, place of birth: Newark}",
        )
    ]
    rows = GEval(smollm).score(items)
    assert set(rows[0]) == set(ASPECTS)
    for v in rows[0].values():
        assert v is not None and 1.0 <= v <= 5.0
    # llama.cpp returns log-probabilities, so scores are weighted means, not only integers
    assert any(v != int(v) for v in rows[0].values() if v is not None)
