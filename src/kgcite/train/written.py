"""Questions as people ask them, written for relations of many kinds: ``kgcite train paths
--graphs … written`` adds them to the mixture (measured in docs/results.md; the shipped model was
trained without them).

The template questions elsewhere in the mixture say a relation by its name, an alias or a
WordNet synonym; people say it by a verb or a role its name does not hold ("Who was behind the
camera for X?" for ``directed_by``). On graphs nobody tuned kgcite to, that phrasing is what the
grounding model misses most, so helpers who saw neither kgcite's code nor its models, told not to
copy any benchmark's templates, wrote questions for relations of three kinds
(``data/grounding/written``):

- ``wikidata.jsonl``: 240 item-valued Wikidata properties of the *train* split
  (:func:`~kgcite.train.relation_split.property_split`), 8 phrasings per direction;
- ``schemaorg.jsonl``: 70 schema.org properties whose values are things, 8 per direction;
- ``films.jsonl``: the nine relations of MetaQA's film graph, 30 per direction.

Each phrasing holds ``[X]``, the topic. The examples put it to random graphs spelled in one naming
style (as :mod:`kgcite.train.wide` does), or to MetaQA's graph, one hop or as the last hop of two
(the first said by a template), against the wrong chains the graph offers.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from kgcite.kg.loaders import shipped_data
from kgcite.kg.model import Entity
from kgcite.kg.store import KGStore
from kgcite.retrieve.paths import Chain, GraphWalker, Layer, Step
from kgcite.text.lexicon import property_label
from kgcite.train.grounding_examples import GroundingExample, examples_for, store_of
from kgcite.train.paths import QAItem, describe, walker_for
from kgcite.train.relation_split import PropertyName, property_split, read_property_names
from kgcite.train.wide import wikidata_graph

#: Where the written phrasings are (each file's licence: the folder's README).
WRITTEN = ("grounding", "written")


@dataclass(frozen=True, slots=True)
class Phrasings:
    """How people ask for one relation: ``forward`` asks the object of ``[X]``, ``backward`` the
    subjects that have ``[X]`` as object."""

    relation: str
    forward: tuple[str, ...]
    backward: tuple[str, ...]

    def of(self, inverse: bool) -> tuple[str, ...]:
        return self.backward if inverse else self.forward


def read_phrasings(name: str, folder: Path | None = None) -> dict[str, Phrasings]:
    """One written file (``wikidata``, ``schemaorg``, ``films``) by relation; phrasings without
    exactly one ``[X]`` are dropped."""
    path = (folder or shipped_data(*WRITTEN)) / f"{name}.jsonl"
    got: dict[str, dict[str, list[str]]] = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            kept = [q for q in row["questions"] if q.count("[X]") == 1]
            got.setdefault(row["relation"], {}).setdefault(row["direction"], []).extend(kept)
    return {r: Phrasings(r, tuple(d.get("forward", ())), tuple(d.get("backward", ()))) for r, d in sorted(got.items())}


def _asked(store: KGStore, phrasings: dict[str, Phrasings], per_direction: int, seed: int) -> list[QAItem]:
    """Questions over ``store`` (``phrasings`` keyed by its relation names): for each relation and
    direction, ``per_direction`` one-hop questions, and as many again with the phrasing's ``[X]``
    the end of a template hop before it (``Who directed the film whose writer is X?``)."""
    rng = random.Random(seed)
    walker = walker_for(store, 200)
    out: list[QAItem] = []
    for relation, said in sorted(phrasings.items()):
        triples = store.match(relation=relation, limit=2000)
        for inverse in (False, True):
            asks = said.of(inverse)
            starts = sorted({(t.object_id if inverse else t.subject_id) or "" for t in triples} - {""})
            if not asks or not starts:
                continue
            step = Step(relation, inverse)
            for k in range(2 * per_direction):
                topic = store.entity(rng.choice(starts))
                if topic is None:
                    continue
                ask = asks[k % len(asks)] if k < per_direction else rng.choice(asks)
                chain: Chain = (step,)
                np_ = topic.label
                if k >= per_direction:  # the last hop of two: something reaching a start first
                    before = _hop_into(store, walker, topic.id, step, rng)
                    if before is None:
                        continue
                    first, topic = before
                    chain, np_ = (first, step), describe((first,), topic.label, rng)
                layers: list[Layer] = []
                for s in chain:
                    layer, _ = walker.walk(topic.id, layers, s)
                    layers.append(layer)
                answers = sorted({a.label for a in walker.answers(topic.id, layers)})
                if 0 < len(answers) <= 10:
                    out.append(QAItem(ask.replace("[X]", np_), topic, tuple(answers), chain))
    return out


def _hop_into(
    store: KGStore, walker: GraphWalker, node: str, step: Step, rng: random.Random
) -> tuple[Step, Entity] | None:
    """Another entity one hop from ``node`` and the step from it to ``node``: where a two-hop
    question whose last hop is ``step`` may start (None where ``node`` has no other relation)."""
    offered = [s for s in walker.around(node) if s.relation != step.relation]
    for out in rng.sample(offered, len(offered)):
        layer, _ = walker.walk(node, [], out)
        starts = sorted(n for n in layer if not n.startswith("\x00"))
        entity = store.entity(rng.choice(starts)) if starts else None
        if entity is not None:
            return Step(out.relation, not out.inverse), entity
    return None


def written_graph_examples(
    *, graphs: int = 12, relations: int = 30, per_direction: int = 2, negatives: int = 5, seed: int = 0
) -> list[GroundingExample]:
    """The Wikidata and schema.org phrasings over random graphs of ``relations`` relations each,
    every graph in one naming style; only train-split Wikidata properties are used."""
    names = read_property_names()
    props: list[PropertyName] = []
    by_label: dict[str, Phrasings] = {}
    for pid, said in read_phrasings("wikidata").items():
        if pid in names and property_split(pid) == "train":
            props.append(names[pid])
            by_label[names[pid].label] = said
    for name, said in read_phrasings("schemaorg").items():
        label = property_label(name)  # the identifier reader: ``hasMemberProgram`` → has member program
        props.append(PropertyName(f"schema:{name}", label, (), "wikibase-item"))
        by_label[label] = said
    out: list[GroundingExample] = []
    order = random.Random(f"written:{seed}").sample(props, len(props))
    for g in range(graphs):
        chosen = [order[(g * relations + i) % len(order)] for i in range(relations)]
        triples, spelled = wikidata_graph(50_000 + seed * 1000 + g, chosen, relations=relations)
        store = store_of(triples)
        phrasings = {n: by_label[words[0]] for n, words in spelled.items() if words[0] in by_label}
        items = _asked(store, phrasings, per_direction, seed + g)
        out += examples_for(store, items, negatives=negatives, seed=seed + g, source=f"written-graph-{g}")
    return out


def written_film_examples(
    store: KGStore, *, per_direction: int = 45, negatives: int = 5, seed: int = 0
) -> list[GroundingExample]:
    """The film phrasings over MetaQA's graph (its relations keep their own names)."""
    phrasings = {r: p for r, p in read_phrasings("films").items() if r in set(store.relations())}
    items = _asked(store, phrasings, per_direction, seed)
    return examples_for(store, items, negatives=negatives, seed=seed, source="written-films")
