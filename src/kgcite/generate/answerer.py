"""The contract every answer pipeline keeps: questions in, answers whose sentences carry their
citations out, one per question, a failed model call standing in for its question's answer.

Two pipelines keep it: :class:`~kgcite.generate.pipeline.Generator` (KaLMA: triple citations,
``grounded`` or ``free``) and :class:`~kgcite.generate.compose.QuoteAnswerer` (EWEK-QA: numbered
quotes from the graph and documents). Code that needs only questions in and cited answers out
takes an :class:`Answerer`, and works with either, or with a user's own pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from kgcite.errors import ModelError
from kgcite.generate.citations import Sentence


@runtime_checkable
class Answer(Protocol):
    @property
    def question(self) -> str: ...

    @property
    def sentences(self) -> tuple[Sentence, ...]:
        """Each with its citations; a sentence the evidence does not support carries ``[NA]``."""
        ...

    @property
    def answer(self) -> str:
        """The text with its citation marks, as a user reads it."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The JSON object written to answer files and returned by the server."""
        ...


@runtime_checkable
class Answerer(Protocol):
    def answer(self, question: str, topics: Sequence[str] | None = None) -> Answer:
        """One question (``topics``: its topic entities, ids or labels, in place of linking); a
        model failure raises."""
        ...

    def answer_many(
        self, questions: Sequence[str], topics: Sequence[Sequence[str] | None] | None = None
    ) -> Sequence[Answer | ModelError]:
        """Several questions in one batch (models see them together), each with its optional
        topics; failures in place."""
        ...
