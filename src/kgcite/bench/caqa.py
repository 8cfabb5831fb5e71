"""CAQA-style attribution benchmarks from any KG and KGQA samples (CAQA §4, Table 4).

Per KGQA sample whose query reproduces its gold answers over the graph: extend the query
(Table 4, the paper's probabilities), ground it to a supporting subgraph G, and edit G into the
four attribution categories — supportive (G), partially supportive (a triple, or a subject's
path, deleted), contradictory (an answer entity replaced by a non-answer entity in the same
role), irrelevant (a same-size subgraph around the subject with other relations, no triple of
G). Every edit is checked by re-answering the query over the edited subgraph; an edit that does
not have its category's effect is not emitted. Deterministic for a seed.

Adaptation: the union extension joins entities *sharing e0's name*; where ids are names
(MetaQA) there are none, so it takes an entity in the same role that shares a neighbour with e0.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kgcite.bench.caqa_query import ANSWER, Fact, Pattern, Query, TripleIndex, answers, ground, is_var
from kgcite.bench.caqa_text import (
    declarative,
    humanise_text,
    id_style,
    lower_first,
    lower_wh,
    phrase,
    prime_tags,
    restriction,
    spoken_name,
)
from kgcite.errors import InputError
from kgcite.evaluate.metrics.attribution import CATEGORIES, COMPLEXITIES
from kgcite.jsonl import read_jsonl
from kgcite.kg.model import Triple
from kgcite.text.lexicon import property_label

MAX_ANSWERS = 3  # answers grounded per sample: keeps citations readable


@dataclass(frozen=True)
class KGQASample:
    id: str
    question: str
    answers: tuple[str, ...]  # entity ids
    query: Query


@dataclass(frozen=True)
class CaqaSample:
    id: str
    source: str
    question: str
    original_question: str
    answers: tuple[str, ...]
    answer_statement: str
    citations: tuple[str, ...]
    facts: tuple[Fact, ...]
    category: str
    complexity: str
    n_subfacts: int
    n_supported_subfacts: int
    query: Query
    extension: str

    @property
    def citation(self) -> str:
        return " ".join(f"[{i}] {c}" for i, c in enumerate(self.citations, 1))

    def to_dict(self) -> dict[str, Any]:
        from kgcite.schema import CaqaSampleRecord  # here, not at import: pydantic costs every command ~130 ms

        return CaqaSampleRecord(
            id=self.id,
            source=self.source,
            question=self.question,
            original_question=self.original_question,
            answers=list(self.answers),
            answer_statement=self.answer_statement,
            citation=self.citation,
            citations=list(self.citations),
            subgraph=[list(f) for f in self.facts],
            category=self.category,  # type: ignore[arg-type]  # one of CATEGORIES: checked on construction
            complexity=self.complexity,
            n_subfacts=self.n_subfacts,
            n_supported_subfacts=self.n_supported_subfacts,
            query=self.query.to_list(),
            extension=self.extension,
        ).model_dump(exclude_none=True)


# -- query extension (Table 4) ----------------------------------------------------------------


@dataclass
class Extended:
    query: Query
    question: str
    complexity: str
    name: str


#: A fact said as a sentence, its phrasing drawn from the sample's text RNG.
SayFact = Callable[[Fact, random.Random], str]


class Extender:
    def __init__(self, index: TripleIndex, say: SayFact, name: Callable[[str], str]) -> None:
        self.index, self.say, self.name = index, say, name
        self.text_rng = random.Random(0)  # set per sample by the builder

    def extend(self, sample: KGQASample, rng: random.Random) -> Extended | None:
        q = sample.query
        structure = q.structure()
        if structure == "single":  # four equally likely operations; if one is impossible, fall back
            first = rng.choice(("none", "union", "concat", "inter"))
            order = [first, *(o for o in ("inter", "concat", "none") if o != first)]
        elif structure in ("path", "tree"):
            order = ["concat", "inter"] if rng.random() < 0.5 else ["inter", "concat"]
        else:
            return Extended(q, sample.question, "union", "none")
        for op in order:
            out = self._apply(op, sample, structure, rng)
            if out is not None:
                return out
        return None

    def _apply(self, op: str, sample: KGQASample, structure: str, rng: random.Random) -> Extended | None:
        q, question = sample.query, sample.question.rstrip(" ?")
        if op == "none":
            return (
                Extended(q, sample.question, "single" if structure == "single" else "concatenation", "none")
                if structure != "tree"
                else None
            )
        if op == "union":
            return self._union(sample, rng)
        constants = sorted(q.constants())
        used = q.relations()
        if op == "concat":  # (e1, rn, e0): a fact about a subject entity, the structure kept
            anchor = constants[0] if structure != "tree" else rng.choice(constants)
            facts = [
                f
                for f in self.index.around.get(anchor, ())
                if f[1] not in used and not set(f) & (set(sample.answers) - {anchor})
            ]
            if not facts:
                return None
            fact = rng.choice(facts)
            complexity = "intersection" if structure == "tree" else "concatenation"
            return Extended(
                Query.of([*q.patterns, fact]),
                f"Given that {lower_first(self.say(fact, self.text_rng).rstrip('.'))}, {lower_wh(question)}?",
                complexity,
                "intersection-1",
            )
        # inter: (e1, rn, ?a) with a non-empty intersection of the answers
        a = rng.choice(sorted(sample.answers))
        facts = [f for f in self.index.around.get(a, ()) if f[1] not in used and (f[0] == a) != (f[2] == a)]
        if not facts:
            return None
        s, r, o = rng.choice(facts)
        pattern: Pattern = (ANSWER, r, o) if s == a else (s, r, ANSWER)
        extra = restriction(r, self.name(o if s == a else s), s == a)
        return Extended(
            Query.of([*q.patterns, pattern]), f"{question}, among those {extra}?", "intersection", "intersection-2"
        )

    def _union(self, sample: KGQASample, rng: random.Random) -> Extended | None:
        ((s, r, o),) = sample.query.patterns
        e0, subject_side = (s, True) if not is_var(s) else (o, False)
        label = self.index.label(e0)
        same = [e for e in self.index.by_label.get(label.lower(), ()) if e != e0]
        if not same:  # ids are names: an entity in the same role sharing a neighbour with e0
            pool = []
            for fs, fr, fo in self.index.around.get(e0, ())[:20]:
                n = fo if fs == e0 else fs
                pool += [x for xs, _, xo in self.index.around.get(n, ())[:50] for x in (xs, xo) if x not in (e0, n)]
            same = sorted({x for x in pool if (x, r) in (self.index.out if subject_side else self.index.inc)})
        if not same:
            return None
        e1 = rng.choice(sorted(same))
        branch: Pattern = (e1, r, o) if subject_side else (s, r, e1)
        query = Query((((s, r, o),), (branch,)))
        return Extended(query, f"{sample.question.rstrip(' ?')}? And for {self.name(e1)}?", "union", "union")


# -- grounding and edits ------------------------------------------------------------------------


@dataclass
class Grounded:
    facts: list[tuple[int, int, Fact]]  # (branch, pattern, fact)
    answers: list[str]
    gold: set[str] = field(default_factory=set)  # every answer of the extended query over the KG

    @property
    def fact_set(self) -> list[Fact]:
        return list(dict.fromkeys(f for _, _, f in self.facts))


def ground_query(index: TripleIndex, query: Query, rng: random.Random) -> Grounded | None:
    gold = answers(index, query)
    if not gold:
        return None
    per_branch = [sorted(answers(index, Query((b,)))) for b in query.branches]
    chosen: list[str] = []
    facts: list[tuple[int, int, Fact]] = []
    for bi, branch in enumerate(query.branches):
        options = [a for a in per_branch[bi] if a in gold and a not in chosen]
        rng.shuffle(options)
        take = max(1, (MAX_ANSWERS - len(chosen)) // (len(query.branches) - bi))
        for a in options[:take]:
            got = ground(index, branch, a, rng)
            if got is not None:
                chosen.append(a)
                facts += [(bi, pi, f) for pi, f in enumerate(got)]
    if not chosen:
        return None
    return Grounded(facts, chosen, gold)


def _answer_pattern(query: Query) -> Pattern:
    return next(p for p in query.branches[0] if ANSWER in (p[0], p[2]))


def contradictory(index: TripleIndex, query: Query, g: Grounded, rng: random.Random) -> tuple[list[Fact], int] | None:
    """Replace one answer by a non-answer entity in the same role of the same relation."""
    _, r, o = _answer_pattern(query)
    a = rng.choice(g.answers)
    role = 2 if o == ANSWER else 0
    pool = index.by_relation.get(r, [])
    for _ in range(20):
        c = rng.choice(pool)[role]
        if c not in g.gold and c not in query.constants():
            break
    else:
        return None
    facts = g.fact_set
    edited = [tuple(c if x == a else x for x in f) for f in facts]
    unchanged = sum(e == f for e, f in zip(edited, facts, strict=True))
    out: list[Fact] = list(dict.fromkeys(edited))  # type: ignore[arg-type]
    return (out, unchanged) if c in answers(set(out), query) else None


def partial(query: Query, g: Grounded, complexity: str, rng: random.Random) -> tuple[list[Fact], int] | None:
    """Concatenation: delete one triple; intersection/union: delete a subject's path to the answer.
    None for single-triple queries (the paper makes none) or when no deletion loses an answer."""
    if complexity == "single":
        return None
    facts = g.fact_set
    if complexity == "concatenation":
        groups = [[f] for f in facts]
    else:  # the facts of the patterns on one constant's path (a union branch, or a tree arm)
        groups = [[f for bi, pi, f in g.facts if (bi, pi) in arm] for arm in _arms(query)]
    rng.shuffle(groups)
    for gone in groups:
        left = [f for f in facts if f not in gone]
        if gone and left and not set(g.answers) <= answers(set(left), query):
            return left, len(left)
    return None


def _arms(query: Query) -> list[set[tuple[int, int]]]:
    """Per constant, the (branch, pattern) positions on its path to ?a."""
    out = []
    for bi, branch in enumerate(query.branches):
        for c in sorted({t for s, _, o in branch for t in (s, o) if not is_var(t)}):
            arm: set[tuple[int, int]] = set()
            frontier = {c}
            while frontier and ANSWER not in frontier:
                step = {
                    (bi, pi)
                    for pi, (s, _, o) in enumerate(branch)
                    if (s in frontier or o in frontier) and (bi, pi) not in arm
                }
                if not step:
                    break
                arm |= step
                frontier = {t for _, pi in step for t in (branch[pi][0], branch[pi][2])} - frontier
            out.append(arm)
    return out


def irrelevant(index: TripleIndex, query: Query, g: Grounded, rng: random.Random) -> list[Fact] | None:
    """A walk from the subject, as many triples as G: none of G's triples, no entity of G but the
    subject, no gold answer; other relations than the query's wherever the graph has them."""
    start = min(query.constants())
    used, supportive = query.relations(), set(g.fact_set)
    banned = ({e for f in supportive for e in (f[0], f[2])} | g.gold) - {start}
    out: list[Fact] = []
    node = start
    for _ in range(4 * len(supportive)):
        if len(out) == len(supportive):
            break
        options = [
            f
            for f in index.around.get(node, ())[:200]
            if f not in supportive and f not in out and not ({f[0], f[2]} & banned)
        ]
        fresh = [f for f in options if f[1] not in used]
        options = fresh or (options if node == start and not out else [])
        if not options:
            node = start
            continue
        f = rng.choice(options)
        out.append(f)
        node = f[2] if f[0] == node else f[0]
    return out or None


