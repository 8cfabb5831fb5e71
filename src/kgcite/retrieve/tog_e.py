"""ToG-E: Think-on-Graph beam search pruned by text similarity instead of LLM calls.

EWEK-QA §3.1.2. From the topic entities, each depth (1) lists the relations around every
frontier entity and keeps the ``width`` most similar to the question, (2) walks them to at most
``max_neighbours`` entities each (a hub such as a language has thousands), (3) scores every
extended path against the question and keeps the ``width`` best. As in the paper there is no
stopping step: paths walk to ``depth`` (``stop_early`` lets a shorter path stay in the beam),
and the retrieved subgraph holds the triples of every path the beam kept at any depth, so the
answer of a 2-hop question is in it although the final paths go one hop further.
No LLM is called: :attr:`ToGEResult.llm_calls` is always 0 and is reported as such.

A path is scored by its *relation chain* (``directed by → directed by⁻¹ → in language``), so
the few distinct chains are embedded once and cached, plus ``entity_weight`` times the
similarity of the entity it ends at (labels cached too).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.kg.store import KGStore
from kgcite.retrieve.linking import EntityLinker
from kgcite.retrieve.scoring import TextScorer, content_stems, coverage
from kgcite.retrieve.topics import find_topics, resolve_topic, unbracketed
from kgcite.text.lexicon import property_label
from kgcite.timing import Timings

_FOCUS = re.compile(r"\b(?:which|what)\s+((?:\w+\s+){0,1}\w+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Hop:
    """One walked triple; ``inverse`` when it was walked from its object to its subject."""

    triple: Triple
    inverse: bool = False

    @property
    def target_id(self) -> str | None:
        return self.triple.subject_id if self.inverse else self.triple.object_id

    @property
    def target_label(self) -> str:
        return self.triple.subject_label if self.inverse else self.triple.object_value

    @property
    def relation_text(self) -> str:
        return property_label(self.triple.relation)


@dataclass(frozen=True, slots=True)
class GraphPath:
    start: Entity
    hops: tuple[Hop, ...] = ()
    score: float = 0.0

    @property
    def end_id(self) -> str | None:
        """The entity the path ends at; None when it ends at a literal value."""
        return self.hops[-1].target_id if self.hops else self.start.id

    @property
    def end_label(self) -> str:
        return self.hops[-1].target_label if self.hops else self.start.label

    def visits(self, entity_id: str) -> bool:
        return entity_id == self.start.id or any(h.target_id == entity_id for h in self.hops)

    def chain(self) -> str:
        """The relation chain a question is compared with."""
        return " → ".join(h.relation_text for h in self.hops)

    def labels(self) -> list[str]:
        """``[start, relation, entity, relation, entity, ...]`` as the CLI prints it."""
        out = [self.start.label]
        for h in self.hops:
            out += [h.triple.relation, h.target_label]
        return out


@dataclass(frozen=True, slots=True)
class ToGEConfig:
    width: int = 3  # W: relations kept per entity and paths kept per depth
    depth: int = 3  # D
    max_neighbours: int = 20  # entities taken per (entity, relation): the hub cap
    entity_weight: float = 0.0  # weight of the end entity's similarity in a path's score
    focus_weight: float = 0.5  # bonus of a last relation that names what the question asks for
    stop_early: bool = False  # True: shorter paths stay in the beam; False (the paper): all walk to ``depth``

    def __post_init__(self) -> None:
        if self.width < 1 or self.depth < 1 or self.max_neighbours < 1:
            raise ValueError("width, depth and max_neighbours must be at least 1")


@dataclass(frozen=True)
class ToGEResult:
    question: str
    topics: tuple[Entity, ...]
    paths: tuple[GraphPath, ...]
    graph: Subgraph
    ms: float
    llm_calls: int = 0
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def triples(self) -> tuple[Triple, ...]:
        """The paths' triples nearest the topic first: every path's first hop, then the second hops…"""
        depth = max((len(p.hops) for p in self.paths), default=0)
        return tuple(dict.fromkeys(p.hops[d].triple for d in range(depth) for p in self.paths if d < len(p.hops)))

    @property
    def timings(self) -> Timings:
        return Timings({"graph": self.ms / 1000}, llm_calls=self.llm_calls)

    def entity_ids(self) -> set[str]:
        """Every entity the retrieved triples name, the topics excepted."""
        return reached_entities(self.graph, self.topics)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "topics": [t.id for t in self.topics],
            "triples": [[t.subject_label, t.relation, t.object_value] for t in self.graph],
            "paths": [p.labels() for p in self.paths],
            "scores": [round(p.score, 4) for p in self.paths],
            "llm_calls": self.llm_calls,
            "ms": round(self.ms, 2),
        }


def reached_entities(graph: Subgraph, topics: Sequence[Entity]) -> set[str]:
    """Entities a retrieved subgraph names besides the topics: the candidate answers."""
    ids = {i for t in graph for i in (t.subject_id, t.object_id) if i is not None}
    return ids - {t.id for t in topics}


def focus_stems(question: str) -> list[str]:
    """What a question asks for: the words after "which"/"what" ("…in which languages" → languag)."""
    return [w for m in _FOCUS.finditer(question) for w in content_stems(m.group(1))]


class ToGE:
    """The beam search, a :class:`~kgcite.retrieve.base.GraphRetriever`. ``linker`` finds topics
    when none are given and the question brackets none."""

    def __init__(
        self,
        store: KGStore,
        scorer: TextScorer,
        config: ToGEConfig = ToGEConfig(),
        *,
        linker: EntityLinker | None = None,
    ) -> None:
        self.store, self.scorer, self.config, self.linker = store, scorer, config, linker

    # -- topics -------------------------------------------------------------------------------
    def resolve(self, topic: str) -> Entity:
        return resolve_topic(self.store, topic)

    def topics_for(self, question: str, topics: Sequence[str | Entity] | None = None) -> list[Entity]:
        return find_topics(self.store, question, topics, self.linker)

    # -- the search (template: relations → neighbours → paths) ---------------------------------
    def search(self, question: str, topics: Sequence[str | Entity] | None = None) -> ToGEResult:
        t0 = time.perf_counter()
        starts = self.topics_for(question, topics)
        query = unbracketed(question)
        stats = {"relation_lists": 0, "neighbour_queries": 0, "candidates": 0}
        beam = [GraphPath(e) for e in starts]
        kept_any: list[GraphPath] = []  # every path the beam held at some depth
        for _ in range(self.config.depth):
            candidates = [c for p in beam for c in self._extend(query, p, stats)]
            if not candidates:
                break
            stats["candidates"] += len(candidates)
            scored = self._score(query, candidates)
            kept = [p for p in beam if p.hops] if self.config.stop_early else []
            pool = sorted([*scored, *kept], key=lambda p: -p.score)
            beam = pool[: self.config.width]
            kept_any += beam
        paths = tuple(p for p in beam if p.hops)
        graph = Subgraph.merge(
            [Subgraph(tuple(starts)), *(Subgraph((), tuple(h.triple for h in p.hops)) for p in kept_any)]
        )
        return ToGEResult(question, tuple(starts), paths, graph, (time.perf_counter() - t0) * 1000, 0, stats)

    def _relations(self, query: str, entity_id: str, stats: dict[str, int]) -> list[tuple[str, bool]]:
        """The ``width`` relations around an entity most similar to the question."""
        stats["relation_lists"] += 1
        rels = [(r, inv) for r, inv, _ in self.store.relation_degrees(entity_id)]
        if len(rels) <= self.config.width:
            return rels
        texts = [property_label(r) for r, _ in rels]
        order = np.argsort(-self.scorer.scores(query, texts), kind="stable")
        return [rels[i] for i in order[: self.config.width]]

    def _extend(self, query: str, path: GraphPath, stats: dict[str, int]) -> list[GraphPath]:
        end = path.end_id
        if end is None:
            return []
        out = []
        for relation, inverse in self._relations(query, end, stats):
            stats["neighbour_queries"] += 1
            cap = self.config.max_neighbours + 1  # one more: the path's own previous entity may be among them
            if inverse:
                triples = self.store.match(relation=relation, object_id=end, limit=cap)
            else:
                triples = self.store.match(subject_id=end, relation=relation, limit=cap)
            hops = [Hop(t, inverse) for t in triples]
            hops = [h for h in hops if h.target_id is None or not path.visits(h.target_id)]
            out += [GraphPath(path.start, (*path.hops, h)) for h in hops[: self.config.max_neighbours]]
        return out

    def _score(self, query: str, paths: list[GraphPath]) -> list[GraphPath]:
        chains = [p.chain() for p in paths]
        distinct = list(dict.fromkeys(chains))
        chain_score = dict(zip(distinct, self.scorer.scores(query, distinct).tolist(), strict=True))
        scores = np.array([chain_score[c] for c in chains])
        focus = focus_stems(query)
        if focus and self.config.focus_weight:
            last = [coverage(p.hops[-1].relation_text, focus) for p in paths]
            scores = scores + self.config.focus_weight * np.array(last)
        if self.config.entity_weight:
            labels = [p.end_label for p in paths]
            scores = scores + self.config.entity_weight * self.scorer.scores(query, labels)
        return [replace(p, score=float(s)) for p, s in zip(paths, scores, strict=True)]
