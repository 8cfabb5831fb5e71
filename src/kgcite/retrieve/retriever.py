"""KaLMA retrieval: the linked entities' one-hop subgraphs (§3.2)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from kgcite.kg.model import Subgraph
from kgcite.kg.store import KGStore
from kgcite.retrieve.linking import EntityLinker, LinkedEntity


@dataclass(frozen=True)
class Retrieval:
    question: str
    linked: tuple[LinkedEntity, ...]
    graph: Subgraph
    timings: dict[str, float] = field(default_factory=dict)


class KGRetriever:
    def __init__(self, store: KGStore, linker: EntityLinker) -> None:
        self.store, self.linker = store, linker

    def retrieve_many(self, questions: Sequence[str]) -> list[Retrieval]:
        t0 = time.perf_counter()
        links = self.linker.link_many(questions)
        link_s = (time.perf_counter() - t0) / max(1, len(questions))
        out = []
        for question, linked in zip(questions, links, strict=True):
            t1 = time.perf_counter()
            graph = Subgraph.merge(self.store.one_hop(le.entity.id) for le in linked)
            out.append(Retrieval(question, tuple(linked), graph, {"link": link_s, "retrieve": time.perf_counter() - t1}))
        return out

    def retrieve(self, question: str) -> Retrieval:
        return self.retrieve_many([question])[0]
