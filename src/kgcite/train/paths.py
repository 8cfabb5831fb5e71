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
from kgcite.retrieve.paths import Chain, PathConfig, PathReasoner, Step, _topic_mask, chain_text
from kgcite.train.cross_encoder import ProgressPrinter, TrainConfig, export_onnx, train_cross_encoder
from kgcite.train.nli_data import LabelledPair

LABELS = ["irrelevant", "relevant"]


@dataclass(frozen=True, slots=True)
class QAItem:
    question: str
    topic: Entity
    answers: tuple[str, ...]


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
                    if len(chain) >= 2 and chain[-2] == step and chain[-1] == Step(step.relation, not step.inverse):
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
    store: KGStore, items: Sequence[QAItem], *, depth: int = 2, negatives: int = 5, seed: int = 0, source: str = "", cap: int = 300
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
        gold = gold_chain(chains, it.answers)
        if gold is None:
            skipped += 1
            continue
        question = _topic_mask(it.question, [it.topic])
        pairs.append(LabelledPair(question, chain_text(gold), "relevant", source))
        wrong = [c for c, ends in chains.items() if ends != chains[gold]]
        longer = [(*gold, rng.choice(vocabulary))] if len(gold) == depth else []
        near = [c for c in wrong if c[: len(gold)] == gold or gold[: len(c)] == c] + longer
        rest = [c for c in wrong if c not in near]
        picked = near[:2] + rng.sample(rest, min(len(rest), negatives - min(2, len(near))))
        pairs += [LabelledPair(question, chain_text(c), "irrelevant", source) for c in picked]
    return pairs, skipped


# -- questions generated from any graph (BioKaLMA, a user's graph) ---------------------------------

_FORWARD = ["What is the {r} of {e}?", "{e}'s {r} is what?", "Which {r} does {e} have?", "Tell me the {r} of {e}."]
_INVERSE = ["Whose {r} is {e}?", "What has {e} as its {r}?", "Which entities have {r} {e}?"]
_TWO = ["What is the {r2} of the {r1} of {e}?", "The {r1} of {e} has which {r2}?", "Name the {r2} of {e}'s {r1}."]


def generated_questions(store: KGStore, entities: Sequence[Entity], *, n: int, seed: int = 0) -> Iterator[QAItem]:
    """Template questions over a graph's own relations: one hop either way, two hops forwards.
    Answers are what the chain reaches, so every item is reproducible by construction."""
    rng = random.Random(seed)
    walker = _Walker(store, 200)
    made = 0
    for e in rng.sample(list(entities), len(entities)):
        if made >= n:
            return
        chains = {c: ends for c, ends in walker.chains(e.id, 2).items() if ends and len(ends) <= 5}
        if not chains:
            continue
        chain = rng.choice(sorted(chains, key=chain_text))
        label = lambda s: s.relation.replace("_", " ")  # noqa: E731
        if len(chain) == 1:
            pool = _INVERSE if chain[0].inverse else _FORWARD
            text = rng.choice(pool).format(r=label(chain[0]), e=e.label)
        elif not any(s.inverse for s in chain):
            text = rng.choice(_TWO).format(r1=label(chain[0]), r2=label(chain[1]), e=e.label)
        else:
            continue
        made += 1
        yield QAItem(text, e, tuple(sorted(chains[chain])))


# -- the shipped recipe --------------------------------------------------------------------------


def shipped_training_pairs(n_metaqa: int = 8000, n_biokalma: int = 3000, seed: int = 0) -> tuple[list[LabelledPair], dict[str, int]]:
    """MetaQA's 2-hop *dev* questions (the shipped data has no train split; the test splits are
    never used) and template questions generated from BioKaLMA's graph. Returns the pairs and
    counts per source."""
    from kgcite.bench.metaqa import read_questions
    from kgcite.kg.embedded import EmbeddedStore, biokalma_store
    from kgcite.kg.loaders import shipped_data

    metaqa = EmbeddedStore()
    metaqa.load(shipped_data("metaqa", "kb.txt"))
    questions = read_questions(2, "dev")
    random.Random(seed).shuffle(questions)
    items = [QAItem(q.question, e, q.answers) for q in questions[:n_metaqa] if (e := metaqa.entity(q.topic))]
    pairs, skipped = path_pairs(metaqa, items, seed=seed, source="metaqa-2hop-dev")
    bio, _ = biokalma_store()
    entities = [e for e in (bio.entity(i) for i in _entity_ids(bio)) if e is not None]
    generated = list(generated_questions(bio, entities, n=n_biokalma, seed=seed))
    bio_pairs, bio_skipped = path_pairs(bio, generated, seed=seed, source="biokalma-generated")
    counts = {
        "metaqa_questions": len(items), "metaqa_skipped": skipped,
        "biokalma_questions": len(generated), "biokalma_skipped": bio_skipped,
        "pairs": len(pairs) + len(bio_pairs),
    }
    return pairs + bio_pairs, counts


def _entity_ids(store: KGStore) -> list[str]:
    """Subjects of the graph's triples (the entities a question can start from)."""
    return sorted({t.subject_id for r in store.relations() for t in store.match(relation=r)})


def train_paths(
    out_dir: str | Path,
    pairs: Sequence[LabelledPair],
    counts: dict[str, int],
    config: TrainConfig = TrainConfig(epochs=1, max_length=64),
) -> Path:
    """Train, export int8 ONNX to ``out_dir/onnx`` with ``train.json`` (data counts, config, time)."""
    out = Path(out_dir)
    t0 = time.perf_counter()
    hf = train_cross_encoder(pairs, LABELS, out, config, progress=ProgressPrinter("train paths"))
    onnx_dir = out / "onnx"
    export_onnx(hf, onnx_dir, max_length=config.max_length)
    (onnx_dir / "train.json").write_text(
        json.dumps({"data": counts, "config": asdict(config), "seconds": round(time.perf_counter() - t0), "machine": platform.machine()}, indent=1) + "\n"
    )
    return onnx_dir
