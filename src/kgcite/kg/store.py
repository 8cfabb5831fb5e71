"""The one interface every knowledge-graph backend offers to retrieval and evaluation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from kgcite.errors import KGError  # noqa: F401 - re-exported: stores raise it
from kgcite.kg.model import Entity, Subgraph, Triple


@runtime_checkable
class KGStore(Protocol):
    """Read access to a knowledge graph, whatever holds it (embedded store, SPARQL endpoint)."""

    def entity(self, entity_id: str) -> Entity | None:
        """The entity with this id, or None if the graph does not know it."""
        ...

    def entities_by_label(self, text: str, *, prefix: bool = False, limit: int = 50) -> list[Entity]:
        """Entities whose label or an alias equals ``text`` (case-insensitive), or starts with it."""
        ...

    def outgoing(self, entity_id: str) -> list[Triple]:
        """Triples whose subject is the entity."""
        ...

    def incoming(self, entity_id: str) -> list[Triple]:
        """Triples whose object is the entity."""
        ...

    def one_hop(self, entity_id: str) -> Subgraph:
        """The entity with its outgoing and incoming triples: KaLMA's retrieved graph of one entity."""
        ...

    def match(
        self,
        subject_id: str | None = None,
        relation: str | None = None,
        value: str | None = None,
        object_id: str | None = None,
        *,
        limit: int | None = None,
    ) -> list[Triple]:
        """Triples matching every given part (``value`` matches a literal or an object's label)."""
        ...

    def relations(self) -> list[str]:
        """All relation labels used in the graph, sorted."""
        ...

    def common_values(self, relation: str, *, inverse: bool = False, limit: int = 10) -> list[tuple[str, int]]:
        """The labels of the values ``relation`` reaches most often (``inverse``: of the things it
        starts from), with their counts: most frequent first, ties by IRI or text. Every store
        computes the same list, unlike the order rows come in."""
        ...

    def relation_degrees(self, entity_id: str) -> list[tuple[str, bool, int]]:
        """``(relation, inverse, count)`` around an entity, ``inverse`` for incoming triples:
        what a graph walk may follow from it, known before any neighbour is fetched."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class BatchReads(Protocol):
    """Reads of many entities in one round trip: what a remote store offers so that a graph walk
    costs a few requests per step instead of one per entity (an embedded store has no need)."""

    def relation_degrees_many(self, entity_ids: Sequence[str]) -> dict[str, list[tuple[str, bool, int]]]:
        """:meth:`KGStore.relation_degrees` of each entity."""
        ...

    def match_many(
        self, entity_ids: Sequence[str], relation: str, *, inverse: bool, limit: int
    ) -> dict[str, list[Triple]]:
        """For each entity, at most ``limit`` triples of ``relation`` from it (``inverse``: to it)."""
        ...
