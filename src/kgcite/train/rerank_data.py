"""Query–passage relevance pairs for kgcite's re-ranker, made from knowledge graphs.

No MS MARCO here, so the passages are paragraphs that state an entity's facts and the queries
ask for one of its properties. Labels come from the graph: the paragraph about the asked
entity that states the asked property is ``relevant``; the same entity without that property,
another entity with it, and an unrelated entity are ``irrelevant`` (the hard negatives teach the
model to check both the entity and the property, which a bi-encoder blurs).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kgcite.kg.model import Triple
from kgcite.text.lexicon import property_label
from kgcite.train.nli_data import LabelledPair

LABELS: tuple[str, ...] = ("irrelevant", "relevant")

#: Question shapes for "ask entity S for property R".
QUESTIONS: tuple[str, ...] = (
    "What is the {r} of {s}?",
    "What is {s}'s {r}?",
    "Who or what is the {r} of {s}?",
    "{s} {r}",
    "Tell me the {r} of {s}.",
    "which {r} does {s} have",
)


@dataclass(frozen=True, slots=True)
class Query:
    text: str
    subject_id: str
    relation: str


#: An entity's fact: the relation as seen from the entity (``r`` or ``^r`` when it is the object).
Fact = tuple[str, Triple]


def facts_by_entity(triples: Sequence[Triple], *, inverse: bool = False) -> dict[str, list[Fact]]:
    out: dict[str, list[Fact]] = defaultdict(list)
    for t in triples:
        out[t.subject_id].append((t.relation, t))
        if inverse and t.object_id:
            out[t.object_id].append(("^" + t.relation, t))
    return out


def paragraph(
    facts: Sequence[Fact],
    rng: random.Random,
    say: Callable[[Triple], str],
    *,
    must: str | None = None,
    drop: str | None = None,
    size: int = 5,
) -> str:
    """A few of an entity's facts in sentences: always (some of) those of ``must``, never those of ``drop``."""
    keep = [t for r, t in facts if r == must][:3]
    rest = [t for r, t in facts if r not in (must, drop)]
    rng.shuffle(rest)
    chosen = keep + rest[: max(0, size - len(keep))]
    rng.shuffle(chosen)
    return " ".join(say(t) for t in chosen)


def relevance_pairs(
    triples: Sequence[Triple],
    say: Callable[[Triple], str],
    *,
    n_queries: int,
    seed: int = 0,
    questions: Sequence[Query] | None = None,
    source: str = "",
) -> list[LabelledPair]:
    """Four pairs per query (premise = query, hypothesis = passage): one relevant, three not.

    Without ``questions``, queries are made from templates over subjects; given ``questions``
    (with ``^relation`` for an entity in object position), facts are indexed both ways."""
    rng = random.Random(seed)
    facts = facts_by_entity(triples, inverse=questions is not None)
    holders: dict[str, list[str]] = defaultdict(list)
    for s, fs in facts.items():
        for r in {r for r, _ in fs}:
            holders[r].append(s)
    subjects = sorted(s for s, fs in facts.items() if len({r for r, _ in fs}) >= 2)
    if questions is None:
        questions = []
        for s in rng.sample(subjects, min(n_queries, len(subjects))):
            r = rng.choice(sorted({r for r, _ in facts[s]}))
            label = facts[s][0][1].subject_label
            questions.append(Query(rng.choice(QUESTIONS).format(r=property_label(r), s=label), s, r))
    pairs: list[LabelledPair] = []
    order = list(questions)
    rng.shuffle(order)
    made = 0
    for q in order:
        if made == n_queries:
            break
        own = facts.get(q.subject_id, [])
        others = [s for s in holders.get(q.relation, []) if s != q.subject_id]
        if not own or not others or all(r == q.relation for r, _ in own):
            continue
        pos = paragraph(own, rng, say, must=q.relation)
        same_entity = paragraph(own, rng, say, drop=q.relation)
        same_relation = paragraph(facts[rng.choice(others)], rng, say, must=q.relation)
        unrelated = paragraph(facts[rng.choice(subjects)], rng, say, drop=q.relation)
        negatives = (same_entity, same_relation, unrelated)
        if not pos or not all(negatives):
            continue
        made += 1
        pairs.append(LabelledPair(q.text, pos, "relevant", source))
        pairs.extend(LabelledPair(q.text, p, "irrelevant", source) for p in negatives)
    return pairs
