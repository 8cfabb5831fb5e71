"""Choose a path scorer's ``[NA]`` threshold on dev questions, and report the curve behind it.

Each dev question is asked twice: of its own topic (answerable: the right answer counts) and of
another entity of the same graph that lacks the question's first relation (unanswerable: any
answer is a wrong one, ``[NA]`` is right). The best chain's score decides both; the threshold
trades coverage of the first against abstention on the second.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kgcite.evaluate.metrics.answers import norm
from kgcite.kg.model import Entity
from kgcite.kg.store import KGStore
from kgcite.retrieve.paths import PathConfig, PathReasoner, PathScorer
from kgcite.train.paths import QAItem


@dataclass(frozen=True, slots=True)
class Probe:
    """One question put to the reasoner: its best chain's score and whether its answer was right
    (``answerable`` False: the topic lacks the relation asked, only ``[NA]`` is right)."""

    score: float
    answerable: bool
    right: bool


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


def probe(store: KGStore, scorer: PathScorer, items: Sequence[QAItem], *, seed: int = 0) -> list[Probe]:
    """Every item asked of its topic and (where one is found) of an entity lacking its relation."""
    reasoner = PathReasoner(store, scorer, PathConfig(threshold=-np.inf))
    rng = random.Random(seed)
    pool = [it.topic for it in items]
    out = []
    for it in items:
        for asked in (it, lacking(store, it, pool, rng)):
            if asked is None:
                continue
            result = reasoner.answer(asked.question, [asked.topic])
            score = result.best.score if result.best else -np.inf
            gold = {norm(a) for a in asked.answers}
            predicted = [norm(p) for p in result.predicted()]
            out.append(
                Probe(float(score), bool(asked.answers), bool(gold) and bool(predicted) and predicted[0] in gold)
            )
    return out


def curve(probes: Sequence[Probe], thresholds: Sequence[float]) -> list[dict[str, float]]:
    """Per threshold: coverage (answerable questions answered), precision (answered ones right,
    over every question answered, unanswerable ones included), Hits@1 on the answerable ones, and
    ``[NA]`` on the unanswerable ones."""
    rows = []
    yes = [p for p in probes if p.answerable]
    no = [p for p in probes if not p.answerable]
    for t in thresholds:
        answered = [p for p in probes if p.score >= t]
        rows.append(
            {
                "threshold": round(float(t), 3),
                "coverage": sum(p.score >= t for p in yes) / max(1, len(yes)),
                "precision": sum(p.right for p in answered) / max(1, len(answered)),
                "hits_at_1": sum(p.right and p.score >= t for p in yes) / max(1, len(yes)),
                "na_on_missing": sum(p.score < t for p in no) / max(1, len(no)),
            }
        )
    return rows


def choose_threshold(probes: Sequence[Probe], *, keep: float | None = None, min_na: float = 0.95) -> float:
    """A threshold read off the curve. With ``keep``: the highest that still answers ``keep`` of
    the answers that are right with no threshold at all (coverage first: ``[NA]`` only where the
    best chain is a poor fit). Else the lowest giving ``[NA]`` on at least ``min_na`` of the
    unanswerable questions (abstention first); the best balance when none does."""
    scores = sorted({round(p.score, 3) for p in probes if np.isfinite(p.score)})
    if not scores:
        return 0.5
    if keep is not None:
        right = sorted(p.score for p in probes if p.answerable and p.right)
        return float(np.round(right[int((1 - keep) * len(right))], 3)) if right else scores[0]
    rows = curve(probes, scores)
    ok = [r for r in rows if r["na_on_missing"] >= min_na]
    if ok:
        return float(min(r["threshold"] for r in ok))
    return float(max(rows, key=lambda r: r["hits_at_1"] + r["na_on_missing"])["threshold"])


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
    from kgcite.train.grounding import store_of
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