# -- samples ------------------------------------------------------------------------------------


class CaqaBuilder:
    """Samples of every category from KGQA samples. Text: names humanised, each fact in one of its
    relation's phrasings (or always through ``say`` when given), answer statements as
    declaratives; ``rules`` counts which statement rule made each statement."""

    def __init__(self, index: TripleIndex, say: Callable[[Triple], str] | None = None, *, seed: int = 0) -> None:
        self.index, self.say, self.seed = index, say, seed
        self.extender = Extender(index, self.sentence, self.name)
        self.skipped: Counter[str] = Counter()
        self.skipped_ids: list[tuple[str, str]] = []  # (sample id, reason): what a user can look up
        self.rules: Counter[str] = Counter()
        self.ids = id_style(index.labels.values())

    def question_text(self, sample: KGQASample) -> str:
        """The question with the names of its constants humanised (``stockholm`` → ``Stockholm``)."""
        text = humanise_text(sample.question)
        for c in sorted(sample.query.constants()):
            raw, name = self.index.label(c), self.name(c)
            if raw != name:
                text = re.sub(rf"(?<![\w-]){re.escape(raw)}(?![\w-])", name.replace("\\", r"\\"), text)
        return text

    def _skip(self, sample_id: str, reason: str) -> None:
        self.skipped[reason] += 1
        self.skipped_ids.append((sample_id, reason))

    def name(self, entity: str) -> str:
        return spoken_name(self.index.label(entity), ids=self.ids)

    def sentence(self, fact: Fact, rng: random.Random) -> str:
        s, r, o = fact
        if self.say is not None:
            return self.say(Triple(s, self.name(s), r, self.name(o), o))
        return phrase(self.name(s), r, self.name(o), rng)

    def statement(self, question: str, ids: Sequence[str]) -> str:
        made = declarative(question, [self.name(a) for a in ids])
        self.rules[made.rule] += 1
        return made.text

    def build(self, sample: KGQASample) -> list[CaqaSample]:
        return self._stated(self._drafted(sample))

    def build_all(self, samples: Iterable[KGQASample], batch: int = 256) -> Iterator[CaqaSample]:
        """:meth:`build` for each sample, the answer statements' words tagged a batch at a time."""
        it = iter(samples)
        while chunk := list(itertools.islice(it, batch)):
            drafts = [self._drafted(s) for s in chunk]
            prime_tags(d[1] for d in drafts if d[1])
            for d in drafts:
                yield from self._stated(d)

    def _stated(self, draft: tuple[list[CaqaSample], str, list[str]]) -> list[CaqaSample]:
        out, question, shown = draft
        if not question:  # skipped
            return []
        statement = self.statement(question, shown)
        return [replace(c, answer_statement=statement) for c in out]

    def _drafted(self, sample: KGQASample) -> tuple[list[CaqaSample], str, list[str]]:
        """A sample's CAQA samples but for their answer statement; its question and answers."""
        rng = random.Random(f"{self.seed}:{sample.id}")
        text_rng = self.extender.text_rng = random.Random(f"{self.seed}:{sample.id}:text")
        sample = replace(sample, question=self.question_text(sample))
        if answers(self.index, sample.query) != set(sample.answers):
            self._skip(sample.id, "not reproducible")
            return [], "", []
        ext = self.extender.extend(sample, rng)
        g = ground_query(self.index, ext.query, rng) if ext else None
        if ext is None or g is None:
            self._skip(sample.id, "no extension or grounding")
            return [], "", []
        support = g.fact_set
        shown = sorted(answers(set(support), ext.query))
        edits: dict[str, tuple[list[Fact], int] | None] = {
            "supportive": (support, len(support)),
            "partially_supportive": partial(ext.query, g, ext.complexity, rng),
            "contradictory": contradictory(self.index, ext.query, g, rng),
        }
        irr = irrelevant(self.index, ext.query, g, rng)
        edits["irrelevant"] = (irr, 0) if irr else None
        out = []
        for category in CATEGORIES:
            edit = edits[category]
            if edit is None:
                self._skip(sample.id, f"no {category} edit")
                continue
            facts, supported = edit
            out.append(
                CaqaSample(
                    id=f"{sample.id}:{category}",
                    source=sample.id,
                    question=ext.question,
                    original_question=sample.question,
                    answers=tuple(self.name(a) for a in shown),
                    answer_statement="",
                    citations=tuple(self.sentence(f, text_rng) for f in facts),
                    facts=tuple(facts),
                    category=category,
                    complexity=ext.complexity,
                    n_subfacts=len(support),
                    n_supported_subfacts=supported,
                    query=ext.query,
                    extension=ext.name,
                )
            )
        return out, ext.question, shown


