"""KG logical queries for CAQA-style generation (CAQA §4.1, Table 4): triple patterns over an
in-memory index of the graph, answered and grounded by propagation (all queries here are trees).

A pattern is ``(subject, relation, object)``; a term starting with ``?`` is a variable and
``?a`` is the answer. A :class:`Query` is a union of conjunctive branches (one branch unless a
union extension made more). Entities are the graph's ids (labels, for TSV graphs like MetaQA).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kgcite.kg.keys import property_key
from kgcite.kg.model import Triple

Pattern = tuple[str, str, str]
Fact = tuple[str, str, str]  # a grounded triple (subject id, relation, object id)
ANSWER = "?a"


def is_var(term: str) -> bool:
    return term.startswith("?")


@dataclass(frozen=True)
class Query:
    branches: tuple[tuple[Pattern, ...], ...]

    @classmethod
    def of(cls, patterns: Sequence[Pattern]) -> Query:
        return cls((tuple(patterns),))

    @property
    def patterns(self) -> tuple[Pattern, ...]:
        return tuple(p for b in self.branches for p in b)

    def constants(self) -> set[str]:
        return {t for s, _, o in self.patterns for t in (s, o) if not is_var(t)}

    def relations(self) -> set[str]:
        return {r for _, r, _ in self.patterns}

    def structure(self) -> str:
        """``single``, ``path`` (a chain from one constant to ?a), ``tree`` (several constants meeting at ?a), ``union``."""
        if len(self.branches) > 1:
            return "union"
        pats = self.branches[0]
        if len(pats) == 1:
            return "single"
        constants = [t for s, _, o in pats for t in (s, o) if not is_var(t)]
        return "path" if len(constants) == 1 else "tree"

    def to_list(self) -> list[list[list[str]]]:
        return [[list(p) for p in b] for b in self.branches]


class TripleIndex:
    """Adjacency of a graph by (entity, relation), both directions, plus labels. An entity's
    ``name`` triple (its label) is left out: no question is built on "X's name is X"."""

    def __init__(self, triples: Iterable[Triple]) -> None:
        self.out: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.inc: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.around: dict[str, list[Fact]] = defaultdict(list)
        self.labels: dict[str, str] = {}
        self.by_relation: dict[str, list[Fact]] = defaultdict(list)
        for t in triples:
            if t.is_label:
                continue
            o = t.object_id or t.object_value
            fact = (t.subject_id, t.relation, o)
            if o in self.out[(t.subject_id, t.relation)]:
                continue
            self.out[(t.subject_id, t.relation)].add(o)
            self.inc[(o, t.relation)].add(t.subject_id)
            self.around[t.subject_id].append(fact)
            self.around[o].append(fact)
            self.by_relation[t.relation].append(fact)
            self.labels.setdefault(t.subject_id, t.subject_label)
            self.labels.setdefault(o, t.object_value)
        self.by_label: dict[str, list[str]] = defaultdict(list)
        for e, label in self.labels.items():
            self.by_label[label.lower()].append(e)
        self.relation_names = {property_key(r): r for r in sorted(self.by_relation, reverse=True)}

    def relation(self, name: str) -> str | None:
        """The graph's spelling of a relation named in any spelling (``Directed By`` → ``directed_by``)."""
        return self.relation_names.get(property_key(name))

    def has(self, fact: Fact) -> bool:
        return fact[2] in self.out.get((fact[0], fact[1]), ())

    def label(self, entity: str) -> str:
        return self.labels.get(entity, entity)


def _domains(
    facts: TripleIndex | set[Fact], patterns: Sequence[Pattern], fixed: dict[str, str]
) -> dict[str, set[str]] | None:
    """Semi-join propagation to a fixpoint: each variable's possible values (exact for trees)."""
    index = facts if isinstance(facts, TripleIndex) else TripleIndex(Triple(s, s, r, o, o) for s, r, o in facts)
    dom: dict[str, set[str] | None] = {}
    for s, _, o in patterns:
        for t in (s, o):
            if is_var(t):
                dom[t] = {fixed[t]} if t in fixed else None
    for s, r, o in patterns:
        if not is_var(s) and not is_var(o) and o not in index.out.get((s, r), ()):
            return None  # a constant fact the graph lacks
    changed = True
    while changed:
        changed = False
        for s, r, o in patterns:
            left = {s} if not is_var(s) else dom[s]
            right = {o} if not is_var(o) else dom[o]
            if left is not None and is_var(o):
                reach = set().union(*(index.out.get((x, r), ()) for x in left))
                new = reach if right is None else right & reach
                if new != right:
                    dom[o], right, changed = new, new, True
            if right is not None and is_var(s):
                reach = set().union(*(index.inc.get((y, r), ()) for y in right))
                new = reach if left is None else left & reach
                if new != left:
                    dom[s], changed = new, True
    if any(v is not None and not v for v in dom.values()):
        return None
    return {k: v if v is not None else set() for k, v in dom.items()}


def answers(facts: TripleIndex | set[Fact], query: Query) -> set[str]:
    """The union of the branches' answers; the query's own constants are never answers (MetaQA's rule)."""
    out: set[str] = set()
    for branch in query.branches:
        dom = _domains(facts, branch, {})
        if dom is not None:
            out |= dom.get(ANSWER, set())
    return out - query.constants()


def ground(index: TripleIndex, patterns: Sequence[Pattern], answer: str, rng: random.Random) -> list[Fact] | None:
    """One binding of a branch that yields ``answer``: its facts, or None if there is none."""
    fixed = {ANSWER: answer}
    variables = list(dict.fromkeys(t for s, _, o in patterns for t in (s, o) if is_var(t) and t != ANSWER))
    dom = _domains(index, patterns, fixed)
    if dom is None:
        return None
    for v in variables:
        options = sorted(dom[v])
        if not options:
            return None
        fixed[v] = rng.choice(options)
        dom = _domains(index, patterns, fixed)
        if dom is None:
            return None
    facts = []
    for s, r, o in patterns:
        fact = (fixed.get(s, s), r, fixed.get(o, o))
        if not index.has(fact):
            return None
        facts.append(fact)
    return facts
