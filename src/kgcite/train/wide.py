"""The wide part of ``kgcite train paths``' mixture: many relations, named as many ways as graphs name them.

A grounding model learns the relations it is trained on far better than it learns to match new
ones, so what carries over to a user's graph is the number of distinct relations seen, each said in
the words people use for it. This module makes examples over the *train* split of Wikidata's
properties only (:func:`~kgcite.train.relation_split.property_split`: the dev and test properties
stay unseen, so the split still measures carry-over):

- :func:`wikidata_graph_examples`: random graphs whose relations are Wikidata properties, each
  spelled in one graph's naming style (``placeOfBirth``, ``place_of_birth``, ``PLACE_OF_BIRTH``,
  ``ex:placeOfBirth``, …), with 1–3 hop template questions that say each hop by the property's
  label or one of its aliases; negatives are the chains each graph really offers;
- :func:`simple_question_examples`: SimpleQuestions-over-Wikidata's natural one-hop questions,
  capped per property and direction, against the inverse direction, Wikidata's related and
  inverse properties (confusable pairs), and other properties.
"""

from __future__ import annotations

import gzip
import random
from collections import defaultdict
from collections.abc import Callable, Sequence

from kgcite.bench.synthetic import KINDS, _name
from kgcite.kg.model import Triple
from kgcite.retrieve.path_scorers import chain_description
from kgcite.retrieve.paths import Step
from kgcite.train.grounding_examples import GroundingExample, examples_for, store_of
from kgcite.train.paths import graph_questions_named
from kgcite.train.relation_split import (
    PropertyName,
    Split,
    grounding_data,
    property_split,
    read_property_names,
    read_simple_questions,
)

#: How graphs spell a relation (the identifier reader turns each back into words).
STYLES: tuple[Callable[[list[str]], str], ...] = (
    lambda w: " ".join(w),
    lambda w: w[0] + "".join(x.capitalize() for x in w[1:]),
    lambda w: "_".join(w),
    lambda w: "_".join(w).upper(),
    lambda w: "".join(x.capitalize() for x in w),
    lambda w: "ex:" + w[0] + "".join(x.capitalize() for x in w[1:]),
    lambda w: "-".join(w),
)


def spelled(label: str, style: int) -> str:
    """A property label in naming style ``style`` (an index of :data:`STYLES`)."""
    words = [w for w in "".join(c if c.isalnum() else " " for c in label.lower()).split() if w]
    return STYLES[style](words or ["relation"])


def item_properties(split: Split = "train") -> list[PropertyName]:
    """Wikidata's item-valued properties in ``split`` whose label is words (not an external id)."""
    names = read_property_names()
    return [
        p
        for pid, p in sorted(names.items())
        if p.datatype == "wikibase-item" and property_split(pid) == split and any(c.isalpha() for c in p.label)
    ]


def related_properties() -> dict[str, set[str]]:
    """Wikidata's related (P1659) and inverse (P1696) property pairs, both ways: the properties a
    question about one is most easily mistaken for."""
    out: dict[str, set[str]] = defaultdict(set)
    with gzip.open(grounding_data("wikidata-properties", "related.property.tsv.gz"), "rt", encoding="utf-8") as f:
        next(f, None)
        for line in f:
            a, _, b = line.rstrip("\n").split("\t")
            out[a].add(b)
            out[b].add(a)
    return out


def wikidata_graph(
    seed: int, properties: Sequence[PropertyName], *, relations: int = 30, entities: int = 500, density: float = 0.25
) -> tuple[list[Triple], dict[str, tuple[str, ...]]]:
    """A random graph over ``relations`` of ``properties`` in one naming style, and each relation
    name's words (the property's label and aliases)."""
    rng = random.Random(f"wikidata-graph:{seed}")
    style = rng.randrange(len(STYLES))
    chosen = rng.sample(list(properties), min(relations, len(properties)))
    ids = [f"W{seed}E{i}" for i in range(entities)]
    labels = {e: _name(rng, rng.choice(KINDS[:4])) for e in ids}
    names: dict[str, tuple[str, ...]] = {}
    triples: list[Triple] = []
    for p in chosen:
        name = spelled(p.label, style)
        if name in names:
            continue
        names[name] = (p.label, *p.aliases)
        # each relation links one slice of the entities to another: chains compose across relations
        subjects = rng.sample(ids, int(entities * density))
        objects = rng.sample(ids, max(2, entities // 10))
        for s in subjects:
            for o in rng.sample(objects, rng.choice((1, 1, 1, 2))):
                if o != s:
                    triples.append(Triple(s, labels[s], name, labels[o], o))
    return triples, names


def wikidata_graph_examples(
    *,
    graphs: int = 16,
    per_graph: int = 300,
    negatives: int = 5,
    seed: int = 0,
    split: Split = "train",
) -> list[GroundingExample]:
    """Template questions of 1–3 hops over :func:`wikidata_graph`s, each hop said by its
    property's label or an alias, with negatives the graph offers (``GroundingExample``s)."""
    props = item_properties(split)
    out: list[GroundingExample] = []
    for g in range(graphs):
        triples, names = wikidata_graph(seed * 1000 + g, props)
        store = store_of(triples)
        items = graph_questions_named(store, per_graph, seed + g, names.get)
        out += examples_for(store, items, negatives=negatives, seed=seed + g, source=f"wikidata-graph-{g}")
    return out


def simple_question_examples(
    *, per_property: int = 40, negatives: int = 5, seed: int = 0, split: Split = "train"
) -> list[GroundingExample]:
    """SimpleQuestions-over-Wikidata questions of ``split``'s properties (at most ``per_property``
    per property and direction), the gold relation in a random naming style against: the other
    direction, a related or inverse property, and other properties of the split."""

    names = read_property_names()
    related = related_properties()
    rng = random.Random(seed)
    groups: dict[tuple[str, bool], list[str]] = defaultdict(list)
    for q in read_simple_questions(
        [grounding_data("simplequestions-wikidata", "annotated_wd_data_train_answerable.txt")]
    ):
        if property_split(q.pid) == split and q.pid in names:
            groups[(q.pid, q.inverse)].append(q.question)
    pool = sorted({p.pid for p in item_properties(split)})
    out: list[GroundingExample] = []
    for (pid, inverse), questions in sorted(groups.items()):
        for question in rng.sample(questions, min(per_property, len(questions))):
            style = rng.randrange(len(STYLES))

            def text(p: str, inv: bool, style: int = style) -> str:
                return chain_description((Step(spelled(names[p].label, style), inv),))

            wrong = [text(pid, not inverse)]
            near = [p for p in sorted(related.get(pid, ())) if p in names and p != pid]
            wrong += [text(p, inverse) for p in rng.sample(near, min(2, len(near)))]
            while len(wrong) < negatives:
                p = rng.choice(pool)
                if p != pid:
                    wrong.append(text(p, rng.random() < 0.3))
            out.append(GroundingExample(question, text(pid, inverse), tuple(wrong[:negatives]), "simplequestions", 1))
    return out