def split_of(source: str, complexity: str, seed: int, shares: tuple[float, float] = (0.8, 0.1)) -> str:
    """train/dev/test by a seeded hash of the source question: its samples never straddle splits;
    strata by complexity keep each split's mix close to the whole's."""
    x = random.Random(f"{seed}:{complexity}:{source}").random()
    return "train" if x < shares[0] else "dev" if x < shares[0] + shares[1] else "test"


def stats_table(counts: dict[str, Counter[str]]) -> str:
    """Table 5's layout: categories and complexities × splits."""
    splits = ("train", "dev", "test")
    total = {s: sum(c for k, c in counts[s].items() if k in CATEGORIES) for s in splits}
    lines = [
        "| | | " + " | ".join(splits) + " | total |",
        "| --- | --- | " + " | ".join("---:" for _ in splits) + " | ---: |",
    ]
    lines.append("| all | | " + " | ".join(f"{total[s]:,}" for s in splits) + f" | {sum(total.values()):,} |")
    for group, keys in (("category", CATEGORIES), ("complexity", COMPLEXITIES)):
        for k in keys:
            row = [counts[s][k] for s in splits]
            lines.append(f"| {group} | {k} | " + " | ".join(f"{v:,}" for v in row) + f" | {sum(row):,} |")
    return "\n".join(lines)


