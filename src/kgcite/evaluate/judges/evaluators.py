"""Attribution evaluators (CAQA §5): does the evidence support the answer to the question —
supportive, partially supportive, contradictory or irrelevant?

One Protocol, three kinds: ``trained`` (kgcite's 4-way cross-encoder, int8 ONNX, in
:mod:`kgcite.models.evaluator`), ``nli``
(AutoIS-style: supportive iff the NLI model says the evidence entails the answer statement;
anything else is ``not_supportive``, so only its supportive F1 means anything) and ``llm-zero`` /
``llm-few`` (CAQA Tables 12–13 through any LLM backend, labels read robustly).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from kgcite.models.evaluator import AttributionItem, Judgement
from kgcite.models.llm import LLM, ChatRequest, ChatResult
from kgcite.models.nli import NLIModel

NOT_SUPPORTIVE = "not_supportive"


@runtime_checkable
class AttributionEvaluator(Protocol):
    @property
    def name(self) -> str: ...

    def judge(self, items: Sequence[AttributionItem]) -> list[Judgement]: ...


class NLIEvaluator:
    """AutoIS-style: entailment of the answer statement by the evidence, sentence by sentence."""

    def __init__(self, nli: NLIModel) -> None:
        self.nli = nli

    @property
    def name(self) -> str:
        return f"nli:{self.nli.name}"

    def judge(self, items: Sequence[AttributionItem]) -> list[Judgement]:
        results = self.nli.predict([i.evidence for i in items], [i.answer_statement for i in items])
        return [
            Judgement(
                "supportive" if r.label == "entailment" else NOT_SUPPORTIVE, {"supportive": r.probs["entailment"]}
            )
            for r in results
        ]


INSTRUCTION = (
    "Below is an instruction that describes a task, paired with an input that provides further context. "
    "Write a response that appropriately completes the request.\n\n"
    "Instruction: Verify whether a given reference can support the claim. Options: Supportive, Insufficient, "
    "Contradictory or Irrelevant.\n\n"
)
ITEM = "Claim: {question} {answer}\n\nReference: {evidence}\n\nResponse:"
_SYNONYMS = {
    "supportive": "supportive",
    "support": "supportive",
    "supports": "supportive",
    "attributable": "supportive",
    "insufficient": "partially_supportive",
    "partially": "partially_supportive",
    "partial": "partially_supportive",
    "contradictory": "contradictory",
    "contradicts": "contradictory",
    "contradiction": "contradictory",
    "irrelevant": "irrelevant",
    "extrapolatory": "irrelevant",
    "unrelated": "irrelevant",
}
_WORD = re.compile(r"[a-z]+")


def read_label(text: str) -> str:
    """The first category word in a reply ("Insufficient.", "The answer is: contradictory because…");
    "unknown" when there is none (counted as wrong)."""
    low = text.lower()
    if "partially supportive" in low or "partially support" in low:
        return "partially_supportive"
    for w in _WORD.findall(low):
        if w in _SYNONYMS:
            return _SYNONYMS[w]
    return "unknown"


class LLMEvaluator:
    """CAQA's "Other Evaluators" prompt (Table 12); ``examples`` adds one demonstration per category (Table 13)."""

    def __init__(self, llm: LLM, examples: Sequence[tuple[AttributionItem, str]] = (), *, max_tokens: int = 16) -> None:
        self.llm, self.examples, self.max_tokens = llm, list(examples), max_tokens

    @property
    def name(self) -> str:
        return f"llm-{'few' if self.examples else 'zero'}:{self.llm.name}"

    def prompt(self, item: AttributionItem) -> str:
        shots = "".join(
            ITEM.format(question=e.question, answer=e.answer_statement, evidence=e.evidence) + f" {_SPOKEN[label]}\n\n"
            for e, label in self.examples
        )
        return (
            INSTRUCTION
            + shots
            + ITEM.format(question=item.question, answer=item.answer_statement, evidence=item.evidence)
        )

    def judge(self, items: Sequence[AttributionItem]) -> list[Judgement]:
        replies = self.llm.chat_many([ChatRequest.of(self.prompt(i), max_tokens=self.max_tokens) for i in items])
        out = []
        for r in replies:
            text = r.text if isinstance(r, ChatResult) else ""
            out.append(Judgement(read_label(text), {}))
        return out


_SPOKEN = {
    "supportive": "Supportive",
    "partially_supportive": "Insufficient",
    "contradictory": "Contradictory",
    "irrelevant": "Irrelevant",
}


def judge_rows(
    evaluator: AttributionEvaluator, rows: Sequence[Mapping[str, Any]], *, batch_size: int = 64
) -> tuple[list[str], float]:
    """Categories for CAQA-style rows (``question``, ``answer_statement``, ``citation``) and the
    seconds it took, in batches so a trained evaluator pads little and a progress bar can follow."""
    t0 = time.perf_counter()
    out: list[str] = []
    for b in range(0, len(rows), batch_size):
        chunk = rows[b : b + batch_size]
        out += [j.category for j in evaluator.judge([AttributionItem.of(r) for r in chunk])]
    return out, time.perf_counter() - t0
