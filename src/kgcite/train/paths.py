"""``kgcite train paths``: the cross-encoder that scores a relation chain against a question.

A question-answer pair names no path, so the gold chain is *recovered*: every chain of at most
``depth`` relations from the topic is walked, and the shortest whose end entities are exactly
the answers is gold (a question none reproduces is skipped and counted). Negatives are other
chains from the same topic, their prefixes and extensions of the gold one among them, except
chains that reach the same answers (they are right too).
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from kgcite.kg.model import Entity
from kgcite.kg.store import KGStore
from kgcite.retrieve.paths import Chain, Layer, PathConfig, PathReasoner, Step, chain_text, doubles_back, mask_topics
from kgcite.text.lexicon import property_label
from kgcite.train.cross_encoder import ProgressPrinter, TrainConfig, export_onnx, train_cross_encoder
from kgcite.train.nli_data import LabelledPair

LABELS = ["irrelevant", "relevant"]
PATHS_RECIPE = TrainConfig(epochs=1, max_length=64)  # the shipped model's


@dataclass(frozen=True, slots=True)
class QAItem:
    question: str
    topic: Entity
    answers: tuple[str, ...]
    chain: Chain | None = None  # known gold (generated questions); None: recovered from the answers


class _Walker(PathReasoner):
    """The reasoner's walk without a scorer: every chain, to enumerate them."""

    def __init__(self, store: KGStore, cap: int) -> None:
        super().__init__(store, scorer=None, config=PathConfig(max_frontier=cap, relation_sample=20))  # type: ignore[arg-type]

    def chains(self, topic: str, depth: int) -> dict[Chain, frozenset[str]]:
        """Every chain of 1..depth relations from ``topic`` → the labels it ends at (topic excluded)."""
        out: dict[Chain, frozenset[str]] = {}
        level: list[tuple[Chain, list]] = [((), [])]  # type: ignore[type-arg]
        for _ in range(depth):
            nxt = []
            for chain, layers in level:
                for step in self._steps(topic, layers):
                    if doubles_back(chain, step):
                        continue
                    layer, _ = self._walk(topic, layers, step)
                    if not layer:
                        continue
                    new = (*chain, step)
                    grown = [*layers, layer]
                    out[new] = frozenset(a.label.lower() for a in self._answers(topic, grown))
                    nxt.append((new, grown))
            level = nxt
        return out


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


def path_pairs(
    store: KGStore,
    items: Sequence[QAItem],
    *,
    depth: int = 2,
    negatives: int = 4,
    seed: int = 0,
    source: str = "",
    cap: int = 300,
) -> tuple[list[LabelledPair], int]:
    """Pairs ``(masked question, chain text)``; returns them and the number of items skipped
    because no chain (or more than one) reproduces their answers. Chains are walked to ``depth``;
    one step longer than gold is added as a negative without walking (walking every 3-hop chain
    of a movie graph costs seconds a question)."""
    vocabulary = [Step(r, inv) for r in store.relations() for inv in (False, True)]
    rng = random.Random(seed)
    walker = _Walker(store, cap)
    pairs: list[LabelledPair] = []
    skipped = 0
    for it in items:
        chains = walker.chains(it.topic.id, depth)
        gold = it.chain or gold_chain(chains, it.answers)
        if gold is None:
            skipped += 1
            continue
        question = mask_topics(it.question, [it.topic])
        pairs.append(LabelledPair(question, chain_text(gold), "relevant", source))
        right = frozenset(a.lower() for a in it.answers)
        wrong = [c for c, ends in chains.items() if ends != right and c != gold]
        longer = [(*gold, rng.choice(vocabulary))] if len(gold) >= depth else []
        swapped = [
            tuple(rng.choice(vocabulary) if i == k else s for i, s in enumerate(gold))
            for k in [rng.randrange(len(gold))]
        ]
        near = [c for c in wrong if c[: len(gold)] == gold or gold[: len(c)] == c] + longer
        if len(gold) > depth:  # not walked: its prefixes and a one-step change stand for the near misses
            near += [gold[:k] for k in range(1, len(gold))] + [c for c in swapped if c != gold]
        rest = [c for c in wrong if c not in near]
        picked = near[:2] + rng.sample(rest, min(len(rest), negatives - min(2, len(near))))
        pairs += [LabelledPair(question, chain_text(c), "irrelevant", source) for c in picked]
    return pairs, skipped


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


def describe(chain: Chain, topic: str, rng: random.Random, style: str = "train") -> str:
    """A noun phrase for the chain's end, built hop by hop from the topic out of the relations'
    own names: ``the release year of the things that share director with X``. Clumsy English on
    purpose: the model must learn to read relation names and count hops, not one graph's phrasing."""
    shared, backwards, forwards = _PHRASES[style]
    np_ = topic
    i = 0
    while i < len(chain):
        step = chain[i]
        label = property_label(step.relation)
        if i + 1 < len(chain) and chain[i + 1] == Step(step.relation, not step.inverse):
            np_ = rng.choice(shared).format(r=label, x=np_)
            i += 2
            continue
        np_ = rng.choice(backwards if step.inverse else forwards).format(r=label, x=np_)
        i += 1
    return np_