# -- inputs -------------------------------------------------------------------------------------


def metaqa_samples(questions: Iterable[Any]) -> Iterator[KGQASample]:
    """MetaQA questions (:class:`~kgcite.bench.metaqa.MetaQAQuestion`) as path queries from the topic."""
    for q in questions:
        path = q.path()
        if not path:
            continue
        patterns: list[Pattern] = []
        here = q.topic
        for i, (relation, inverse) in enumerate(path):
            there = ANSWER if i == len(path) - 1 else f"?v{i + 1}"
            patterns.append((there, relation, here) if inverse else (here, relation, there))
            here = there
        yield KGQASample(
            f"metaqa-{q.hops}hop-{q.line}",
            q.question.replace("[", "").replace("]", ""),
            tuple(q.answers),
            Query.of(patterns),
        )


def jsonl_samples(path: str | Path, index: TripleIndex) -> Iterator[KGQASample]:
    """``{"question", "answers": [label], "query": [[s, r, o], ...]}`` per line; labels become the
    graph's ids (exact id first, then case-insensitive label). Bad lines name file, line and field."""
    for lineno, d in read_jsonl(path):
        for key, kind in (("question", str), ("answers", list), ("query", list)):
            if not isinstance(d.get(key), kind):
                raise InputError(path, lineno, key, f"missing or not a {kind.__name__}")

        def entity(term: str, fld: str, lineno: int = lineno) -> str:
            if is_var(term) or term in index.labels:
                return term
            found = sorted(index.by_label.get(term.lower(), ()))
            if not found:
                raise InputError(path, lineno, fld, f"{term!r} is not an entity of the graph")
            return found[0]

        patterns: list[Pattern] = []
        for i, p in enumerate(d["query"]):
            if not (isinstance(p, list) and len(p) == 3 and all(isinstance(x, str) for x in p)):
                raise InputError(path, lineno, f"query[{i}]", "expected [subject, relation, object]")
            relation = index.relation(p[1])  # the graph's spelling, whatever the file's
            if relation is None:
                raise InputError(path, lineno, f"query[{i}][1]", f"{p[1]!r} is not a relation of the graph")
            patterns.append((entity(p[0], f"query[{i}][0]"), relation, entity(p[2], f"query[{i}][2]")))
        if not any(ANSWER in (s, o) for s, _, o in patterns):
            raise InputError(path, lineno, "query", "no pattern has the answer variable ?a")
        ids = tuple(entity(str(a), "answers") for a in d["answers"])
        yield KGQASample(str(d.get("id", f"line{lineno}")), d["question"], ids, Query.of(patterns))


def single_triple_samples(index: TripleIndex, n: int, seed: int = 0, *, max_answers: int = 3) -> list[KGQASample]:
    """KGQA samples made from any graph when it has no question set: "What is the {relation} of
    {subject}?" over subjects and relations with at most ``max_answers`` values."""
    rng = random.Random(seed)
    keys = sorted((s, r) for (s, r), objs in index.out.items() if 0 < len(objs) <= max_answers)
    rng.shuffle(keys)
    return [
        KGQASample(
            f"single-{s}-{r}",
            f"What is the {property_label(r)} of {index.label(s)}?",
            tuple(sorted(index.out[(s, r)])),
            Query.of([(s, r, ANSWER)]),
        )
        for s, r in keys[:n]
    ]
