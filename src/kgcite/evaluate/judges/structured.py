"""The structured attribution evaluator: read the evidence as facts, then reason (DESIGN.md §5).

:mod:`kgcite.evaluate.judges.reading` turns the claim into topics and answers and each citation
sentence into the names it links. Here the names and sentences become one small graph, and the
graph is checked the way CAQA's categories are made: every answer reached from every topic
(supportive), a hop, constraint or answer missing (partially supportive), another name where an
answer should be (contradictory), no contact (irrelevant). Those checks are graph-agnostic
features; a small learned combiner (:class:`Combiner`, numpy) weighs them, with a text
cross-encoder's four probabilities when one is given, and every judgement keeps what it read
and why (``Judgement.why``).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from kgcite.evaluate.judges.reading import ClaimReading, Key, SentenceReading, read_claim, read_evidence
from kgcite.evaluate.metrics.attribution import CATEGORIES
from kgcite.models.evaluator import AttributionItem, Judgement
from kgcite.text.lexicon import stem

Node = tuple[str, Any]  # ("t", i) topic, ("a", i) answer, ("o", key) other name, ("s", j) sentence


@dataclass
class Reading:
    claim: ClaimReading
    sentences: list[SentenceReading]

    def facts(self) -> list[dict[str, Any]]:
        """What each sentence was read as: the claim's names it states and the other names."""
        c = self.claim
        return [
            {
                "sentence": s.text,
                "topics": [" ".join(c.topics[i]) for i in s.topics],
                "answers": [" ".join(c.answers[i]) for i in s.answers],
                "other names": [" ".join(k) for k in s.others],
            }
            for s in self.sentences
        ]


def read(item: AttributionItem) -> Reading:
    claim = read_claim(item.question, item.answer_statement)
    return Reading(claim, read_evidence(item.evidence, claim))


def _nodes(s: SentenceReading) -> list[Node]:
    return [*(("t", i) for i in s.topics), *(("a", i) for i in s.answers), *(("o", k) for k in s.others)]


class EvidenceGraph:
    """Sentences and the names they state, as a bipartite graph: a path from a topic to an
    answer is a chain of cited facts; its length counts the sentences on it."""

    def __init__(self, reading: Reading) -> None:
        self.adj: dict[Node, set[Node]] = {}
        for j, s in enumerate(reading.sentences):
            for n in _nodes(s):
                self.adj.setdefault(("s", j), set()).add(n)
                self.adj.setdefault(n, set()).add(("s", j))
            self.adj.setdefault(("s", j), set())

    def distances(self, start: Node) -> dict[Node, int]:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            n = queue.popleft()
            for m in self.adj.get(n, ()):
                if m not in seen:
                    seen[m] = seen[n] + 1
                    queue.append(m)
        return seen

    def mentions(self, node: Node) -> int:
        return len(self.adj.get(node, ()))


#: Feature names, in the order the combiner reads them.
FEATURES = (
    "sentences",
    "answers",
    "answers stated",
    "all answers stated",
    "no answer stated",
    "topics",
    "topics stated",
    "all topics stated",
    "answers reached from a topic",
    "answers reached from every topic",
    "topics reaching an answer",
    "topics joined by the evidence",
    "another name joined to every topic",
    "mean hops to an answer",
    "longest hops to an answer",
    "more hops than asked words",
    "sentences reaching the claim",
    "sentences apart from the claim",
    "answers with a topic in one sentence",
    "other names",
    "other names stated once",
    "another name in an answer's place",
    "another name as far from the topics as an answer",
    "another name shaped like an answer",
    "a number other than the answer's",
    "question words covered",
    "statement words covered",
    "asked words covered",
    "words neither question nor statement uses",
    "asked words",
    "rule: supportive",
    "rule: partially supportive",
    "rule: contradictory",
    "rule: irrelevant",
)
TEXT_FEATURES = tuple(f"text model: {c}" for c in CATEGORIES)


def _part(a: str, b: str) -> bool:
    """One stem ends the other and is four letters or more ("screenwrit", "writ")."""
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and long.endswith(short)


