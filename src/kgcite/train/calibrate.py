"""Choose a path scorer's ``[NA]`` threshold on dev questions, and report the curve behind it.

Each dev question is asked twice: of its own topic (answerable: the right answer counts) and of
another entity of the same graph that lacks the question's first relation (unanswerable: any
answer is a wrong one, ``[NA]`` is right). :func:`pipeline_curve` asks the whole answer pipeline
at each threshold, as `kgcite ask` answers (its one-hop reading abstains too, and may answer a
question asked of the wrong kind of entity in another direction), and the threshold is read
off that curve.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from kgcite.evaluate.metrics.answers import first_is_gold
from kgcite.kg.model import Entity
from kgcite.kg.store import KGStore
from kgcite.train.paths import QAItem

if TYPE_CHECKING:
    from kgcite.generate.pipeline import GroundedGenerator


def lacking(store: KGStore, item: QAItem, pool: Sequence[Entity], rng: random.Random) -> QAItem | None:
    """The question asked of another entity that has no ``item``'s first relation (in its
    direction), with no answers; None when the pool has none (ten tries)."""
    if not item.chain:
        return None
    first = item.chain[0]
    for _ in range(10):
        other = rng.choice(pool)
        if other.id == item.topic.id or not other.label:
            continue
        steps = {(r, inv) for r, inv, _ in store.relation_degrees(other.id)}
        if (first.relation, first.inverse) in steps:
            continue
        question = re.sub(re.escape(item.topic.label), other.label, item.question, flags=re.IGNORECASE)
        if question != item.question:
            return QAItem(question, other, ())
    return None


def asked_twice(store: KGStore, items: Sequence[QAItem], *, seed: int = 0) -> list[QAItem]:
    """Every item, and (where one is found) the same question asked of an entity lacking its relation."""
    rng = random.Random(seed)
    pool = [it.topic for it in items]
    return [asked for it in items for asked in (it, lacking(store, it, pool, rng)) if asked is not None]


def pipeline_curve(
    runs: Sequence[tuple[GroundedGenerator, Sequence[QAItem]]], thresholds: Sequence[float]
) -> list[dict[str, float]]:
    """Per threshold, the whole pipeline (``answer_many`` with the topic given): Hits@1 and
    coverage on the answerable questions, ``[NA]`` (no answer) on the unanswerable ones."""
    rows = []
    for t in thresholds:
        right = answered = na = yes = no = 0
        for generator, items in runs:
            assert generator.planner.paths is not None, "calibrating a path threshold needs path reasoning"
            generator.planner.paths.config = replace(generator.planner.paths.config, threshold=float(t))
            answers = generator.answer_many(
                [it.question for it in items], [[it.topic.id] for it in items], strict=False
            )
            for it, a in zip(items, answers, strict=True):
                predicted = list(getattr(a, "predicted", ()))
                hit = first_is_gold(predicted, it.answers)  # unanswerable: the hit is no answer
                if it.answers:
                    yes, answered, right = yes + 1, answered + bool(predicted), right + hit
                else:
                    no, na = no + 1, na + hit
        rows.append(
            {
                "threshold": round(float(t), 3),
                "coverage": answered / max(1, yes),
                "hits_at_1": right / max(1, yes),
                "na_on_missing": na / max(1, no),
            }
        )
    return rows


def highest_keeping(rows: Sequence[dict[str, float]], tolerance: float = 0.005) -> float:
    """The highest threshold of a :func:`pipeline_curve` whose Hits@1 stays within ``tolerance``
    of the best: abstain as much as answering allows (``[NA]`` on missing relations only rises
    with the threshold)."""
    best = max(r["hits_at_1"] for r in rows)
    return max(r["threshold"] for r in rows if r["hits_at_1"] >= best - tolerance)


def abstaining(rows: Sequence[dict[str, float]], tolerance: float = 0.01) -> float:
    """The lowest threshold of a :func:`pipeline_curve` whose ``[NA]`` on questions about a
    missing relation is within ``tolerance`` of the best: below it, the model's word alone
    answers questions the graph cannot."""
    best = max(r["na_on_missing"] for r in rows)
    return min(r["threshold"] for r in rows if r["na_on_missing"] >= best - tolerance)


def dev_sets(graphs: Sequence[str], n: int, *, skip: int = 3500) -> dict[str, tuple[KGStore, list[QAItem]]]:
    """Dev questions training never saw, per set: MetaQA dev questions past the first ``skip``
    of each hop's draw (training takes its questions from the front), and questions in held-out
    phrasings over BioKaLMA and a synthetic graph no training run generates. A graph left out of
    ``graphs`` is left out here too: it is the held-out one."""
    from kgcite.bench.metaqa import read_questions
    from kgcite.bench.synthetic import synthetic_graph
    from kgcite.kg.embedded import EmbeddedStore, biokalma_store
    from kgcite.kg.loaders import shipped_data
    from kgcite.retrieve.paths import Step
    from kgcite.train.grounding_examples import store_of
    from kgcite.train.paths import graph_questions

    out: dict[str, tuple[KGStore, list[QAItem]]] = {}
    if "metaqa" in graphs:
        metaqa = EmbeddedStore()
        metaqa.load(shipped_data("metaqa", "kb.txt"))
        for h in (1, 2, 3):
            questions = read_questions(h, "dev")
            random.Random(h).shuffle(questions)
            out[f"metaqa-dev-{h}"] = (
                metaqa,
                [
                    QAItem(q.question, e, q.answers, tuple(Step(r, i) for r, i in q.path()))
                    for q in questions[skip : skip + n]
                    if (e := metaqa.entity(q.topic))
                ],
            )
    stores: list[tuple[str, KGStore]] = []
    if "biokalma" in graphs:
        stores.append(("biokalma", biokalma_store()[0]))
    if "synthetic" in graphs:
        stores.append(("synthetic", store_of(synthetic_graph(5000))))
    for name, store in stores:
        out[f"{name}-dev"] = (store, graph_questions(store, n, 77, style="test"))
    return out
