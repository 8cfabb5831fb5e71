"""Question forms: yes/no, how many, which is older, the largest of a set, what two share.

Questions are generated from three graphs with templates written for this benchmark, two
phrasings per template, and gold answers computed here from the graph's triples (not by kgcite):

- ``lakes``: a fictional graph written for this benchmark (``data/forms/lakes.tsv``; its labels
  are its ids: lakes, rivers, regions, explorers, temples; depths "126 m", areas "45 km2",
  dates ISO, spoken and BCE; some lakes lack depth, area or an outflow);
- ``biokalma``: the shipped BioKaLMA graph (Wikidata ids; people with unique labels);
- ``metaqa``: the shipped MetaQA kb (films, directors, actors, release years).

Every question is answered through the ``Answerer`` door (``Runtime.generator("grounded")``),
and — the baseline, same run — by the same pipeline with derivation off (lookup only, what kgcite
did before it read question forms).

Per form: exact answers (the predicted set equals the gold: labels, a number, yes or no; `[NA]`
where the graph lacks what is needed), false `[NA]` (gold exists, nothing predicted), a wrong
"no" where the graph lacks the relation, conclusions that cite every fact the answer states,
judge-supported (sentence, triple) pairs (the judge recomputes conclusions), p50 ms, LLM calls.

    python benchmarks/question_forms.py [--per-template 4] [--quick] [--show 10]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from kgcite.evaluate.metrics.alignment import AttributionScorer
from kgcite.evaluate.records.report import format_table
from kgcite.generate.citations import ParsedAnswer
from kgcite.generate.pipeline import AttributedAnswer, GroundedGenerator
from kgcite.judge.derived import is_conclusion
from kgcite.kg import EmbeddedStore
from kgcite.kg.embedded import biokalma_store
from kgcite.kg.loaders import shipped_data
from kgcite.kg.store import KGStore
from kgcite.retrieve.derive import Deriver
from kgcite.runtime import Runtime, RuntimeConfig

LAKES = Path(__file__).resolve().parent / "data" / "forms" / "lakes.tsv"
FORMS = ("yesno", "count", "comparison", "superlative", "intersection", "constraint")


@dataclass(frozen=True)
class FormQuestion:
    graph: str
    form: str
    template: str
    question: str
    gold: tuple[str, ...]  # labels, a number, or yes/no; () where the right answer is [NA]


class Facts:
    """The graph's triples by label, both ways: what the gold answers are computed from."""

    def __init__(self, triples: Iterable[tuple[str, str, str]]) -> None:
        self.out: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.inc: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.subjects: dict[str, set[str]] = defaultdict(set)
        for s, r, o in triples:
            self.out[(s, r)].append(o)
            self.inc[(o, r)].append(s)
            self.subjects[r].add(s)

    def one(self, s: str, r: str) -> str | None:
        values = self.out.get((s, r), [])
        return values[0] if len(values) == 1 else None


# -- values, read here independently of kgcite ---------------------------------------------------

_MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        1,
    )
}


def value_key(value: str) -> tuple[float, ...] | None:
    """Dates as (year, month, day), BCE negative; numbers by their leading amount."""
    v = value.strip().lower().replace(",", "")
    if m := re.fullmatch(r"(-?)(\d{1,4})-(\d\d)-(\d\d)", v):
        return (-float(m[2]) if m[1] else float(m[2]), float(m[3]), float(m[4]))
    if m := re.fullmatch(r"(\d{1,4}) (bc|bce|ad|ce)", v):
        return (-float(m[1]) if m[2] in ("bc", "bce") else float(m[1]), 0.0, 0.0)
    words = v.split()
    months = [_MONTHS[w] for w in words if w in _MONTHS]
    nums = [w for w in words if w.isdigit()]
    if months and nums:
        year = max(nums, key=len)
        day = next((n for n in nums if n != year), "0")
        return (float(year), float(months[0]), float(day))
    if m := re.match(r"(-?\d+(?:\.\d+)?)", v):
        return (float(m[1]),)
    return None


