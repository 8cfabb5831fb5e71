"""Answering as relation-path reasoning: which chain of relations leads from the topic to the answer?

The search is ToG-E's beam (EWEK-QA §3.1.2) over *relation chains* rather than single entity
paths: at each depth every kept chain is extended by the relations found around the entities
it reaches, all extensions are scored against the question by a :class:`PathScorer`, and the
``width`` best are walked. The chain the scorer likes best at *any* depth wins, so the hop
count comes from the scores, not from the depth limit. Its end entities are the answers, each
with the triples that reach it from a topic entity (its citation). A second topic entity is a
constraint: the answers are cut to those it reaches in one hop. No LLM is called.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from kgcite.kg.keys import LABEL_PROPERTY, property_key
from kgcite.kg.model import Entity, Triple
from kgcite.kg.namesakes import spoken
from kgcite.kg.store import BatchReads, KGStore
from kgcite.retrieve.linking import EntityLinker
from kgcite.retrieve.reach import answer_reach, reaches, walks_back, with_described
from kgcite.retrieve.sides import goes_as_said
from kgcite.retrieve.topics import find_topics
from kgcite.text.lexicon import property_label
from kgcite.timing import Timings

if TYPE_CHECKING:
    from kgcite.retrieve.choose import ChainChooser


@dataclass(frozen=True, slots=True)
class Step:
    """One relation walked forwards (subject → object) or, ``inverse``, backwards."""

    relation: str
    inverse: bool = False

    def text(self) -> str:
        """How models read the step: ``directed by`` forwards, ``reverse of directed by`` backwards."""
        label = property_label(self.relation)
        return f"reverse of {label}" if self.inverse else label


Chain = tuple[Step, ...]


def chain_text(chain: Chain) -> str:
    return " → ".join(s.text() for s in chain)


@runtime_checkable
class PathScorer(Protocol):
    """How well each relation chain answers the question (higher is better, comparable across
    lengths: the best chain of any length is the answer path)."""

    @property
    def name(self) -> str: ...

    @property
    def threshold(self) -> float:
        """The score a chain needs to be an answer path at all."""
        ...

    def scores(self, question: str, chains: Sequence[Chain]) -> np.ndarray: ...


@runtime_checkable
class ScoresNear(Protocol):
    """A scorer that can score again knowing which relations occur around the topic."""

    def rescore(self, question: str, chains: Sequence[Chain], near: AbstractSet[str]) -> np.ndarray: ...


@runtime_checkable
class KnowsShort(Protocol):
    """A scorer that can tell the part of each chain's score that says it stops short of what
    is asked: the beam keeps such chains to walk on ("In which province is the works that makes
    X?": the works' town is no province, and the province lies one hop past it); and which of
    them answer nothing at all, wherever the walk ends."""

    def shortfall(self, question: str, chains: Sequence[Chain]) -> np.ndarray: ...

    def stops_short(self, question: str, chains: Sequence[Chain]) -> np.ndarray: ...


@runtime_checkable
class KnowsComplete(Protocol):
    """A scorer that can tell a chain no longer chain can beat (every relation the question
    names is walked, and nothing else): the search stops there instead of walking deeper."""

    def complete(self, question: str, chain: Chain) -> bool: ...


@runtime_checkable
class KnowsNamed(Protocol):
    """A scorer that can tell whether the question's words name a relation of a chain, as
    opposed to the chain merely being the nearest likeness of the question."""

    def names(self, question: str, chain: Chain, *, every: bool = False) -> bool:
        """``every``: each hop, not just one, is named by a word of the question."""
        ...


@runtime_checkable
class Prepares(Protocol):
    """A scorer that can do ahead of time the work each chain costs it the first time it is
    scored (the bi-encoder's encoding of the chain's text)."""

    def prepare(self, chains: Sequence[Chain], progress: Callable[[int, int], None] | None = None) -> int:
        """Do it for ``chains``; how many needed it (the rest were done already).
        ``progress(done, total)`` is called as it goes."""
        ...


@dataclass(frozen=True, slots=True)
class PathAnswer:
    """One answer entity and the triples from a topic entity to it, in walking order."""

    id: str
    label: str
    triples: tuple[Triple, ...]
    walks: int = 1  # how many walks along the chain reach it


@dataclass(frozen=True, slots=True)
class ScoredChain:
    chain: Chain
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": [[s.relation, s.inverse] for s in self.chain],
            "text": chain_text(self.chain),
            "score": round(self.score, 4),
        }


@dataclass(frozen=True)
class PathConfig:
    depth: int = 3  # D: the longest chain considered
    width: int = 4  # chains walked per depth
    threshold: float | None = None  # best score below this → no answer ([NA]); None: the scorer's own
    constrained_top: int = 12  # walked chains, best first, that a second topic may constrain
    max_frontier: int = 200  # entities walked from per chain and depth (hubs are cut here)
    relation_sample: int = 40  # entities whose relations are listed to extend a chain
    # chains scored per depth: an entity with 50,000 relations costs this many, those walking a
    # relation the question reader found asked first, the rest in walk order (the answer says so)
    max_chains: int = 500
    # a one-hop chain no word of the question names still answers, as a named one does, where the
    # scorer picks it clearly: a score of at least ``lead_floor`` and ahead of every other chain
    # scored by ``lead_margin`` ("Who performed in X?" → `starred actors` 0.60, next 0.39; "X is
    # in what tongue?" → `in language` 0.64, next 0.38). Measured with the shipped grounding
    # model: ambiguous questions lead by 0.02-0.12 ("What is X categorized as?": genre 0.59, tags
    # 0.53); it changed no answer of the abstention benchmark or of the users' graphs
    lead_floor: float = 0.45
    lead_margin: float = 0.15

    def __post_init__(self) -> None:
        limits = (self.depth, self.width, self.max_frontier, self.relation_sample, self.max_chains)
        if min(limits) < 1:
            raise ValueError("depth, width, max_frontier, relation_sample and max_chains must be at least 1")


@dataclass(frozen=True)
class PathResult:
    question: str
    topics: tuple[Entity, ...]
    best: ScoredChain | None  # None: no chain cleared the threshold
    candidates: tuple[ScoredChain, ...]  # every chain scored, best first
    answers: tuple[PathAnswer, ...]
    ms: float
    llm_calls: int = 0
    truncated: bool = False  # a hub was cut: the answers may be incomplete
    constraints: tuple[str, ...] = ()  # labels of topic entities used as constraints
    stats: dict[str, int] = field(default_factory=dict)
    named: bool = True  # a word of the question names a relation of the best chain (False: likeness alone)
    named_every: bool = True  # … and every hop of it has such a word
    unscored: int = 0  # chains left unscored past ``PathConfig.max_chains``: the answers may be incomplete
    chosen_by: str | None = None  # the chooser that picked ``best`` among the walked chains (None: the score)

    @property
    def answered(self) -> bool:
        return bool(self.answers)

    def predicted(self) -> list[str]:
        return [a.label for a in self.answers]

    @property
    def triples(self) -> tuple[Triple, ...]:
        """The answers' cited chains, best answer first."""
        return tuple(self.cited())

    @property
    def timings(self) -> Timings:
        return Timings({"graph": self.ms / 1000}, llm_calls=self.llm_calls)

    def cited(self) -> list[Triple]:
        """Every triple the answers rest on, each once, in answer order."""
        return list({(t.key, t.object_id): t for a in self.answers for t in a.triples}.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "topics": [t.id for t in self.topics],
            "path": self.best.to_dict() if self.best else None,
            "candidates": [c.to_dict() for c in self.candidates[:5]],
            "answers": [
                {
                    "id": a.id,
                    "label": a.label,
                    "triples": [[t.subject_label, t.relation, t.object_value] for t in a.triples],
                }
                for a in self.answers
            ],
            "truncated": self.truncated,
            "constraints": list(self.constraints),
            "llm_calls": self.llm_calls,
            "chosen_by": self.chosen_by,
            "ms": round(self.ms, 2),
        }


#: A layer of the walk: entity reached → the first triple that reached it, the entity it came
#: from, and how many walks reached it (answers reached by more walks rank first).
Layer = dict[str, tuple[Triple, str, int]]


def mask_topics(question: str, topics: Sequence[Entity]) -> str:
    """The question with brackets dropped and each topic's mention replaced by ``X``: the scorer
    should read the relations asked, not words of a name ("The Director's Cut")."""
    text = question.replace("[", "").replace("]", "")
    for t in topics:
        # a "Name (role)" label is said "Name the role" or "Name" too
        for name in sorted({v for n in t.names() for v in spoken(n)}, key=len, reverse=True):
            if name and len(name) > 1:
                new = re.sub(re.escape(name), "X", text, flags=re.IGNORECASE)
                if new != text:
                    text = new
                    break
    return text


@dataclass(frozen=True, slots=True)
class Prepared:
    """What :meth:`PathReasoner.prepare` did: the graph's chains, how many were new to the
    scorer (the rest it had already, from an earlier process's cache), and the seconds taken."""

    chains: int
    new: int
    seconds: float


class GraphWalker:
    """The walk a relation-path search takes, shared by :class:`PathReasoner` and training: the
    steps around a chain's frontier, the next layer a step reaches, and the answers at the end
    with the triples that reach them. Store reads are cached (bounded): hubs come back question
    after question. ``met`` records the steps offered during the current search."""

    def __init__(self, store: KGStore, *, max_frontier: int = 200, relation_sample: int = 40) -> None:
        self.store, self.max_frontier, self.relation_sample = store, max_frontier, relation_sample
        self._by_name: dict[str, str | None] = {}
        self._names: dict[str, str] = {}
        self._literal: bool | None = None
        self._fetched: dict[tuple[str, Step], list[Triple]] = {}
        self._offered: dict[str, tuple[Step, ...]] = {}
        self._degrees: dict[str, list[tuple[str, bool, int]]] = {}  # read ahead in batches, not yet offered
        self.met: list[tuple[Step, ...]] = []

    def chains(self, topic: str, depth: int) -> dict[Chain, frozenset[str]]:
        """Every chain of 1..depth relations from ``topic`` → the labels it ends at (topic
        excluded, lower-case): what recovering a question's gold chain compares."""
        out: dict[Chain, frozenset[str]] = {}
        level: list[tuple[Chain, list[Layer]]] = [((), [])]
        for _ in range(depth):
            nxt = []
            for chain, layers in level:
                for step in self.steps(topic, layers):
                    if doubles_back(chain, step):
                        continue
                    layer, _ = self.walk(topic, layers, step)
                    if not layer:
                        continue
                    new, grown = (*chain, step), [*layers, layer]
                    out[new] = frozenset(a.label.lower() for a in self.answers(topic, grown))
                    nxt.append((new, grown))
            level = nxt
        return out

    def schema(self, depth: int, *, sample: int = 20, limit: int = 10_000) -> list[Chain]:
        """The chains a search on this graph could score, shortest first, at most ``limit``:
        each relation both ways from ``sample`` of the nodes it starts from, then the steps the
        walk offers where those walks arrive. A chain's text never depends on its topic, so
        these are the texts to encode before the first question (:meth:`PathReasoner.prepare`)."""
        level: list[tuple[Chain, list[Layer]]] = []
        for relation in self.store.relations():
            if property_key(relation) == LABEL_PROPERTY:
                continue
            triples = self.store.match(relation=relation, limit=sample)
            for inverse in (False, True):
                starts: Layer = {}
                for t in triples:
                    node = (
                        (t.object_id or (self.links_by_name and self._named(t.object_value)))
                        if inverse
                        else t.subject_id
                    )
                    if node:
                        starts.setdefault(node, (t, node, 1))
                step = Step(relation, inverse)
                if starts and (layer := self.walk("", [starts], step)[0]):
                    level.append(((step,), [starts, layer]))
        out = [chain for chain, _ in level][:limit]
        for _ in range(depth - 1):
            grown: list[tuple[Chain, list[Layer]]] = []
            for chain, layers in level:
                for step in self.steps("", layers):
                    if len(out) >= limit:
                        break
                    if doubles_back(chain, step) or not (layer := self.walk("", layers, step)[0]):
                        continue
                    grown.append(((*chain, step), [*layers, layer]))
                    out.append(grown[-1][0])
            level = grown
        self.met = []
        return out

    def _fetch(self, node: str, step: Step) -> list[Triple]:
        """The triples one step from a node, cached (bounded): the store describes every triple
        it returns (labels), which dominates a walk. At most ``max_frontier + 1`` are read: a hub
        is cut before its edges are fetched, and the one more tells the walk it was cut."""
        key = (node, step)
        if key not in self._fetched:
            if len(self._fetched) > 200_000:
                self._fetched.clear()
            limit = self.max_frontier + 1
            if step.inverse:
                triples = self.store.match(relation=step.relation, object_id=node, limit=limit)
                if not triples and self.links_by_name and (name := self._name(node)):
                    triples = [
                        t
                        for t in self.store.match(relation=step.relation, value=name, limit=limit)
                        if t.object_id is None
                    ]
            else:
                triples = self.store.match(subject_id=node, relation=step.relation, limit=limit)
            self._fetched[key] = triples
        return self._fetched[key]

    @property
    def links_by_name(self) -> bool:
        """A graph whose values are names, not entity ids (BioKaLMA JSON, CSV exports): the walk
        then goes on from the one entity a value names. Decided once from a sample of triples."""
        if self._literal is None:  # a few triples of each relation (index reads), not the store's first 200
            sample = [t for r in self.store.relations()[:50] for t in self.store.match(relation=r, limit=10)]
            self._literal = bool(sample) and sum(t.object_id is not None for t in sample) < len(sample) / 10
        return self._literal

    def _named(self, value: str) -> str | None:
        """The one entity whose label is ``value`` (case-insensitive), or None (none, or namesakes)."""
        if value not in self._by_name:
            exact = [e for e in self.store.entities_by_label(value, limit=3) if e.label.lower() == value.lower()]
            self._by_name[value] = exact[0].id if len(exact) == 1 else None
        return self._by_name[value]

    def _name(self, node: str) -> str | None:
        if node not in self._names:
            e = self.store.entity(node)
            self._names[node] = e.label if e else ""
        return self._names[node] or None

    def _frontier(self, start: str, layers: list[Layer]) -> list[str]:
        """The entities the next step leaves from; the topic, where a chain came back to it,
        last: an answer then cites a walk through another entity where one exists."""
        if not layers:
            return [start]
        nodes = [n for n in layers[-1] if n != start]
        return nodes + [start] if len(nodes) < len(layers[-1]) else nodes

    def steps(self, start: str, layers: list[Layer]) -> list[Step]:
        """Relations around (a sample of) the entities a chain has reached; never an entity's
        own name (a walk through it comes back where it started)."""
        found: dict[Step, None] = {}
        sample = self._frontier(start, layers)[: self.relation_sample]
        self._read_degrees(sample)
        for node in sample:
            found.update(dict.fromkeys(self.around(node)))
        self.met.append(tuple(found))
        return [s for s in found if property_key(s.relation) != LABEL_PROPERTY]

    def _read_degrees(self, nodes: Sequence[str]) -> None:
        """On a store that reads many entities a request (a remote one), the relations around
        every node not yet known, in one round trip per hundred."""
        todo = [n for n in nodes if n not in self._offered and n not in self._degrees]
        if isinstance(self.store, BatchReads) and len(todo) > 1:
            self._degrees.update(self.store.relation_degrees_many(todo))

    def _read_steps(self, nodes: Sequence[str], step: Step) -> None:
        """The same for one step's triples from every node of a frontier."""
        todo = [n for n in nodes if (n, step) not in self._fetched]
        if isinstance(self.store, BatchReads) and len(todo) > 1:
            found = self.store.match_many(todo, step.relation, inverse=step.inverse, limit=self.max_frontier + 1)
            for node, triples in found.items():
                if triples or not (step.inverse and self.links_by_name):  # a name link is looked up alone
                    self._fetched[(node, step)] = triples

    def around(self, node: str) -> tuple[Step, ...]:
        """The steps a node offers (cached like :meth:`_fetch`)."""
        if node not in self._offered:
            if len(self._offered) > 200_000:
                self._offered.clear()
            degrees = self._degrees.pop(node, None)
            if degrees is None:
                degrees = self.store.relation_degrees(node)
            steps = [Step(relation, inverse) for relation, inverse, _ in degrees]
            if self.links_by_name and (name := self._name(node)):
                steps += [Step(t.relation, True) for t in self.store.match(value=name, limit=200)]
            self._offered[node] = tuple(dict.fromkeys(steps))
        return self._offered[node]

    def walk(self, start: str, layers: list[Layer], step: Step) -> tuple[Layer, bool]:
        """The next layer: every entity one ``step`` from the frontier (a literal ends the walk).
        Returns it and whether the frontier was cut at ``max_frontier``."""
        frontier = self._frontier(start, layers)
        cut = len(frontier) > self.max_frontier
        layer: Layer = {}
        self._read_steps(frontier[: self.max_frontier], step)
        for node in frontier[: self.max_frontier]:
            triples = self._fetch(node, step)
            if len(triples) > self.max_frontier:
                cut, triples = True, triples[: self.max_frontier]
            if step.inverse:
                pairs = [(t.subject_id, t) for t in triples]
            else:
                by_name = self.links_by_name
                pairs = [
                    (t.object_id or (by_name and self._named(t.object_value)) or f"\x00{t.object_value}", t)
                    for t in triples
                ]
            for target, t in pairs:
                first = layer.get(target)
                layer[target] = (t, node, 1) if first is None else (first[0], first[1], first[2] + 1)
        return layer, cut

    def answers(self, start: str, layers: list[Layer]) -> list[PathAnswer]:
        """End entities (never the topic itself), each with its chain of triples: those reached
        only back through the topic last ("films that share writers with X" are other films than
        X), then those reached by more walks ("films sharing most actors with X"), then in walk
        order (the store gives each step's triples in one order, :func:`~kgcite.kg.sparql.in_order`)."""
        found: list[tuple[bool, int, int, PathAnswer]] = []
        for target, (triple, _, walks) in layers[-1].items():
            if target == start:
                continue
            chain, node, via_topic = [], target, False
            for layer in reversed(layers):
                t, node, _ = layer[node]
                chain.append(t)
                via_topic = via_topic or (node == start and layer is not layers[0])
            answer = PathAnswer(target.lstrip("\x00"), _label_of(target, triple), tuple(reversed(chain)), walks)
            found.append((via_topic, -walks, len(found), answer))
        return [answer for *_, answer in sorted(found, key=lambda f: f[:3])]


def _label_of(target: str, triple: Triple) -> str:
    """The label of the end a walk reached: the triple's subject (walked backwards) or its value."""
    return triple.subject_label if target == triple.subject_id else triple.object_value


class PathReasoner:
    """Template: walk (:class:`GraphWalker`) → score (``scorer``) → keep → answer.

    The beam is pruned by ``scorer``, which must be cheap: it sees every extension (the grounding
    bi-encoder caches every chain's vector, so a question costs one encoding). :meth:`answer`
    takes resolved topics; :meth:`search` (the :class:`~kgcite.retrieve.base.GraphRetriever`
    call) resolves them, or has ``linker`` find them."""

    def __init__(
        self,
        store: KGStore,
        scorer: PathScorer,
        config: PathConfig = PathConfig(),
        *,
        linker: EntityLinker | None = None,
        chooser: ChainChooser | None = None,
    ) -> None:
        self.store, self.scorer, self.linker, self.chooser = store, scorer, linker, chooser
        self.walker = GraphWalker(store, max_frontier=config.max_frontier, relation_sample=config.relation_sample)
        self.config = config

    @property
    def config(self) -> PathConfig:
        return self._config

    @config.setter
    def config(self, config: PathConfig) -> None:
        """A new config reaches the walker's limits too."""
        self._config = config
        self.walker.max_frontier, self.walker.relation_sample = config.max_frontier, config.relation_sample

    @property
    def name(self) -> str:
        return self.scorer.name

    @property
    def threshold(self) -> float:
        if self.config.threshold is not None:
            return self.config.threshold
        return self.scorer.threshold

    def prepare(self, progress: Callable[[int, int], None] | None = None, *, limit: int = 10_000) -> Prepared:
        """Score-ready before the first question: the graph's chains (:meth:`GraphWalker.schema`,
        at most ``limit``) encoded now, which otherwise each question pays for as it meets them."""
        t0 = time.perf_counter()
        chains = self.walker.schema(self.config.depth, limit=limit)
        done = self.scorer.prepare(chains, progress) if isinstance(self.scorer, Prepares) else 0
        return Prepared(len(chains), done, time.perf_counter() - t0)

    def search(self, question: str, topics: Sequence[str | Entity] | None = None) -> PathResult:
        """The cited chains of the answers; no evidence when no topic is given or found."""
        found = find_topics(self.store, question, topics, self.linker)
        return self.answer(question, found) if found else PathResult(question, (), None, (), (), 0.0)

    def answer(self, question: str, topics: Sequence[Entity], must_walk: AbstractSet[str] = frozenset()) -> PathResult:
        """The best walked chain clearing the threshold, and its answers. ``must_walk``: relations
        the question reader found asked (:attr:`~kgcite.retrieve.reading.Reading.relations`);
        when given, only a chain walking one of them may answer ("What town is the club of X
        from?" names ``home city``: X's club, however alike, is not the answer)."""
        t0 = time.perf_counter()
        if not topics:
            raise ValueError("path reasoning needs at least one topic entity")
        main, others = topics[0], topics[1:]
        query = mask_topics(question, topics)
        stats = {"chains_scored": 0, "walks": 0}
        self.walker.met = []
        truncated, unscored = False, 0
        asked = {property_key(r) for r in must_walk}
        # "Who trains the team X plays for?": X's team is the description, not the answer
        reach = answer_reach(query, "X")
        described = with_described(query, "X", "Y")  # "Who taught Y?" for "Who taught the conductor of X?"
        beam: list[tuple[Chain, list[Layer]]] = [((), [])]
        scored: dict[Chain, float] = {}
        walked: dict[Chain, list[Layer]] = {}
        for depth in range(1, self.config.depth + 1):
            extensions: dict[Chain, list[Layer]] = {}
            for chain, layers in beam:
                steps = self.walker.steps(main.id, layers)
                own = bool(chain) or any(not s.inverse for s in steps)  # the topic has facts of its own
                for step in steps:
                    if not chain and not goes_as_said(query, "X", step.relation, step.inverse, own_facts=own):
                        continue  # "Who coaches X?" is not asked from X's pupils
                    if len(chain) == 1 and described and not goes_as_said(described, "Y", step.relation, step.inverse):
                        continue  # nor "Who taught the conductor of X?" from her pupils
                    if not doubles_back(chain, step):
                        extensions.setdefault((*chain, step), layers)
            if not extensions:
                break
            chains, left = bounded(list(extensions), asked, self.config.max_chains)
            unscored += left
            values = self.scorer.scores(query, chains)
            stats["chains_scored"] += len(chains)
            scored.update(zip(chains, map(float, values), strict=True))
            # a chain that stops short is walked on, before the last depth (its score says it stops short)
            kept = values
            if isinstance(self.scorer, KnowsShort) and depth < self.config.depth:
                kept = values - self.scorer.shortfall(query, chains)
            order = np.argsort(-kept, kind="stable")[: self.config.width]
            best_so_far = max(scored, key=scored.__getitem__)
            stop = isinstance(self.scorer, KnowsComplete) and self.scorer.complete(query, best_so_far)
            beam = []
            for i in order:
                chain = chains[int(i)]
                layer, cut = self.walker.walk(main.id, extensions[chain], chain[-1])
                stats["walks"] += 1
                if set(layer) - {main.id}:  # a chain back to the topic alone answers nothing
                    walked[chain] = [*extensions[chain], layer]
                    beam.append((chain, walked[chain]))
                    truncated |= cut and chain == chains[int(order[0])]
            if stop and best_so_far in walked and reaches(best_so_far, reach):
                break
        if walked and isinstance(self.scorer, ScoresNear):  # the final reading knows the neighbourhood
            near = {s.relation for steps in self.walker.met for s in steps}
            final = list(walked)
            scored.update(zip(final, map(float, self.scorer.rescore(query, final, near)), strict=True))
        if reach == "back":  # a peer word names the way back: X's named relation there and back is as good as there
            for chain in [c for c in scored if len(c) == 2 and c[:1] in scored and walks_back(*c)]:
                if self._named(query, chain[:1], every=True):
                    scored[chain] = max(scored[chain], scored[chain[:1]])
        threshold = self.threshold
        ranked = tuple(ScoredChain(c, s) for c, s in sorted(scored.items(), key=lambda kv: -kv[1]))
        ranked_asked = [
            c for c in ranked if c.chain in walked and walks_any(c.chain, asked) and reaches(c.chain, reach)
        ]
        if isinstance(self.scorer, KnowsShort) and ranked_asked:
            # a chain that stops short of the rank of place asked answers nothing: "In which county
            # was X born?" is [NA] where the graph lacks the birthplace's county
            short = self.scorer.stops_short(query, [c.chain for c in ranked_asked])
            ranked_asked = [c for c, s in zip(ranked_asked, short, strict=True) if not s]
        fit = [c for c in ranked_asked if c.score >= threshold]
        used: list[str] = []
        calls, chosen_by = 0, None
        picked: tuple[ScoredChain, list[PathAnswer]] | None = None
        if self.chooser is not None and not others:
            picked, calls, chosen_by = *self._choose(question, main, fit, walked), self.chooser.name
        else:
            if others and (constrained := self._constrained(query, main.id, ranked_asked, walked, others, threshold)):
                picked, used = constrained, [o.label for o in others]
            elif fit:  # no second topic, or none constrains: the best chain clearing the threshold
                picked = fit[0], self.walker.answers(main.id, walked[fit[0].chain])
        if picked is None:
            return PathResult(
                question,
                tuple(topics),
                None,
                ranked,
                (),
                _ms(t0),
                calls,
                truncated=False,
                stats=stats,
                unscored=unscored,
                chosen_by=chosen_by,
            )
        best, answers = picked
        return PathResult(
            question,
            tuple(topics),
            best,
            ranked,
            tuple(answers),
            _ms(t0),
            calls,
            truncated=truncated,
            constraints=tuple(used),
            stats=stats,
            unscored=unscored,
            # a peer word ("X's team-mates") names going out and back, whatever the relation
            named=reach == "back" or self._named(query, best.chain) or self.leads(best, ranked),
            named_every=reach == "back" or self._named(query, best.chain, every=True),
            chosen_by=chosen_by,
        )

    def leads(self, best: ScoredChain, ranked: Sequence[ScoredChain]) -> bool:
        """Whether a one-hop chain is the scorer's clear pick among every chain scored
        (:attr:`PathConfig.lead_floor`, :attr:`PathConfig.lead_margin`): a question that asks one of
        the topic's relations in words its name does not use, where nothing else comes near."""
        if len(best.chain) != 1 or best.score < self.config.lead_floor:
            return False
        runner_up = max((c.score for c in ranked if c.chain != best.chain), default=float("-inf"))
        return best.score - runner_up >= self.config.lead_margin

    def _named(self, query: str, chain: Chain, *, every: bool = False) -> bool:
        """Whether the scorer counts the chain named by the question's words (true for a scorer
        that does not tell)."""
        return not isinstance(self.scorer, KnowsNamed) or self.scorer.names(query, chain, every=every)

    def _choose(
        self, question: str, main: Entity, options: Sequence[ScoredChain], walked: dict[Chain, list[Layer]]
    ) -> tuple[tuple[ScoredChain, list[PathAnswer]] | None, int]:
        """The chooser's pick among the best-scored walked chains that clear the threshold
        (those walking an asked relation, where the reader found one), with its answers, and the
        LLM calls it took (one; none when nothing clears). Its ``none`` is no answer. The score
        stays the ``[NA]`` signal: a chain the scorer would not answer with is never offered, and
        the pick is named as the scorer's would be, so the plan's rules for standing in for a
        missing fact hold as they do without a chooser."""
        from kgcite.retrieve.choose import ChainOption

        assert self.chooser is not None
        top = list(options[: self.chooser.config.top])
        if not top:
            return None, 0
        reached = [self.walker.answers(main.id, walked[c.chain]) for c in top]
        offered = [ChainOption(c.chain, tuple(a.label for a in got)) for c, got in zip(top, reached, strict=True)]
        pick = self.chooser.choose(question, main.label, offered)
        return (None if pick is None else (top[pick], reached[pick])), 1

    def _constrained(
        self,
        query: str,
        start: str,
        ranked: Sequence[ScoredChain],
        walked: dict[Chain, list[Layer]],
        others: Sequence[Entity],
        threshold: float,
    ) -> tuple[ScoredChain, list[PathAnswer]] | None:
        """Second topics constrain ("books by X published by Y"): each walked chain's answers are
        cut to those every other topic touches in one triple, and the chain *with the
        constraint's relation appended* is scored again (the relation the constraint accounts
        for is asked of it, not of the chain). The best such chain clearing the threshold whose
        answers survive, or None."""
        options: list[tuple[Chain, ScoredChain, list[PathAnswer]]] = []
        for candidate in ranked[: self.config.constrained_top]:
            kept, steps = self.walker.answers(start, walked[candidate.chain]), []
            for other in others:
                kept, step = self._constrain(kept, other)
                if step is not None:
                    steps.append(step)
            if kept:
                options.append(((*candidate.chain, *steps), candidate, kept))
        if not options:
            return None
        values = self.scorer.scores(query, [o[0] for o in options])
        top = int(np.argmax(values))
        if values[top] < threshold:
            return None
        _, candidate, kept = options[top]
        return ScoredChain(candidate.chain, float(values[top])), kept

    def _constrain(self, answers: list[PathAnswer], other: Entity) -> tuple[list[PathAnswer], Step | None]:
        """Answers linked to ``other`` by one triple, each citing it too ([] if none is), and the
        step from an answer to ``other`` that the first link takes."""
        by_id = {a.id: a for a in answers}
        kept: dict[str, PathAnswer] = {}
        step: Step | None = None
        for t in [*self.store.outgoing(other.id), *self.store.incoming(other.id)]:
            near = t.subject_id if t.object_id == other.id else t.object_id
            if near in by_id and near not in kept:
                a = by_id[near]
                kept[near] = PathAnswer(a.id, a.label, (*a.triples, t), a.walks)
                step = step or Step(t.relation, inverse=t.subject_id == other.id)
        return [kept[a.id] for a in answers if a.id in kept], step


def bounded(chains: list[Chain], asked: AbstractSet[str], limit: int) -> tuple[list[Chain], int]:
    """At most ``limit`` of a depth's chains, those whose last hop walks an ``asked`` relation
    (property keys) first, the rest in walk order, and how many were left out: the scorer's work
    per answer is bounded however many relations an entity has."""
    if len(chains) <= limit:
        return chains, 0
    first = [c for c in chains if property_key(c[-1].relation) in asked]
    kept = set((first + [c for c in chains if property_key(c[-1].relation) not in asked])[:limit])
    return [c for c in chains if c in kept], len(chains) - len(kept)


def walks_any(chain: Chain, relations: AbstractSet[str]) -> bool:
    """The chain walks one of ``relations`` (property keys), or none is required."""
    return not relations or any(property_key(s.relation) in relations for s in chain)


def doubles_back(chain: Sequence[Step], step: Step) -> bool:
    """``r, r⁻¹, r``: there, back and there again reaches nothing ``r`` alone does not name."""
    return len(chain) >= 2 and chain[-2] == step and chain[-1] == Step(step.relation, not step.inverse)


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000
