"""The contract every graph retriever keeps: a question (and, optionally, its topic entities) in,
the triples that bear on it out, best first, with how long each stage took.

Two retrievers keep it: :class:`~kgcite.retrieve.retriever.KGRetriever` (KaLMA: the linked
entities' one-hop graphs) and :class:`~kgcite.retrieve.tog_e.ToGE` (EWEK-QA's beam search over
relation paths). Anything that answers from graph evidence — the quote composer, a user's own
pipeline — takes a :class:`GraphRetriever` and works with either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.retrieve.linking import LinkedEntity
from kgcite.retrieve.reading import Reading
from kgcite.timing import Timings


@runtime_checkable
class GraphEvidence(Protocol):
    """What a search found: typed per retriever, these three fields in common."""

    @property
    def question(self) -> str: ...

    @property
    def triples(self) -> tuple[Triple, ...]:
        """Best first: the order an answer should cite them in when it cannot cite them all."""
        ...

    @property
    def timings(self) -> Timings:
        """Seconds per stage, and the LLM calls made."""
        ...


@runtime_checkable
class GraphRetriever(Protocol):
    def search(self, question: str, topics: Sequence[str | Entity] | None = None) -> GraphEvidence:
        """``topics`` (entity ids or labels) skip entity linking; without them the retriever finds its own."""
        ...


@dataclass(frozen=True)
class Retrieval:
    """KaLMA's retrieval of one question: the linked entities, their one-hop graphs, the reading."""

    question: str
    linked: tuple[LinkedEntity, ...]
    graph: Subgraph
    timings: Timings = field(default_factory=Timings)
    reading: Reading | None = None  # what the question asks for, read once
    neighbours: tuple[Entity, ...] = ()  # entities the linked ones point to, whose facts are in the graph too
    #: (entity id, relation, inverse) → triples the store holds, for each hub relation cut at
    #: the retriever's ``per_relation`` (what an answer must say it left out)
    cut: dict[tuple[str, str, bool], int] = field(default_factory=dict)

    @property
    def triples(self) -> tuple[Triple, ...]:
        return self.graph.triples


class ManyRetriever(Protocol):
    """What the generators take: a batch of questions (with their topics, if given) retrieved at once."""

    def retrieve_many(
        self,
        questions: Sequence[str],
        topics: Sequence[Sequence[str | Entity] | None] | None = None,
        *,
        strict: bool = True,
    ) -> list[Retrieval]: ...
