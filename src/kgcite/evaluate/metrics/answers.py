"""Answer metrics for question answering over a graph (``kgcite eval answers``): pure functions.

A row is one line of ``kgcite run``'s output: gold ``answers``, the ``predicted`` labels best
first, the ``answer_paths`` (label → the ``[subject, property, value]`` triples citing it) and
the ``topic`` labels. Names are compared case-insensitively, ``_`` read as a space.

- ``hits_at_1``: the first predicted answer is gold (KGQA's headline number); where the gold
  is empty (the graph does not hold the answer), predicting nothing is the hit;
- ``answer_precision`` / ``answer_recall`` / ``answer_f1``: per question, averaged (an
  unanswered question scores 0 on all three);
- ``citation_correctness``: cited triples the graph holds, over all cited triples;
- ``path_cited``: of the right answers, the share whose cited triples chain from a topic entity
  to the answer (each triple shares an entity with the one before); for a derived answer (yes
  or no, a count, a comparison, what two share) the share whose conclusion cites every fact
  stated before it;
- ``na_rate``: questions answered by nothing: no predicted answer, or no sentence the judge
  supported (an answer made only of ``[NA]`` sentences is no answer, whatever it predicted);
  ``llm_calls_per_question``; ``p50_ms``.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from kgcite.kg.store import KGStore

CitedTriple = tuple[str, str, str]


def norm(name: str) -> str:
    return " ".join(str(name).replace("_", " ").lower().split())


def first_is_gold(predicted: Sequence[str], gold: Iterable[str]) -> bool:
    """Hits@1 of one question: the first predicted answer is gold; with no gold, predicting
    nothing is the hit (the right answer is ``[NA]``)."""
    gold_n = {norm(g) for g in gold}
    return norm(predicted[0]) in gold_n if predicted else not gold_n


def set_scores(predicted: Sequence[str], gold: Iterable[str]) -> tuple[float, float, float]:
    """(precision, recall, F1) of a predicted answer set; nothing predicted where the gold is
    empty (the graph does not hold the answer) is right: 1, 1, 1."""
    p, g = {norm(x) for x in predicted}, {norm(x) for x in gold}
    if not p and not g:
        return 1.0, 1.0, 1.0
    hit = len(p & g)
    if not hit:
        return 0.0, 0.0, 0.0
    precision, recall = hit / len(p), hit / len(g)
    return precision, recall, 2 * precision * recall / (precision + recall)


def chains_to(triples: Sequence[CitedTriple], topics: Iterable[str], answer: str) -> bool:
    """Whether the triples walk from a topic to the answer, in order, each sharing an entity
    with the previous one (either direction: a path may follow a relation backwards)."""
    if not triples:
        return False
    starts = {norm(t) for t in topics}
    at = {norm(triples[0][0]), norm(triples[0][2])} & starts
    if not at:
        return False
    reached = {norm(triples[0][0]), norm(triples[0][2])}
    for s, _, o in triples[1:]:
        ends = {norm(s), norm(o)}
        if not ends & reached:
            return False
        reached = ends
    return norm(answer) in reached


#: The forms whose answer is derived from facts: its conclusion sentence cites them all.
DERIVED_FORMS = frozenset(["yesno", "count", "comparison", "superlative", "intersection"])


def supported(sentences: Sequence[Mapping[str, Any]] | None) -> bool:
    """Whether an answer has a sentence the judge supported; an answer without sentences (an
    older run's line) is taken at its prediction."""
    return sentences is None or any(not s.get("na") for s in sentences)


def conclusion_cited(sentences: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a derived answer's last sentence (its conclusion) cites every triple the fact
    sentences before it cite: "So A is older [1][2]" rests on both dates."""
    stated = [s for s in sentences if not s.get("na")]
    if not stated:
        return False

    def keys(s: Mapping[str, Any]) -> set[tuple[str, str, str]]:
        return {(str(c["qid"]), str(c["property"]), str(c["value"])) for c in s.get("citations") or []}

    facts = set().union(*(keys(s) for s in stated[:-1])) if len(stated) > 1 else set()
    return bool(keys(stated[-1])) and facts <= keys(stated[-1])


def held_by(store: KGStore) -> Callable[[CitedTriple], bool]:
    """``in_graph`` for :func:`answer_metrics`: the store holds ``[subject id, property, value]``."""
    return lambda t: bool(store.match(subject_id=t[0], relation=t[1], value=t[2], limit=1))


def answer_metrics(
    rows: Sequence[Mapping[str, Any]], in_graph: Callable[[CitedTriple], bool] | None = None
) -> dict[str, Any]:
    """The figures over rows; ``in_graph`` checks a cited triple (None: citation_correctness is not computed)."""
    n = len(rows)
    if not n:
        return {"n": 0}
    hits = 0
    prf = []
    cited = correct = right = chained = na = 0
    llm_calls: list[float] = []
    ms: list[float] = []
    for row in rows:
        sentences = row.get("sentences")
        predicted = [str(x) for x in row.get("predicted") or []] if supported(sentences) else []
        gold = [str(x) for x in row.get("answers") or []]
        derived = row.get("form") in DERIVED_FORMS and bool(sentences)
        gold_n = {norm(g) for g in gold}
        hits += first_is_gold(predicted, gold)
        prf.append(set_scores(predicted, gold))
        na += not predicted
        llm_calls.append(float(row.get("llm_calls") or 0))
        if row.get("ms") is not None:
            ms.append(float(row["ms"]))
        paths: Mapping[str, Sequence[Sequence[str]]] = row.get("answer_paths") or {}
        for label in predicted:
            if norm(label) in gold_n:
                right += 1
                if derived:
                    chained += conclusion_cited(sentences or [])
                    continue
                chain = [(str(a), str(b), str(c)) for a, b, c in paths.get(label) or []]
                chained += chains_to(chain, row.get("topic") or [], label)
        if in_graph is not None:
            for t in row.get("citations") or []:
                cited += 1
                correct += in_graph((str(t[0]), str(t[1]), str(t[2])))
    out: dict[str, Any] = {
        "n": n,
        "hits_at_1": hits / n,
        "answer_precision": statistics.fmean(p for p, _, _ in prf),
        "answer_recall": statistics.fmean(r for _, r, _ in prf),
        "answer_f1": statistics.fmean(f for _, _, f in prf),
        "citation_correctness": (correct / cited if cited else None) if in_graph is not None else None,
        "path_cited": chained / right if right else None,
        "na_rate": na / n,
        "llm_calls_per_question": statistics.fmean(llm_calls),
        "p50_ms": statistics.median(ms) if ms else None,
    }
    return out
