"""KGQA samples made from any graph: 1–3-hop path questions, for graphs that come without any.

A walk of 1–3 relations from a random entity becomes a path query and a question spoken from
the relations' own phrasings ("What is the genre of the works illustrated by Vask Orly?"). Only
walks with 1–5 answers are kept, so statements stay readable. Graphs that name values instead
of linking them (BioKaLMA) are linked first: a value that is the label of exactly one entity
becomes a link to it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable

from kgcite.bench.caqa import KGQASample
from kgcite.bench.caqa_query import ANSWER, Pattern, Query, TripleIndex, answers
from kgcite.bench.caqa_text import phrasings, restriction, spoken_name
from kgcite.kg.model import Triple


def link_by_name(triples: Iterable[Triple]) -> list[Triple]:
    """Values that are the label of exactly one entity become links to it (case-insensitive)."""
    triples = list(triples)
    named: dict[str, set[str]] = defaultdict(set)
    for t in triples:
        named[t.subject_label.lower()].add(t.subject_id)
    out = []
    for t in triples:
        ids = named.get(t.object_value.lower(), set()) if t.object_id is None and not t.is_label else set()
        out.append(
            Triple(t.subject_id, t.subject_label, t.relation, t.object_value, next(iter(ids))) if len(ids) == 1 else t
        )
    return out


def _noun_form(relation: str) -> bool:
    return phrasings(relation)[0].startswith("{s}'s ")


def _hop(np_: str, relation: str, forward: bool) -> str:
    """The noun phrase one hop on: "the genre of NP", "those that were illustrated by NP"."""
    if forward and _noun_form(relation):
        return f"the {relation.replace('_', ' ')} of {np_}"
    return "those " + restriction(relation, np_, answer_is_subject=not forward)


def path_samples(
    index: TripleIndex, n: int, seed: int = 0, *, hops: tuple[int, ...] = (1, 2, 3), max_answers: int = 5
) -> list[KGQASample]:
    """Up to ``n`` path questions (hop counts drawn from ``hops``), one per start entity."""
    rng = random.Random(f"paths:{seed}")
    starts = sorted(e for e in index.around if e in index.labels and not e.startswith("?"))
    rng.shuffle(starts)
    out: list[KGQASample] = []
    for start in starts:
        if len(out) >= n:
            break
        want = rng.choice(hops)
        patterns: list[Pattern] = []
        here, np_, used = start, spoken_name(index.label(start)), {start}
        for i in range(want):
            facts = [f for f in index.around.get(here, ())[:200] if (f[2] if f[0] == here else f[0]) not in used]
            if not facts:
                break
            s, r, o = rng.choice(facts)
            forward = s == here
            there = ANSWER if i == want - 1 else f"?v{i + 1}"
            subject = here if i == 0 else f"?v{i}"
            patterns.append((subject, r, there) if forward else (there, r, subject))
            np_ = _hop(np_, r, forward)
            here = o if forward else s
            used.add(here)
        if len(patterns) != want:
            continue
        query = Query.of(patterns)
        got = answers(index, query)
        if not 1 <= len(got) <= max_answers:
            continue
        question = f"What is {np_}?" if np_.startswith("the ") else f"Which are {np_}?"
        out.append(KGQASample(f"path{want}-{start}", question, tuple(sorted(got)), query))
    return out
