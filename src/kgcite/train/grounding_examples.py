"""The examples ``kgcite train paths`` learns from: a masked question, its gold chain's text, and
wrong chains the graph really offers (the other relations at each hop, a prefix, a longer chain, a
hop walked the other way), all described as the path scorer reads chains at run time."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kgcite.kg.model import Triple
from kgcite.kg.store import KGStore
from kgcite.retrieve.path_scorers import chain_description, graph_examples
from kgcite.retrieve.paths import Chain, Step, doubles_back, mask_topics
from kgcite.train.paths import QAItem, walker_for


@dataclass(frozen=True, slots=True)
class GroundingExample:
    """One masked question, its gold chain's text and wrong chains' texts, from one graph."""

    question: str
    positive: str
    negatives: tuple[str, ...]
    source: str
    hops: int


class StepMap:
    """What a graph offers a walk: the steps around a topic, and the steps found after each step
    (from a sample of where it lands). Negatives drawn from it are chains a beam really weighs."""

    def __init__(self, store: KGStore, sample: int = 25) -> None:
        self.store, self.sample = store, sample
        self._walker = walker_for(store, sample)
        self._after: dict[Step, tuple[Step, ...]] = {}

    def at(self, node: str) -> tuple[Step, ...]:
        return self._walker.around(node)

    def after(self, step: Step) -> tuple[Step, ...]:
        if step not in self._after:
            triples = self.store.match(relation=step.relation, limit=self.sample * 4)
            starts = list(
                dict.fromkeys((t.object_id or t.object_value) if step.inverse else t.subject_id for t in triples)
            )
            found: dict[Step, None] = {}
            for start in starts[: self.sample]:
                layer, _ = self._walker.walk(start, [], step)
                for node in list(layer)[:3]:
                    if not node.startswith("\x00"):
                        found.update(dict.fromkeys(self.at(node)))
            self._after[step] = tuple(found)
        return self._after[step]

    def negatives(self, topic: str, gold: Chain, k: int, rng: random.Random) -> list[Chain]:
        """Up to ``k`` wrong chains: another step at some hop (cut there, or with gold's rest),
        gold one hop shorter or longer, and gold with a hop reversed."""
        pool: dict[Chain, None] = {}
        for i in range(len(gold)):
            offered = self.at(topic) if i == 0 else self.after(gold[i - 1])
            others = [s for s in offered if s != gold[i] and not doubles_back(gold[:i], s)]
            for s in rng.sample(others, min(3, len(others))):
                pool[(*gold[:i], s)] = None
                if i + 1 < len(gold):
                    pool[(*gold[:i], s, *gold[i + 1 :])] = None
        near: list[Chain] = [gold[:i] for i in range(1, len(gold))]
        longer = [s for s in self.after(gold[-1]) if not doubles_back(gold, s)]
        near += [(*gold, s) for s in rng.sample(longer, min(2, len(longer)))]
        flip = rng.randrange(len(gold))
        near.append(tuple(Step(s.relation, not s.inverse) if i == flip else s for i, s in enumerate(gold)))
        near = [c for c in dict.fromkeys(near) if c != gold]
        rest = [c for c in pool if c != gold and c not in near]
        picked = near[: max(1, k // 2)]
        return picked + rng.sample(rest, min(len(rest), k - len(picked)))


def examples_for(
    store: KGStore, items: Sequence[QAItem], *, negatives: int, seed: int, source: str
) -> list[GroundingExample]:
    """Grounding examples from questions whose gold chain is known."""
    rng = random.Random(seed)
    steps, shown = StepMap(store), graph_examples(store)
    out = []
    for it in items:
        if not it.chain:
            continue
        wrong = steps.negatives(it.topic.id, it.chain, negatives, rng)
        if not wrong:
            continue
        out.append(
            GroundingExample(
                mask_topics(it.question, [it.topic]),
                chain_description(it.chain, shown),
                tuple(chain_description(c, shown) for c in wrong),
                source,
                len(it.chain),
            )
        )
    return out


def store_of(triples: Sequence[Triple]) -> KGStore:
    """An in-memory store holding ``triples`` (through a TSV file: the loader users use)."""
    import tempfile

    from kgcite.kg.embedded import EmbeddedStore

    store = EmbeddedStore()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "graph.tsv"
        path.write_text(
            "".join(f"{t.subject_label}\t{t.relation}\t{t.object_value}\n" for t in triples), encoding="utf-8"
        )
        store.load(path)
    return store
