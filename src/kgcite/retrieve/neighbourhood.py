"""The k-hop neighbourhood of the topic entities, breadth first: the baseline ToG-E must beat
with the same number of triples (what a retriever without any pruning would hand over)."""

from __future__ import annotations

from collections.abc import Sequence

from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.kg.store import KGStore


def khop_neighbourhood(store: KGStore, topics: Sequence[Entity], hops: int, max_triples: int) -> Subgraph:
    """Triples within ``hops`` of the topics in breadth-first order, cut at ``max_triples``."""
    seen = {t.id for t in topics}
    frontier = [t.id for t in topics]
    out: dict[tuple[str, str, str], Triple] = {}
    for _ in range(hops):
        nxt: list[str] = []
        for entity_id in frontier:
            for t in [*store.outgoing(entity_id), *store.incoming(entity_id)]:
                if len(out) >= max_triples:
                    return Subgraph(tuple(topics), tuple(out.values()))
                out.setdefault(t.key, t)
                for other in (t.subject_id, t.object_id):
                    if other is not None and other not in seen:
                        seen.add(other)
                        nxt.append(other)
        frontier = nxt
    return Subgraph(tuple(topics), tuple(out.values()))
