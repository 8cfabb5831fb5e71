"""Text quality by G-Eval with KaLMA's four prompts (paper Tables 14–17), through any LLM backend.

Each aspect is scored 1–5. The reply is constrained to one digit (GBNF where the backend takes
grammars); where the backend returns token log-probabilities the score is the
probability-weighted mean of the digits, as G-Eval recommends, else the digit itself. Requests
use temperature 1 (with a fixed seed) so that the probabilities are the model's own, not a
greedy one-hot.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from kgcite.errors import LLMError
from kgcite.models.llm import LLM, ChatRequest, ChatResult

_INSTRUCTION = (
    "You will be given one question and answer. Your task is to rate the answer on one metric. "
    "Please make sure you read and understand these instructions carefully. Please keep this "
    "document open while reviewing, and refer to it as needed."
)

#: aspect → (criteria, evaluation steps), verbatim from KaLMA Tables 14–17.
ASPECTS: dict[str, tuple[str, str]] = {
    "coherence": (
        (
            "Coherence (1-5) - the collective quality of all sentences. We align this dimension with the DUC quality "
            "question of structure and coherence whereby the answer should be well-structured and well-organized. "
            "The answer should not just be a heap of related information, but should build from sentence to sentence "
            "to a coherent body of information about a topic."
        ),
        (
            "1. Read the questions carefully and identify the main topic and key points.\n"
            "2. Read the answer and compare it to the question. Check if the answer covers the main topic and key "
            "points of the question, and if it presents them in a clear and logical order.\n"
            "3. Assign a score for coherence on a scale of 1 to 5, where 1 is the lowest and 5 is the highest based "
            "on the Evaluation Criteria."
        ),
    ),
    "consistency": (
        (
            "Consistency (1-5) - the answer should be consistent with the given knowledge. The answer should also be "
            "self-consistent, without any contradiction to itself."
        ),
        (
            "1. Read the question and knowledge carefully.\n"
            "2. Read the answer and compare it to the knowledge. Check if the answer is consistent with the give "
            "knowledge.\n"
            "3. Assign a score for consistency on a scale of 1 to 5, where 1 is the lowest and 5 is the highest based "
            "on the Evaluation Criteria."
        ),
    ),
    "fluency": (
        (
            "Fluency (1-5) - the answer should be written in fluent language. The answer should use appropriate "
            "vocabulary, grammar, and sentence structures that enable readers or listeners to comprehend the content "
            "effortlessly."
        ),
        (
            "1. Read the question carefully.\n"
            "2. Read the answer and check if the language in the answer is fluent.\n"
            "3. Assign a score for fluency on a scale of 1 to 5, where 1 is the lowest and 5 is the highest based on "
            "the Evaluation Criteria."
        ),
    ),
    "relevance": (
        (
            "Relevance (1-5) - the answer should be relevant to the question. The answer should directly answers the "
            "question, without providing any irrelevant information."
        ),
        (
            "1. Read the question carefully.\n"
            "2. Read the answer and compare with the question to check if it fully answers the question and have no "
            "redundancies.\n"
            "3. Assign a score for relevance on a scale of 1 to 5, where 1 is the lowest and 5 is the highest based on "
            "the Evaluation Criteria."
        ),
    ),
}

SCORE_GRAMMAR = "root ::= [1-5]"


def geval_prompt(aspect: str, question: str, answer: str, knowledge: str = "") -> str:
    criteria, steps = ASPECTS[aspect]
    parts = [_INSTRUCTION, f"Evaluation Criteria:\n{criteria}", f"Evaluation Steps:\n{steps}", f"Question:\n{question}"]
    if aspect == "consistency" and knowledge:
        parts.append(f"Knowledge:\n{knowledge}")
    parts += [f"Answer:\n{answer}", f"Evaluation Form (scores ONLY):\n- {aspect.capitalize()}:"]
    return "\n\n".join(parts)


def weighted_score(result: ChatResult) -> float | None:
    """Σ p(d)·d over the digits 1–5 among the first token's alternatives (renormalised), else the
    first digit of the text, else None (an unreadable reply is not scored)."""
    probs: dict[int, float] = {}
    for token, logprob in result.top_logprobs:
        t = token.strip()
        if len(t) == 1 and t in "12345":
            probs[int(t)] = probs.get(int(t), 0.0) + math.exp(logprob)
    total = sum(probs.values())
    if total > 0:
        return sum(d * p for d, p in probs.items()) / total
    m = re.search(r"[1-5]", result.text)
    return float(m.group()) if m else None


@dataclass(frozen=True)
class QualityItem:
    question: str
    answer: str
    knowledge: str = ""


class GEval:
    """The four aspects for many answers: every request of a call goes to the backend in one batch."""

    def __init__(self, llm: LLM, aspects: Sequence[str] = tuple(ASPECTS), *, logprobs: int = 10) -> None:
        unknown = [a for a in aspects if a not in ASPECTS]
        if unknown:
            raise ValueError(f"unknown G-Eval aspect(s) {unknown}; choose from {list(ASPECTS)}")
        self.llm, self.aspects, self.logprobs = llm, tuple(aspects), logprobs

    def requests(self, item: QualityItem) -> list[ChatRequest]:
        return [
            ChatRequest.of(
                geval_prompt(a, item.question, item.answer, item.knowledge),
                max_tokens=1,
                grammar=SCORE_GRAMMAR,
                logprobs=self.logprobs,
                temperature=1.0,
            )
            for a in self.aspects
        ]

    def score(self, items: Sequence[QualityItem]) -> list[dict[str, float | None]]:
        """Per item, aspect → score (None where the backend failed or answered no digit)."""
        reqs = [r for item in items for r in self.requests(item)]
        replies = self.llm.chat_many(reqs)
        out = []
        k = len(self.aspects)
        for i in range(len(items)):
            row: dict[str, float | None] = {}
            for j, aspect in enumerate(self.aspects):
                reply = replies[i * k + j]
                row[aspect] = None if isinstance(reply, LLMError) else weighted_score(reply)
            out.append(row)
        return out


def mean_scores(rows: Sequence[dict[str, float | None]]) -> dict[str, float | None]:
    """Per aspect, the mean over the answers that got a score."""
    aspects = list(dict.fromkeys(a for r in rows for a in r))
    means: dict[str, float | None] = {}
    for a in aspects:
        vals = [v for r in rows if (v := r.get(a)) is not None]
        means[a] = sum(vals) / len(vals) if vals else None
    return means
