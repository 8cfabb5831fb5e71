"""Questions over a graph with their gold relation chains, for ``kgcite train paths``.

A question-answer pair names no path, so the gold chain is *recovered*: every chain of at most
``depth`` relations from the topic is walked, and the shortest whose end entities are exactly
the answers is gold (a question none reproduces is skipped and counted). Template questions
generated from any graph know their chain.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from kgcite.kg.model import Entity
from kgcite.kg.store import KGStore
from kgcite.retrieve.paths import Chain, GraphWalker, Layer, Step, doubles_back
from kgcite.text.lexicon import property_label, question_phrases
from kgcite.train.paraphrase import paraphrases


@dataclass(frozen=True, slots=True)
class QAItem:
    question: str
    topic: Entity
    answers: tuple[str, ...]
    chain: Chain | None = None  # known gold (generated questions); None: recovered from the answers


def walker_for(store: KGStore, cap: int) -> GraphWalker:
    """The reasoner's walk for enumerating chains: every entity up to ``cap`` per layer, the
    relations around 20 of them."""
    return GraphWalker(store, max_frontier=cap, relation_sample=20)


def gold_chain(chains: dict[Chain, frozenset[str]], answers: Iterable[str]) -> Chain | None:
    """The shortest chain ending exactly at the answers (case-insensitive, ``_`` as space);
    None when none does, or when two chains of that length do (the answers cannot tell which
    one the question means: a writer who also directed)."""
    want = frozenset(a.lower().replace("_", " ") for a in answers)
    fits = [c for c, ends in chains.items() if frozenset(e.replace("_", " ") for e in ends) == want]
    if not fits:
        return None
    shortest = min(map(len, fits))
    best = [c for c in fits if len(c) == shortest]
    return best[0] if len(best) == 1 else None


# -- questions generated from any graph (BioKaLMA, a user's graph) ---------------------------------

_ASK = ["What is {np}?", "Which are {np}?", "Name {np}.", "Tell me {np}.", "{np}: what is it?", "Who or what is {np}?"]
#: Phrasings kept out of training: held-out questions are asked in these.
_TEST_ASK = ["Can you say {np}?", "I would like to know {np}.", "Give {np}."]
_PHRASES = {
    "train": (
        ["the things that share {r} with {x}", "what else has the same {r} as {x}"],
        ["the things with {r} {x}", "what has {r} {x}", "the ones whose {r} is {x}"],
        ["the {r} of {x}", "{x}'s {r}"],
    ),
    "test": (
        ["anything having a {r} in common with {x}"],
        ["whatever lists {x} as {r}", "the entities for which {x} is the {r}"],
        ["the value of {r} for {x}"],
    ),
}


def describe(
    chain: Chain,
    topic: str,
    rng: random.Random,
    style: str = "train",
    names: Callable[[str], Sequence[str]] | None = None,
) -> str:
    """A noun phrase for the chain's end, built hop by hop from the topic out of the relations'
    own names: ``the release year of the things that share director with X``. Clumsy English on
    purpose: the model must learn to read relation names and count hops, not one graph's phrasing.
    In training style, three names in ten are said as people say them (the lexicon) and three in
    ten in WordNet's other words (:func:`~kgcite.train.paraphrase.paraphrases`). ``names``: other
    words a relation is known by (Wikidata's label and aliases of the property it stands for), said
    in six names in ten where given."""
    shared, backwards, forwards = _PHRASES[style]
    np_ = topic
    i = 0
    while i < len(chain):
        step = chain[i]
        label = property_label(step.relation)
        said = question_phrases(label) if style == "train" else ()
        other = paraphrases(label) if style == "train" else ()
        roll = rng.random()
        known = names(step.relation) if names is not None else ()
        if known and roll < 0.6:  # the lexicon of the property this relation spells
            label = rng.choice(known)
        elif said and roll < 0.3:  # the words people use for it, not only its name
            label = rng.choice(said)
        elif other and roll >= 0.7:  # … and words no list of kgcite's holds (WordNet)
            label = rng.choice(other)
        if i + 1 < len(chain) and chain[i + 1] == Step(step.relation, not step.inverse):
            np_ = rng.choice(shared).format(r=label, x=np_)
            i += 2
            continue
        np_ = rng.choice(backwards if step.inverse else forwards).format(r=label, x=np_)
        i += 1
    return np_


def random_chain(walker: GraphWalker, start: str, hops: int, rng: random.Random) -> tuple[Chain, list[Layer]] | None:
    """A chain of ``hops`` steps the graph walks from ``start`` (picked at random, no
    ``r, r⁻¹, r``, no hub cut on the way) with its layers, or None where a walk dead-ends."""
    chain: list[Step] = []
    layers: list[Layer] = []
    for _ in range(hops):
        options = [o for o in walker.steps(start, layers) if not doubles_back(chain, o)]
        if not options:
            return None
        step = rng.choice(options)
        layer, cut = walker.walk(start, layers, step)
        if not layer or cut:
            return None
        chain.append(step)
        layers.append(layer)
    return tuple(chain), layers


def generated_questions(
    store: KGStore,
    entities: Sequence[Entity],
    *,
    n: int,
    seed: int = 0,
    max_hops: int = 3,
    max_answers: int = 10,
    style: str = "train",
    names: Callable[[str], Sequence[str]] | None = None,
) -> Iterator[QAItem]:
    """Template questions over a graph's own relations, 1 to ``max_hops`` hops (as many of each),
    with their chain known: the answers are what it reaches (at most ``max_answers``).
    ``style="test"``: phrasings training never uses, for held-out questions; ``names``: other
    words for a relation (:func:`describe`)."""
    rng = random.Random(seed)
    walker = walker_for(store, 200)
    made = 0
    pool = list(entities)
    for _ in range(n * 20):
        if made >= n:
            return
        e = rng.choice(pool)
        walked = random_chain(walker, e.id, 1 + made % max_hops, rng)
        if walked is None:
            continue
        chain, layers = walked
        answers = sorted({a.label for a in walker.answers(e.id, layers)})
        if 0 < len(answers) <= max_answers:
            made += 1
            ask = _TEST_ASK if style == "test" else _ASK
            yield QAItem(
                rng.choice(ask).format(np=describe(chain, e.label, rng, style, names)), e, tuple(answers), chain
            )


def graph_questions(store: KGStore, n: int, seed: int, style: str = "train") -> list[QAItem]:
    """:func:`generated_questions` from entities of the graph sampled with ``seed`` (the same
    seed draws the questions)."""
    entities = [e for e in (store.entity(i) for i in _entity_ids(store, 20_000, seed)) if e is not None]
    return list(generated_questions(store, entities, n=n, seed=seed, style=style))


def graph_questions_named(
    store: KGStore, n: int, seed: int, names: Callable[[str], Sequence[str] | None]
) -> list[QAItem]:
    """:func:`graph_questions` with each relation said, six times in ten, in one of ``names``'
    words for it (a Wikidata property's label and aliases)."""
    entities = [e for e in (store.entity(i) for i in _entity_ids(store, 20_000, seed)) if e is not None]
    return list(generated_questions(store, entities, n=n, seed=seed, names=lambda r: names(r) or ()))


def with_gold(
    walker: GraphWalker, question: str, topic: Entity, answers: Sequence[str], depth: int = 2
) -> QAItem | None:
    """The question with the gold chain its answers reveal (:func:`gold_chain`), or None."""
    gold = gold_chain(walker.chains(topic.id, depth), answers)
    return None if gold is None else QAItem(question, topic, tuple(answers), gold)


def _entity_ids(store: KGStore, limit: int, seed: int) -> list[str]:
    """Up to ``limit`` entities of the graph (subjects and entity objects), sampled: where a
    question may start."""
    ids = sorted(
        {i for r in store.relations() for t in store.match(relation=r) for i in (t.subject_id, t.object_id) if i}
    )
    return random.Random(seed).sample(ids, min(limit, len(ids)))