def random_chain(walker: _Walker, start: str, hops: int, rng: random.Random) -> tuple[Chain, list[Layer]] | None:
    """A chain of ``hops`` steps the graph walks from ``start`` (picked at random, no
    ``r, r⁻¹, r``, no hub cut on the way) with its layers, or None where a walk dead-ends."""
    chain: list[Step] = []
    layers: list[Layer] = []
    for _ in range(hops):
        options = [o for o in walker._steps(start, layers) if not doubles_back(chain, o)]
        if not options:
            return None
        step = rng.choice(options)
        layer, cut = walker._walk(start, layers, step)
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
) -> Iterator[QAItem]:
    """Template questions over a graph's own relations, 1 to ``max_hops`` hops (as many of each),
    with their chain known: the answers are what it reaches (at most ``max_answers``).
    ``style="test"``: phrasings training never uses, for held-out questions."""
    rng = random.Random(seed)
    walker = _Walker(store, 200)
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
        answers = sorted({a.label for a in walker._answers(e.id, layers)})
        if 0 < len(answers) <= max_answers:
            made += 1
            ask = _TEST_ASK if style == "test" else _ASK
            yield QAItem(rng.choice(ask).format(np=describe(chain, e.label, rng, style)), e, tuple(answers), chain)


# -- the shipped recipe --------------------------------------------------------------------------


def shipped_training_pairs(
    n_metaqa: int = 4000,
    n_generated: int = 6000,
    n_biokalma: int = 2000,
    seed: int = 0,
    graphs: Sequence[str] = ("metaqa", "biokalma"),
) -> tuple[list[LabelledPair], dict[str, int]]:
    """MetaQA's 2-hop *dev* questions (the shipped data has no train split; the test splits are
    never read), template questions of 1–3 hops generated from the MetaQA graph and from
    BioKaLMA's. ``graphs`` leaves one out (leave-one-graph-out runs). Returns the pairs and
    counts per source."""
    if "metaqa" not in graphs:
        n_metaqa = n_generated = 0
    if "biokalma" not in graphs:
        n_biokalma = 0
    from kgcite.bench.metaqa import read_questions
    from kgcite.kg.embedded import EmbeddedStore, biokalma_store
    from kgcite.kg.loaders import shipped_data

    metaqa = EmbeddedStore()
    metaqa.load(shipped_data("metaqa", "kb.txt"))
    questions = read_questions(2, "dev")
    random.Random(seed).shuffle(questions)
    items = [QAItem(q.question, e, q.answers) for q in questions[:n_metaqa] if (e := metaqa.entity(q.topic))]
    pairs, skipped = path_pairs(metaqa, items, seed=seed, source="metaqa-2hop-dev")
    counts = {"metaqa_dev_questions": len(items), "metaqa_dev_skipped": skipped}
    bio, _ = biokalma_store()
    for name, store, n in (("metaqa_generated", metaqa, n_generated), ("biokalma_generated", bio, n_biokalma)):
        if not n:
            continue
        entities = [e for e in (store.entity(i) for i in _entity_ids(store, 20_000, seed)) if e is not None]
        generated = list(generated_questions(store, entities, n=n, seed=seed))
        got, skipped = path_pairs(store, generated, seed=seed, source=name)
        pairs += got
        counts[f"{name}_questions"], counts[f"{name}_skipped"] = len(generated), skipped
    counts["pairs"] = len(pairs)
    return pairs, counts


def _entity_ids(store: KGStore, limit: int, seed: int) -> list[str]:
    """Up to ``limit`` entities of the graph (subjects and entity objects), sampled: where a
    question may start."""
    ids = sorted(
        {i for r in store.relations() for t in store.match(relation=r) for i in (t.subject_id, t.object_id) if i}
    )
    return random.Random(seed).sample(ids, min(limit, len(ids)))


def train_paths(
    out_dir: str | Path,
    pairs: Sequence[LabelledPair],
    counts: dict[str, int],
    config: TrainConfig = PATHS_RECIPE,
) -> Path:
    """Train, export int8 ONNX to ``out_dir/onnx`` with ``train.json`` (data counts, config, time)."""
    out = Path(out_dir)
    t0 = time.perf_counter()
    hf = train_cross_encoder(pairs, LABELS, out, config, progress=ProgressPrinter("train paths"))
    onnx_dir = out / "onnx"
    export_onnx(hf, onnx_dir, max_length=config.max_length)
    (onnx_dir / "train.json").write_text(
        json.dumps(
            {
                "data": counts,
                "config": asdict(config),
                "seconds": round(time.perf_counter() - t0),
                "machine": platform.machine(),
            },
            indent=1,
        )
        + "\n"
    )
    return onnx_dir
