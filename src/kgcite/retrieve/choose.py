"""Choosing the answering chain with an LLM: one grammar-constrained call per question.

The graph search walks and scores chains without a model call; where the user gives an LLM
(``--choose llm``), it is shown the best few chains the graph really walks, each with a few of
the entities it reaches, and picks one of them or none, in a single call whose grammar admits
only an option's number or ``none``. It can only choose among verified chains, so the answer
still cites triples the graph holds; ``none`` is ``[NA]``. (ToG spends up to 22 calls a question
exploring the graph with the LLM; here the graph is explored without it.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from kgcite.models.llm import LLM, ChatRequest
from kgcite.retrieve.paths import Chain, chain_text


@dataclass(frozen=True, slots=True)
class ChainOption:
    """A walked chain as the chooser sees it: its relations and a few entities it reaches."""

    chain: Chain
    reaches: tuple[str, ...]


@dataclass(frozen=True)
class ChooseConfig:
    """The chooser's bounds: ``top`` chains offered (best-scored first), ``shown`` of the
    entities each reaches, ``max_label`` characters of each label in the prompt."""

    top: int = 5
    shown: int = 3
    max_label: int = 60


class ChainChooser(Protocol):
    """Picks the option that answers the question (its index), or None: none does."""

    @property
    def name(self) -> str: ...

    @property
    def config(self) -> ChooseConfig: ...

    def choose(self, question: str, topic: str, options: Sequence[ChainOption]) -> int | None: ...


def one_line(text: str) -> str:
    """A label as one line of the prompt: no line breaks or control characters, so a label
    cannot start an option of its own."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


_PROMPT = """Question: {question}

Each option is a chain of relations in a knowledge graph, walked from {topic}, with some of the entities it reaches.

{options}

Which option answers the question? Reply with its number, or none if no option answers it."""

_SYSTEM = "You match questions to knowledge-graph relation chains. Reply with one option number or none."


class LLMChooser:
    """:class:`ChainChooser` over any :class:`~kgcite.models.llm.LLM` (an OpenAI-compatible
    server or embedded llama.cpp): one call, temperature 0, constrained to ``1``…``k`` or ``none``."""

    def __init__(self, llm: LLM, config: ChooseConfig = ChooseConfig()) -> None:
        self.llm, self.config = llm, config

    @property
    def name(self) -> str:
        return f"llm({self.llm.name})"

    def request(self, question: str, topic: str, options: Sequence[ChainOption]) -> ChatRequest:
        """The one request: the question, the options numbered from 1, a grammar of their numbers."""
        cut = self.config.max_label

        def said(text: str) -> str:
            text = one_line(text)
            return text if len(text) <= cut else text[: cut - 1] + "…"

        lines = []
        for i, o in enumerate(options, 1):
            reaches = ", ".join(said(r) for r in o.reaches[: self.config.shown])
            lines.append(f"{i}. {said(topic)} → {said(chain_text(o.chain))} → {reaches}")
        grammar = "root ::= " + " | ".join([*(f'"{i}"' for i in range(1, len(options) + 1)), '"none"'])
        prompt = _PROMPT.format(question=said(question), topic=said(topic), options="\n".join(lines))
        return ChatRequest.of(prompt, system=_SYSTEM, max_tokens=4, grammar=grammar)

    def choose(self, question: str, topic: str, options: Sequence[ChainOption]) -> int | None:
        if not options:
            return None
        reply = self.llm.chat(self.request(question, topic, options)).text.strip().lower()
        return int(reply) - 1 if reply.isdigit() and 1 <= int(reply) <= len(options) else None