def _shape(k: Key) -> tuple[int, bool, str]:
    return (len(k), all(w.isdigit() for w in k), k[-1] if k else "")


def _like(k: Key, answers: Sequence[Key], kinds: Sequence[str]) -> float:
    """How much a name looks like the answers: same kind (number or name), length, last word."""
    best = 0.0
    n, digits, last = _shape(k)
    for a, kind in zip(answers, kinds, strict=True):
        an, adigits, alast = _shape(a)
        score = (
            0.5 * (digits == adigits and (kind == "num") == digits) + 0.3 * (n == an) + 0.2 * (last == alast and n > 1)
        )
        best = max(best, score)
    return best


@dataclass
class Analysis:
    """The features of one reading and the rule that reads them (the explanation's core)."""

    values: dict[str, float]
    rule: str
    reason: str


@dataclass
class _Reach:
    """How the cited facts connect the claim: answers reached from topics, hops, depths."""

    stated_a: set[int]
    stated_t: set[int]
    reached_any: int
    reached_all: int
    hops: list[int]
    topics_reaching: int
    joined: bool
    joined_name: bool
    depth: dict[Node, int]  # each node's distance from the nearest topic
    near: set[Node]  # every node connected to a stated topic or answer


def _reach(g: EvidenceGraph, c: ClaimReading, sentences: list[SentenceReading]) -> _Reach:
    stated_a = {i for s in sentences for i in s.answers}
    stated_t = {i for s in sentences for i in s.topics}
    from_topic = {i: g.distances(("t", i)) for i in stated_t}
    reached_any, reached_all, hops = 0, 0, []
    for i in stated_a:
        d = [dist[("a", i)] for dist in from_topic.values() if ("a", i) in dist]
        reached_any += bool(d)
        reached_all += bool(d) and len(d) == len(c.topics)
        if d:
            hops.append(min(d) // 2 + 1)
    common = set.intersection(*(set(dist) for dist in from_topic.values())) if from_topic else set()
    depth: dict[Node, int] = {}
    for dist in from_topic.values():
        for node, far in dist.items():
            depth[node] = min(far, depth.get(node, far))
    near: set[Node] = set()
    for n in [("t", i) for i in stated_t] + [("a", i) for i in stated_a]:
        near |= set(g.distances(n))
    return _Reach(
        stated_a,
        stated_t,
        reached_any,
        reached_all,
        hops,
        topics_reaching=sum(any(("a", i) in dist for i in stated_a) for dist in from_topic.values()),
        joined=bool(from_topic) and all(("t", i) in dist for dist in from_topic.values() for i in stated_t),
        joined_name=any(n[0] == "o" for n in common),
        depth=depth,
        near=near,
    )


def _in_place(c: ClaimReading, sentences: list[SentenceReading], r: _Reach, once: list[Key]) -> tuple[float, float]:
    """(another name in an answer's place, another name as far from the topics as an answer).

    In a sentence without an answer: a name as deep as a stated answer (the replacement takes every
    role of the answer it replaces, so not only names stated once); a name stated once that shares a
    name and words with an answer's sentence; with no answer stated, one near the claim saying what
    is asked; or, answers missing, a name stated once past the deepest stated answer."""
    answer_depths = {r.depth[("a", i)] for i in r.stated_a if ("a", i) in r.depth}
    answer_sentences = [s for s in sentences if s.answers]
    with_answer = {k for s in answer_sentences for k in s.others}
    in_place, same_depth = 0.0, 0.0
    for j, s in enumerate(sentences):
        if s.answers:
            continue
        if any(r.depth.get(("o", k)) in answer_depths for k in s.others if k not in with_answer):
            same_depth = 1.0
        leaves = [k for k in s.others if k in once]
        if not leaves:
            continue
        names = set(_nodes(s)) - {("o", k) for k in leaves}
        for a in answer_sentences:
            if names & set(_nodes(a)) and (s.words & a.words or not (s.words or a.words)):
                in_place = 1.0
        if not answer_sentences and ("s", j) in r.near and s.words & c.asked:
            in_place = max(in_place, 0.5)
    deepest = max(answer_depths, default=None)
    if deepest is not None and len(r.stated_a) < len(c.answers):
        in_place = max(in_place, float(any(r.depth.get(("o", k), -1) > deepest for k in once)))
    return max(in_place, same_depth), same_depth


def _covered(words: set[str], evidence: set[str]) -> float:
    """Share of these stems the evidence uses, a compound's part counting ("screenwrit" ~ "writ")."""
    if not words:
        return 1.0
    return sum(w in evidence or any(_part(w, e) for e in evidence) for w in words) / len(words)


def _evidence_stems(c: ClaimReading, sentences: list[SentenceReading], stated_a: set[int]) -> set[str]:
    """Every stem the evidence uses: its words, its names, and the answers it states."""
    words = {w for s in sentences for w in s.words}
    names = {w for s in sentences for k in (*s.others, *(c.topics[i] for i in s.topics)) for w in k}
    return {stem(w) for w in words | names} | {stem(w) for i in stated_a for w in c.answers[i]}


def analyse(reading: Reading) -> Analysis:
    c, sentences = reading.claim, reading.sentences
    g = EvidenceGraph(reading)
    r = _reach(g, c, sentences)
    n_s, n_a = max(1, len(sentences)), max(1, len(c.answers))
    on_claim = sum(("s", j) in r.near for j in range(len(sentences)))
    together = sum(any(i in s.answers for s in sentences if s.topics) for i in r.stated_a)
    others = {k for s in sentences for k in s.others}
    once = [k for k in others if g.mentions(("o", k)) == 1]
    in_place, same_depth = _in_place(c, sentences, r, once)
    answer_numbers = {w for a, kind in zip(c.answers, c.answer_kinds, strict=True) if kind == "num" for w in a}
    other_number = bool(answer_numbers) and any(
        s.topics and s.numbers and not s.numbers & answer_numbers for s in sentences
    )
    evidence = _evidence_stems(c, sentences, r.stated_a)
    extra = {w for s in sentences for w in s.words} - c.question_stems - c.statement_stems
    asked_covered = _covered(c.asked, evidence)
    rule, reason = _rule(c, r.stated_a, r.stated_t, r.reached_any, r.topics_reaching, r.joined, in_place, asked_covered)
    hops = r.hops
    values = {
        "sentences": min(len(sentences), 10) / 10,
        "answers": min(len(c.answers), 5) / 5,
        "answers stated": len(r.stated_a) / n_a if c.answers else 0.0,
        "all answers stated": float(bool(c.answers) and len(r.stated_a) == len(c.answers)),
        "no answer stated": float(not r.stated_a),
        "topics": min(len(c.topics), 4) / 4,
        "topics stated": len(r.stated_t) / len(c.topics) if c.topics else 0.0,
        "all topics stated": float(len(r.stated_t) == len(c.topics)),
        "answers reached from a topic": r.reached_any / n_a if c.answers else 0.0,
        "answers reached from every topic": r.reached_all / n_a if c.answers else 0.0,
        "topics reaching an answer": r.topics_reaching / len(c.topics) if c.topics else 0.0,
        "topics joined by the evidence": float(r.joined and len(r.stated_t) == len(c.topics)),
        "another name joined to every topic": float(r.joined_name),
        "mean hops to an answer": min(sum(hops) / len(hops), 5) / 5 if hops else 0.0,
        "longest hops to an answer": min(max(hops), 5) / 5 if hops else 0.0,
        "more hops than asked words": float(bool(hops) and max(hops) > max(1, len(c.asked))),
        "sentences reaching the claim": on_claim / n_s,
        "sentences apart from the claim": (len(sentences) - on_claim) / n_s,
        "answers with a topic in one sentence": together / n_a if c.answers else 0.0,
        "other names": min(len(others), 8) / 8,
        "other names stated once": min(len(once), 8) / 8,
        "another name in an answer's place": in_place,
        "another name as far from the topics as an answer": same_depth,
        "another name shaped like an answer": max((_like(k, c.answers, c.answer_kinds) for k in once), default=0.0),
        "a number other than the answer's": float(other_number),
        "question words covered": _covered(c.question_stems, evidence),
        "statement words covered": _covered(c.statement_stems, evidence),
        "asked words covered": asked_covered,
        "words neither question nor statement uses": min(len(extra), 8) / 8,
        "asked words": min(len(c.asked), 8) / 8,
    }
    for cat in CATEGORIES:
        values[f"rule: {cat.replace('_', ' ')}"] = float(rule == cat)
    return Analysis(values, rule, reason)


def _rule(
    c: ClaimReading,
    answers: set[int],
    topics: set[int],
    reached: int,
    topics_reaching: int,
    joined: bool,
    in_place: float,
    asked_covered: float,
) -> tuple[str, str]:
    """The verdict the structure alone gives, and why, in words."""
    name = " ".join
    missing_a = [name(c.answers[i]) for i in range(len(c.answers)) if i not in answers]
    missing_t = [name(c.topics[i]) for i in range(len(c.topics)) if i not in topics]
    if c.answers and not missing_a and not missing_t and reached == len(c.answers) and topics_reaching == len(topics):
        return "supportive", "every answer is reached from a topic, and every topic leads to an answer"
    if answers and not topics and c.topics and asked_covered == 0:
        return "irrelevant", "the evidence names an answer but neither the topics nor what is asked"
    if answers:
        if missing_a and in_place:
            return "contradictory", f"another name stands where {', '.join(missing_a)} should"
        gaps = (
            [f"answers not stated: {', '.join(missing_a)}"] * bool(missing_a)
            + [f"topics not stated: {', '.join(missing_t)}"] * bool(missing_t)
            + ["a topic and an answer are not linked by the cited facts"] * (not missing_a and not missing_t)
        )
        return "partially_supportive", "; ".join(gaps)
    if in_place or (topics and joined and not missing_t and asked_covered >= 0.5):
        return "contradictory", "no answer is stated; the facts asked about lead to another name"
    if topics:
        return "irrelevant", "the evidence touches the topics but states no answer and not what is asked"
    return "irrelevant", "the evidence touches neither the topics nor the answers"


class Combiner:
    """Small networks over the features, one hidden layer each (numpy only), their probabilities
    averaged: several seeds of ``kgcite train struct`` in one JSON file (``members``)."""

    def __init__(self, weights: dict[str, Any]) -> None:
        self.features: list[str] = list(weights["features"])
        self.labels: list[str] = list(weights["labels"])
        members = weights.get("members") or [weights]
        self.members = [tuple(np.asarray(m[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2")) for m in members]
        self.card: dict[str, Any] = dict(weights.get("card", {}))

    @classmethod
    def load(cls, path: str | Path) -> Combiner:
        return cls(json.loads(Path(path).read_text()))

    @property
    def reads_text(self) -> bool:
        """Whether it was trained with a text model's scores among its features."""
        return any(f in self.features for f in TEXT_FEATURES)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros((x.shape[0], len(self.labels)))
        for w1, b1, w2, b2 in self.members:
            z = np.maximum(0.0, x @ w1 + b1) @ w2 + b2
            z -= z.max(axis=1, keepdims=True)
            e = np.exp(z)
            out += e / e.sum(axis=1, keepdims=True)
        return out / len(self.members)

    def influence(self, x: np.ndarray, label: int) -> list[tuple[str, float]]:
        """Each feature's share in the winning label's logit (input × gradient, averaged over the
        members), largest first: the three that weighed most."""
        contrib = np.zeros(len(self.features))
        for w1, b1, w2, _ in self.members:
            grad = ((x @ w1 + b1) > 0) * w2[:, label]
            contrib += x * (w1 @ grad)
        contrib /= len(self.members)
        order = np.argsort(-np.abs(contrib))
        return [(self.features[i], round(float(contrib[i]), 3)) for i in order[:3] if abs(contrib[i]) > 1e-6]


class TextScorer(Protocol):
    """A text evaluator whose scores become features (the trained cross-encoder)."""

    @property
    def name(self) -> str: ...

    def judge(self, items: Sequence[AttributionItem]) -> list[Judgement]: ...


SHIPPED = Path(__file__).resolve().parents[2] / "models" / "data" / "structured" / "combiner.json"


class StructuredEvaluator:
    """``--evaluator struct``: features from the reading (and the text model's scores when the
    combiner was trained with them), one combiner, an explanation per judgement."""

    def __init__(self, combiner: Combiner | None = None, text: TextScorer | None = None) -> None:
        self.combiner = combiner
        self.text = text
        if combiner is not None and combiner.reads_text and text is None:
            raise ValueError("this combiner reads a text model's scores: give the text model too")

    @property
    def name(self) -> str:
        if self.combiner is None:
            return "struct:rules"
        return "struct" + (f"+{self.text.name}" if self.text is not None and self._uses_text else "")

    @property
    def _uses_text(self) -> bool:
        return self.combiner is not None and self.combiner.reads_text

    def analyses(
        self, items: Sequence[AttributionItem]
    ) -> tuple[list[Reading], list[Analysis], list[dict[str, float]]]:
        """The reading, the structural analysis and the full feature row of each item."""
        return _analyses(items, self.text if self._uses_text else None)

    def judge(self, items: Sequence[AttributionItem]) -> list[Judgement]:
        if not items:
            return []
        readings, analyses, rows = self.analyses(items)
        if self.combiner is None:
            return [
                Judgement(a.rule, {a.rule: 1.0}, {"facts": r.facts(), "rule": a.rule, "reason": a.reason})
                for r, a in zip(readings, analyses, strict=True)
            ]
        x = np.asarray([[row.get(f, 0.0) for f in self.combiner.features] for row in rows], dtype=np.float64)
        probs = self.combiner.probabilities(x)
        out = []
        for k, (r, a) in enumerate(zip(readings, analyses, strict=True)):
            order = [int(i) for i in np.argsort(-probs[k])]
            unlinked = a.values["answers reached from a topic"] < a.values["answers stated"]
            guarded = unlinked and self.combiner.labels[order[0]] == "supportive"
            best = order[1] if guarded else order[0]  # supportive needs a chain: never with an answer cut off
            label = self.combiner.labels[best]
            decided = "the rule" if label == a.rule else "the combiner"
            why = {
                "facts": r.facts(),
                "rule": a.rule,
                "reason": a.reason,
                "decided by": "the guard: an answer no topic reaches is never supported" if guarded else decided,
                "strongest features": self.combiner.influence(x[k], best),
            }
            out.append(
                Judgement(label, {c: float(p) for c, p in zip(self.combiner.labels, probs[k], strict=True)}, why)
            )
        return out


def load_structured(spec: str | Path | None = None) -> StructuredEvaluator:
    """``None``/``kgcite`` → the shipped combiner; ``rules`` → the rules alone (no combiner); else a
    ``kgcite train struct`` folder (or its ``combiner.json``). A combiner trained with a text model's
    scores loads that model too (the one named in its card)."""
    name = str(spec or "")
    if name == "rules":
        return StructuredEvaluator()
    path = SHIPPED if name in ("", "kgcite") else Path(name)
    if path.is_dir():
        path = path / "combiner.json"
    if not path.exists():
        raise FileNotFoundError(f"{path}: no combiner here; make one with `kgcite train struct --out DIR`")
    combiner = Combiner.load(path)
    text = None
    if combiner.reads_text:
        from kgcite.models.evaluator import load_evaluator

        text = load_evaluator(combiner.card.get("text model spec") or None)
    return StructuredEvaluator(combiner, text)


def _analyses(
    items: Sequence[AttributionItem], text: TextScorer | None
) -> tuple[list[Reading], list[Analysis], list[dict[str, float]]]:
    readings = [read(i) for i in items]
    analyses = [analyse(r) for r in readings]
    rows = [dict(a.values) for a in analyses]
    if text is not None:
        for row, j in zip(rows, text.judge(items), strict=True):
            row.update({f: j.scores.get(c, 0.0) for c, f in zip(CATEGORIES, TEXT_FEATURES, strict=True)})
    return readings, analyses, rows


def feature_rows(items: Sequence[AttributionItem], text: TextScorer | None = None) -> list[dict[str, float]]:
    """The features a combiner reads (with ``text``'s four scores when given), for training it."""
    return _analyses(items, text)[2]
