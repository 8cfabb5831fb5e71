"""KaLMA retrieval: the linked entities' one-hop subgraphs (§3.2)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from kgcite.errors import TopicError
from kgcite.kg.hubs import PER_RELATION, capped_one_hop
from kgcite.kg.model import Entity, Subgraph
from kgcite.kg.store import KGStore
from kgcite.retrieve.base import Retrieval
from kgcite.retrieve.linking import EntityLinker, LinkedEntity
from kgcite.retrieve.question import QuestionAnalyzer
from kgcite.retrieve.topics import find_topics
from kgcite.timing import Timings


class KGRetriever:
    """Analyse the question (asked relations rank namesakes), link, take the one-hop graphs.
    A :class:`~kgcite.retrieve.base.GraphRetriever`."""

    def __init__(
        self,
        store: KGStore,
        linker: EntityLinker,
        analyzer: QuestionAnalyzer | None = None,
        *,
        neighbours: int = 10,
        per_relation: int = PER_RELATION,
    ) -> None:
        self.store, self.linker = store, linker
        self._analyzer = analyzer
        self.max_neighbours = neighbours
        self.per_relation = per_relation

    @property
    def analyzer(self) -> QuestionAnalyzer:
        """Built on first use from the store's whole relation vocabulary."""
        if self._analyzer is None:
            self._analyzer = QuestionAnalyzer(self.store.relations())
        return self._analyzer

    def retrieve_many(
        self,
        questions: Sequence[str],
        topics: Sequence[Sequence[str | Entity] | None] | None = None,
        *,
        strict: bool = True,
    ) -> list[Retrieval]:
        """One retrieval per question. ``topics[i]`` (ids or labels) replaces linking for question
        ``i``; everything after it (the question reading, the one-hop graphs) is the same, so a
        question asked with the topic linking would find gets the same answer. A topic the graph
        lacks raises :class:`~kgcite.errors.TopicError`; with ``strict=False`` (a dataset run)
        that question alone gets no topic, and so the "no entity found" answer."""
        given = list(topics) if topics is not None else [None] * len(questions)
        if len(given) != len(questions):
            raise ValueError(f"{len(questions)} questions but {len(given)} topic lists")
        t0 = time.perf_counter()
        asked = [self.analyzer.analyse(q) for q in questions]
        todo = [i for i, t in enumerate(given) if not t]
        # no linking (nor the NER model it loads) for questions whose topics are given
        found = iter(
            self.linker.link_many([questions[i] for i in todo], [asked[i].relations for i in todo]) if todo else []
        )
        links = [self._given(q, t, strict) if t else next(found) for q, t in zip(questions, given, strict=True)]
        link_s = (time.perf_counter() - t0) / max(1, len(questions))
        out = []
        for question, linked in zip(questions, links, strict=True):
            t1 = time.perf_counter()
            reading = self.analyzer.analyse(
                question, [le.mention for le in linked] + [le.entity.label for le in linked]
            )
            hops = {le.entity.id: capped_one_hop(self.store, le.entity.id, self.per_relation) for le in linked}
            around = Subgraph.merge(h.graph for h in hops.values())
            near = self.linker.neighbours(linked, self.max_neighbours, around) if self.max_neighbours else []
            for e in near:
                hops.setdefault(e.id, capped_one_hop(self.store, e.id, self.per_relation))
            graph = Subgraph.merge(h.graph for h in hops.values())
            cut = {(e, r, inv): n for e, h in hops.items() for (r, inv), n in h.cut.items()}
            timings = Timings({"link": link_s, "retrieve": time.perf_counter() - t1})
            out.append(Retrieval(question, tuple(linked), graph, timings, reading, tuple(near), cut))
        return out

    def _given(self, question: str, topics: Sequence[str | Entity], strict: bool) -> list[LinkedEntity]:
        try:
            return [LinkedEntity(e, e.label, "TOPIC", 0) for e in find_topics(self.store, question, topics)]
        except TopicError:
            if strict:
                raise
            return []

    def retrieve(self, question: str) -> Retrieval:
        return self.retrieve_many([question])[0]

    def search(self, question: str, topics: Sequence[str | Entity] | None = None) -> Retrieval:
        """:class:`~kgcite.retrieve.base.GraphRetriever`'s call: :meth:`retrieve_many` for one question."""
        return self.retrieve_many([question], [topics] if topics else None)[0]
