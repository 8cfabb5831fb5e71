"""Bounded reads around hubs: an entity with millions of edges costs a count and a capped fetch.

A one-hop graph of a country or a year holds every person born there or then. Retrieval, the
web page and the beam need only a sample of each such relation, so the cut is decided from the
store's per-relation counts (:meth:`~kgcite.kg.store.KGStore.relation_degrees`, one aggregate
query) *before* any triple is fetched, and the counts are kept to say what was left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kgcite.kg.model import Subgraph, Triple
from kgcite.kg.store import KGStore

#: Triples of one relation and direction fetched around an entity; a hub's rest is counted, not read.
PER_RELATION = 200


@dataclass(frozen=True)
class Neighbourhood:
    """An entity's one-hop graph with at most ``per_relation`` triples of each relation and
    direction; ``cut`` holds ``(relation, inverse) → triples the store has`` for those cut."""

    graph: Subgraph
    cut: dict[tuple[str, bool], int] = field(default_factory=dict)

    @property
    def _entity(self) -> str | None:
        return self.graph.entities[0].id if self.graph.entities else None

    @property
    def total(self) -> int:
        """How many triples the store holds around the entity (the graph's plus those cut)."""
        return sum((relation_counts(self.graph.triples, self._entity) | self.cut).values())

    def smallest_first(self) -> list[Triple]:
        """The triples, rarer relations first (by the store's counts): a page of a hub shows its
        founder before its thousands of employees."""
        return rarest_first(self.graph.triples, self._entity, self.cut)


def relation_counts(triples: Sequence[Triple], entity_id: str | None) -> dict[tuple[str, bool], int]:
    """Triples per ``(relation, inverse)`` around ``entity_id`` (inverse: the entity is the object)."""
    counts: dict[tuple[str, bool], int] = {}
    for t in triples:
        key = (t.relation, t.subject_id != entity_id)
        counts[key] = counts.get(key, 0) + 1
    return counts


def rarest_first(
    triples: Sequence[Triple], entity_id: str | None, held: Mapping[tuple[str, bool], int] | None = None
) -> list[Triple]:
    """The triples around an entity, those of rarer relations first (stable); ``held``: the
    store's counts of relations read only in part."""
    counts = relation_counts(triples, entity_id) | dict(held or {})
    return sorted(triples, key=lambda t: counts[(t.relation, t.subject_id != entity_id)])


def capped_one_hop(store: KGStore, entity_id: str, per_relation: int = PER_RELATION) -> Neighbourhood:
    """The entity's one-hop graph, each (relation, direction) cut at ``per_relation`` triples.
    Queries: the entity, one count, then one fetch per direction, or one per relation where a
    direction has a relation to cut (each with a ``LIMIT``)."""
    entity = store.entity(entity_id)
    if entity is None:
        return Neighbourhood(Subgraph())
    degrees = store.relation_degrees(entity_id)
    cut = {(r, inverse): n for r, inverse, n in degrees if n > per_relation}
    triples: list[Triple] = []
    for inverse in (False, True):
        here = [(r, n) for r, inv, n in degrees if inv == inverse]
        if not here:
            continue
        if not any((r, inverse) in cut for r, _ in here):
            triples += store.incoming(entity_id) if inverse else store.outgoing(entity_id)
            continue
        for relation, n in here:
            limit = per_relation if n > per_relation else None
            if inverse:
                triples += store.match(relation=relation, object_id=entity_id, limit=limit)
            else:
                triples += store.match(subject_id=entity_id, relation=relation, limit=limit)
    return Neighbourhood(Subgraph((entity,), tuple(triples)), cut)