def winner(facts: Facts, members: list[str], relation: str, greatest: bool) -> str | None:
    keys = {m: value_key(facts.one(m, relation) or "") for m in members}
    if any(k is None for k in keys.values()):
        return None
    pick = (max if greatest else min)(keys.values())  # type: ignore[type-var]
    best = [m for m, k in keys.items() if k == pick]
    return best[0] if len(best) == 1 else None


# -- questions -----------------------------------------------------------------------------------


Make = Callable[[Facts, random.Random, int], list[FormQuestion]]


def _q(
    graph: str, form: str, template: str, phrasings: tuple[str, str], gold: Iterable[str], **fill: str
) -> list[FormQuestion]:
    return [FormQuestion(graph, form, template, p.format(**fill), tuple(gold)) for p in phrasings]


def ranked(
    graph: str,
    form: str,
    template: str,
    phrasings: tuple[str, str],
    facts: Facts,
    members: list[str],
    relation: str,
    greatest: bool,
    **fill: str,
) -> list[FormQuestion]:
    """Questions whose gold is the one member with the greatest (or least) value ([NA]: a tie or a gap)."""
    w = winner(facts, members, relation, greatest)
    return _q(graph, form, template, phrasings, [w] if w else [], **fill)


def lakes_questions(facts: Facts, rng: random.Random, n: int) -> list[FormQuestion]:
    g = "lakes"
    lakes = sorted(facts.subjects["located_in"] & facts.subjects["discovered_by"])
    regions = sorted({r for lake in lakes for r in facts.out[(lake, "located_in")]})
    explorers = sorted(facts.subjects["date_of_birth"])
    rivers = sorted({r for lake in lakes for r in facts.out[(lake, "flows_into")]})
    out: list[FormQuestion] = []
    for lake in rng.sample(lakes, min(n, len(lakes))):
        region = facts.out[(lake, "located_in")][0]
        other = rng.choice([r for r in regions if r != region])
        for r, gold in ((region, "yes"), (other, "no")):
            out += _q(
                g, "yesno", "located", ("Is {l} located in {r}?", "Is {l} a lake located in {r}?"), [gold], l=lake, r=r
            )
    for lake in rng.sample([x for x in lakes if not facts.out[(x, "flows_into")]], min(n, 4)):
        out += _q(
            g,
            "yesno",
            "no outflow",
            ("Does {l} flow into the {r}?", "Is the {r} the river {l} flows into?"),
            [],
            l=lake,
            r=rng.choice(rivers),
        )
    for e in rng.sample(explorers, min(n, len(explorers))):
        found = facts.inc[(e, "discovered_by")]
        out += _q(
            g,
            "count",
            "discovered",
            ("How many lakes did {e} discover?", "How many lakes were discovered by {e}?"),
            [str(len(found))],
            e=e,
        )
    for r in rng.sample(regions, min(n, len(regions))):
        located = [x for x in facts.inc[(r, "located_in")] if x in lakes]
        if located:
            out += _q(
                g,
                "count",
                "in region",
                ("How many lakes are located in {r}?", "What is the number of lakes located in {r}?"),
                [str(len(facts.inc[(r, "located_in")]))],
                r=r,
            )
    deep = sorted(facts.subjects["max_depth"])
    for _ in range(n):
        a, b = rng.sample(deep, 2)
        out += ranked(
            g,
            "comparison",
            "deeper",
            ("Which lake is deeper, {a} or {b}?", "Which has the greater max depth, {a} or {b}?"),
            facts,
            [a, b],
            "max_depth",
            True,
            a=a,
            b=b,
        )
        w = winner(facts, [a, b], "max_depth", True)
        out += _q(
            g,
            "comparison",
            "deeper polar",
            ("Is {a} deeper than {b}?", "Is {a} a deeper lake than {b}?"),
            ["yes" if w == a else "no"],
            a=a,
            b=b,
        )
    for _ in range(max(1, n // 2)):
        a, b = rng.sample(explorers, 2)
        out += ranked(
            g,
            "comparison",
            "older",
            ("Who is older, {a} or {b}?", "Who was born first, {a} or {b}?"),
            facts,
            [a, b],
            "date_of_birth",
            False,
            a=a,
            b=b,
        )
    temples = sorted(facts.subjects["founded"])
    a, b = rng.sample(temples, 2)
    w = winner(facts, [a, b], "founded", False)
    out += _q(
        g,
        "comparison",
        "temple older",
        ("Which is older, the {a} or the {b}?", "Which was founded first, the {a} or the {b}?"),
        [w] if w else [],
        a=a,
        b=b,
    )
    for e in rng.sample(explorers, min(n, len(explorers))):
        found = facts.inc[(e, "discovered_by")]
        w = winner(facts, found, "max_depth", True)
        out += _q(
            g,
            "superlative",
            "deepest of explorer",
            ("What is the deepest lake discovered by {e}?", "Which is the deepest lake that {e} discovered?"),
            [w] if w else _partial(facts, found, "max_depth", True),
            e=e,
        )
        w = winner(facts, found, "surface_area", True)
        out += _q(
            g,
            "superlative",
            "largest of explorer",
            ("Which is the largest lake discovered by {e}?", "What is the largest lake {e} discovered?"),
            [w] if w else _partial(facts, found, "surface_area", True),
            e=e,
        )
    pairs = [
        (a, b)
        for e in explorers
        for a in facts.inc[(e, "discovered_by")]
        for b in facts.inc[(e, "discovered_by")]
        if a < b
    ]
    for a, b in rng.sample(pairs, min(n, len(pairs))):
        common = sorted(set(facts.out[(a, "discovered_by")]) & set(facts.out[(b, "discovered_by")]))
        out += _q(
            g,
            "intersection",
            "discovered both",
            ("Which explorer discovered both {a} and {b}?", "Who discovered both {a} and {b}?"),
            common,
            a=a,
            b=b,
        )
    flows = [
        (a, b)
        for a in lakes
        for b in lakes
        if a < b and facts.out[(a, "flows_into")] and facts.out[(a, "flows_into")] == facts.out[(b, "flows_into")]
    ]
    for a, b in rng.sample(flows, min(n, len(flows))):
        out += _q(
            g,
            "intersection",
            "river both",
            ("Which river do both {a} and {b} flow into?", "What river do {a} and {b} both flow into?"),
            facts.out[(a, "flows_into")],
            a=a,
            b=b,
        )
    for lake in rng.sample([x for x in lakes if facts.out[(x, "flows_into")]], min(n, len(lakes))):
        region, river = facts.out[(lake, "located_in")][0], facts.out[(lake, "flows_into")][0]
        both = sorted(set(facts.inc[(region, "located_in")]) & set(facts.inc[(river, "flows_into")]))
        out += _q(
            g,
            "constraint",
            "in region, into river",
            ("Which lakes located in {r} flow into the {s}?", "Which lakes in {r} flow into the {s}?"),
            both,
            r=region,
            s=river,
        )
    return out


def _partial(facts: Facts, members: list[str], relation: str, greatest: bool) -> list[str]:
    """The winner among the members the graph gives a value (the answer says which lack one)."""
    valued = [m for m in members if facts.one(m, relation) is not None]
    w = winner(facts, valued, relation, greatest) if len(valued) >= 1 else None
    return [w] if w else []


def biokalma_questions(facts: Facts, rng: random.Random, n: int, unique: set[str]) -> list[FormQuestion]:
    g = "biokalma"
    born = sorted(p for p in facts.subjects["place of birth"] if p in unique and facts.one(p, "place of birth"))
    places = sorted({facts.out[(p, "place of birth")][0] for p in born})
    out: list[FormQuestion] = []
    for p in rng.sample(born, min(n, len(born))):
        place = facts.out[(p, "place of birth")][0]
        other = rng.choice([x for x in places if x != place])
        for pl, gold in ((place, "yes"), (other, "no")):
            out += _q(
                g,
                "yesno",
                "born in",
                ("Was {p} born in {pl}?", "Is {pl} the place of birth of {p}?"),
                [gold],
                p=p,
                pl=pl,
            )
    lacking = sorted(
        p for p in unique if p in facts.subjects["occupation"] and p not in facts.subjects["place of birth"]
    )
    for p in rng.sample(lacking, min(n // 2 or 1, len(lacking))):
        out += _q(
            g,
            "yesno",
            "born in (lacking)",
            ("Was {p} born in {pl}?", "Is {pl} the place of birth of {p}?"),
            [],
            p=p,
            pl=rng.choice(places),
        )
    parents = sorted(p for p in facts.subjects["child"] if p in unique)
    for p in rng.sample(parents, min(n, len(parents))):
        out += _q(
            g,
            "count",
            "children",
            ("How many children did {p} have?", "How many children does {p} have?"),
            [str(len(set(facts.out[(p, "child")])))],
            p=p,
        )
    awarded = sorted(p for p in facts.subjects["award received"] if p in unique)
    for p in rng.sample(awarded, min(n, len(awarded))):
        out += _q(
            g,
            "count",
            "awards",
            ("How many awards did {p} receive?", "How many awards has {p} received?"),
            [str(len(set(facts.out[(p, "award received")])))],
            p=p,
        )
    dated = sorted(p for p in facts.subjects["date of birth"] if p in unique and facts.one(p, "date of birth"))
    for _ in range(n):
        a, b = rng.sample(dated, 2)
        out += ranked(
            g,
            "comparison",
            "older",
            ("Who is older, {a} or {b}?", "Who was born first, {a} or {b}?"),
            facts,
            [a, b],
            "date of birth",
            False,
            a=a,
            b=b,
        )
    for _ in range(n):
        trio = rng.sample(dated, 3)
        out += ranked(
            g,
            "superlative",
            "oldest of three",
            ("Who is the oldest of {a}, {b} and {c}?", "Who was born first: {a}, {b} or {c}?"),
            facts,
            trio,
            "date of birth",
            False,
            a=trio[0],
            b=trio[1],
            c=trio[2],
        )
    holders: dict[str, list[str]] = defaultdict(list)
    for p in awarded:
        for a in set(facts.out[(p, "award received")]):
            holders[a].append(p)
    pairs = sorted({(x, y) for ps in holders.values() for x in ps for y in ps if x < y})
    for a, b in rng.sample(pairs, min(n, len(pairs))):
        common = sorted(set(facts.out[(a, "award received")]) & set(facts.out[(b, "award received")]))
        out += _q(
            g,
            "intersection",
            "award both",
            ("Which award did both {a} and {b} receive?", "What award did {a} and {b} both receive?"),
            common,
            a=a,
            b=b,
        )
    return out


def metaqa_questions(facts: Facts, rng: random.Random, n: int) -> list[FormQuestion]:
    g = "metaqa"
    films = sorted(
        f for f in facts.subjects["directed_by"] if facts.one(f, "directed_by") and facts.one(f, "release_year")
    )
    directors = sorted({facts.out[(f, "directed_by")][0] for f in films})
    out: list[FormQuestion] = []
    for f in rng.sample(films, min(n, len(films))):
        d = facts.out[(f, "directed_by")][0]
        other = rng.choice([x for x in directors if x != d])
        for who, gold in ((d, "yes"), (other, "no")):
            out += _q(g, "yesno", "directed", ("Was {f} directed by {d}?", "Did {d} direct {f}?"), [gold], f=f, d=who)
    # a title MetaQA gives two release years (two films of one name) makes "the earliest" ambiguous
    prolific = [
        d
        for d in directors
        if 2 <= len(facts.inc[(d, "directed_by")]) <= 8
        and all(len(facts.out[(f, "release_year")]) == 1 for f in facts.inc[(d, "directed_by")])
        and winner(facts, facts.inc[(d, "directed_by")], "release_year", False)
    ]
    for d in rng.sample(prolific, min(n, len(prolific))):
        out += _q(
            g,
            "count",
            "films directed",
            ("How many films did {d} direct?", "How many movies were directed by {d}?"),
            [str(len(set(facts.inc[(d, "directed_by")])))],
            d=d,
        )
    for _ in range(n):
        a, b = rng.sample(films, 2)
        out += ranked(
            g,
            "comparison",
            "older film",
            ("Which film is older, {a} or {b}?", "Which movie was released first, {a} or {b}?"),
            facts,
            [a, b],
            "release_year",
            False,
            a=a,
            b=b,
        )
    for d in rng.sample(prolific, min(n, len(prolific))):
        made = sorted(set(facts.inc[(d, "directed_by")]))
        w = _partial(facts, made, "release_year", False)
        out += _q(
            g,
            "superlative",
            "earliest film",
            ("What is the earliest film directed by {d}?", "Which movie directed by {d} was released first?"),
            w,
            d=d,
        )
    actors: dict[str, list[str]] = defaultdict(list)
    for f in films:
        for a in facts.out[(f, "starred_actors")]:
            actors[a].append(f)
    pairs = sorted({(x, y) for fs in actors.values() if len(fs) <= 6 for x in fs for y in fs if x < y})
    for a, b in rng.sample(pairs, min(n, len(pairs))):
        common = sorted(set(facts.out[(a, "starred_actors")]) & set(facts.out[(b, "starred_actors")]))
        out += _q(
            g,
            "intersection",
            "starred both",
            ("Which actor starred in both {a} and {b}?", "Who starred in both {a} and {b}?"),
            common,
            a=a,
            b=b,
        )
    for d in rng.sample(prolific, min(n, len(prolific))):
        made = sorted(set(facts.inc[(d, "directed_by")]))
        cast = sorted({a for f in made for a in facts.out[(f, "starred_actors")]})
        if not cast:
            continue
        a = rng.choice(cast)
        both = sorted(set(made) & set(facts.inc[(a, "starred_actors")]))
        out += _q(
            g,
            "constraint",
            "directed by, starring",
            ("Which films directed by {d} starred {a}?", "Which movies starring {a} were directed by {d}?"),
            both,
            d=d,
            a=a,
        )
    return out


# -- scoring -------------------------------------------------------------------------------------


def norm(x: str) -> str:
    return " ".join(x.replace("_", " ").lower().split())


def conclusion_complete(answer: AttributedAnswer) -> bool | None:
    """Whether a conclusion cites every fact the answer's other sentences state (None: none)."""
    conclusions = [s for s in answer.sentences if is_conclusion(s.text)]
    if not conclusions:
        return None
    stated = {t.key for s in answer.sentences if not s.na and not is_conclusion(s.text) for t in s.cited_triples()}
    return all(stated <= {t.key for t in c.cited_triples()} for c in conclusions)


@dataclass
class Scores:
    n: int = 0
    exact: int = 0
    false_na: int = 0
    gold: int = 0
    wrong_no: int = 0
    lacking: int = 0
    conclusions: int = 0
    complete: int = 0


def run(generator: GroundedGenerator, items: list[FormQuestion]) -> tuple[list[AttributedAnswer], list[float]]:
    answers, times = [], []
    for it in items:
        t0 = time.perf_counter()
        answers.append(generator.answer(it.question))
        times.append((time.perf_counter() - t0) * 1000)
    return answers, times


def score(items: list[FormQuestion], answers: list[AttributedAnswer]) -> dict[str, Scores]:
    out: dict[str, Scores] = defaultdict(Scores)
    for it, a in zip(items, answers, strict=True):
        for key in (it.form, "all"):
            s = out[key]
            s.n += 1
            predicted = {norm(p) for p in a.predicted}
            s.exact += predicted == {norm(g) for g in it.gold}
            if it.gold:
                s.gold += 1
                s.false_na += not a.predicted
            else:
                s.lacking += 1
                s.wrong_no += list(a.predicted) == ["no"]
            complete = conclusion_complete(a)
            if complete is not None:
                s.conclusions += 1
                s.complete += complete
    return out


def supported(runtime: Runtime, answers: list[AttributedAnswer]) -> tuple[int, int]:
    judgments = AttributionScorer(runtime.judge).alignment_judgments(
        [ParsedAnswer(a.sentences) for a in answers], [a.retrieved for a in answers]
    )
    return sum(map(sum, judgments)), sum(map(len, judgments))


class Lookup(Deriver):
    """The baseline: no derivation, every question looked up (kgcite before question forms)."""

    def derive(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        return None


def graphs(per: int, rng: random.Random) -> list[tuple[str, KGStore, list[FormQuestion]]]:
    lakes = EmbeddedStore()
    lakes.load(LAKES)
    rows = [line.split("\t") for line in LAKES.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = [("lakes", lakes, lakes_questions(Facts((s, r, o) for s, r, o in rows), rng, per))]
    bio = biokalma_store()[0]
    rels = ("place of birth", "date of birth", "child", "award received", "occupation")
    triples = [(t.subject_label, t.relation, t.object_value) for r in rels for t in bio.match(relation=r, limit=50_000)]
    labels = {s for s, _, _ in triples} | {o for _, r, o in triples if r == "child"}
    unique = {label for label in labels if len(bio.entities_by_label(label, limit=2)) == 1}
    out.append(("biokalma", bio, biokalma_questions(Facts(triples), rng, per, unique)))
    meta = EmbeddedStore()
    meta.load(shipped_data("metaqa", "kb.txt"))
    kb = [line.split("|") for line in shipped_data("metaqa", "kb.txt").read_text(encoding="utf-8").splitlines()]
    out.append(("metaqa", meta, metaqa_questions(Facts((s, r, o) for s, r, o in kb if r != "has_tags"), rng, per)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-template", type=int, default=4, help="instances per template and graph (default 4)")
    ap.add_argument("--quick", action="store_true", help="one instance per template, for the test suite")
    ap.add_argument("--show", type=int, default=10, help="misses to print (default 10)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    per = 1 if args.quick else args.per_template
    table, misses, all_items = [], [], 0
    for name, store, items in graphs(per, rng):
        all_items += len(items)
        runtime = Runtime(RuntimeConfig(cache=None), store=store)
        generator = runtime.generator("grounded")
        assert isinstance(generator, GroundedGenerator)
        generator.answer_many([items[0].question])  # load the models before timing
        answers, times = run(generator, items)
        calls = sum(a.rewritten or bool(a.raw_output) or bool((a.path or {}).get("llm_calls")) for a in answers)
        ok, pairs = supported(runtime, answers)
        generator.planner.deriver = Lookup(store.one_hop)
        base_answers, _ = run(generator, items)
        for system, scored in (
            ("kgcite", score(items, answers)),
            ("lookup only (baseline)", score(items, base_answers)),
        ):
            for form in (*FORMS, "all"):
                s = scored.get(form)
                if s is None:
                    continue
                row = [name, form, system, s.n, f"{s.exact / s.n:.3f}", f"{s.false_na / s.gold:.3f}" if s.gold else "-"]
                row += [f"{s.wrong_no}/{s.lacking}", f"{s.complete}/{s.conclusions}"]
                if system == "kgcite" and form == "all":
                    row += [f"{ok / pairs:.3f} ({pairs})" if pairs else "-", f"{statistics.median(times):.1f}", calls]
                else:
                    row += ["", "", ""]
                table.append(tuple(row))
        misses += [
            (it, a.answer)
            for it, a in zip(items, answers, strict=True)
            if {norm(p) for p in a.predicted} != {norm(g) for g in it.gold}
        ]
    print(f"{all_items} questions")
    print(
        format_table(
            (
                "graph",
                "form",
                "system",
                "n",
                "exact",
                "false [NA]",
                "wrong no",
                "conclusion cites all",
                "judge-supported",
                "p50 ms",
                "LLM calls",
            ),
            table,
        )
    )
    print(
        "\ntargets: exact >= 0.90 per form; false [NA] <= 0.03; wrong no 0; judge-supported 1.000; p50 <= 50 ms; 0 LLM calls"
    )
    for it, text in misses[: args.show]:
        print(f"  miss [{it.graph} {it.form} {it.template}] {it.question} (gold {list(it.gold) or '[NA]'}) -> {text}")


if __name__ == "__main__":
    main()
