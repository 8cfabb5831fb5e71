"""Abstention: does `kgcite ask` say `[NA]` for a relation an entity lacks, and cite the right
relation for one it holds — never an unasked fact in place of a missing one?

Questions are generated from the graphs: people of the shipped BioKaLMA graph (labels that name
one entity only, evenly spaced), each asked about relations it holds and relations it lacks,
in two phrasings per relation (written for this benchmark, below). Each is answered through the
``Answerer`` door users take (``Runtime.generator("grounded").answer_many``) with the default
path scorer, and — the baseline, same run — with path reasoning off (one-hop statements only).

Scores: on questions about a missing relation, the share answered `[NA]` with no cited triple
(anything cited there is a fact nobody asked for); on questions about a held relation, the
share that cite a triple of that entity and relation; p50 ms per question.

The same both ways for a thing described by a hop ("the phone number of the premiere venue of
X"), over the nine hand-written graphs of ``benchmarks/data/kgqa``: each graph's things reached by
a relation named by a noun, asked for an attribute no relation of that graph names (`[NA]` after
the hop walked, which alone may be cited) and for a relation they hold (that fact cited); and
the missing attribute asked with a verb or a question word ("How tall is the head teacher of
X?", "How much does the head teacher of X earn?").

    python benchmarks/abstention.py [--people 60] [--described 6] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgcite.cli.common import open_kg
from kgcite.evaluate.records.report import format_table
from kgcite.generate.pipeline import AttributedAnswer
from kgcite.kg.embedded import biokalma_store
from kgcite.kg.store import KGStore
from kgcite.models.llamacpp import server_url
from kgcite.runtime import Runtime, RuntimeConfig, path_scorer_spec
from kgcite.text.lexicon import PREPOSITIONS, property_label

#: Two phrasings per relation, as people ask them (``{x}`` is the entity's label).
PHRASINGS: dict[str, tuple[str, str]] = {
    "spouse": ("Who was {x}'s spouse?", "Who did {x} marry?"),
    "father": ("Who was {x}'s father?", "Who is the father of {x}?"),
    "mother": ("Who was {x}'s mother?", "Who is the mother of {x}?"),
    "child": ("Who were {x}'s children?", "Did {x} have any kids, and who were they?"),
    "place of birth": ("Where was {x} born?", "What is the birthplace of {x}?"),
    "date of birth": ("When was {x} born?", "What is {x}'s birthday?"),
    "place of death": ("Where did {x} die?", "In which place did {x} pass away?"),
    "date of death": ("When did {x} die?", "What year did {x} die?"),
    "employer": ("Who did {x} work for?", "Who was {x}'s employer?"),
    "alma mater": ("Where did {x} study?", "Which university did {x} attend?"),
    "doctoral advisor": ("Who supervised {x}'s doctorate?", "Who was the doctoral advisor of {x}?"),
    "occupation": ("What was {x}'s occupation?", "What did {x} do for a living?"),
    "award received": ("What awards did {x} receive?", "Which prizes did {x} win?"),
    "religion": ("What was {x}'s religion?", "Which faith did {x} follow?"),
    "cause of death": ("What did {x} die of?", "What was the cause of death of {x}?"),
    "place of burial": ("Where was {x} buried?", "Where is {x}'s grave?"),
    "member of political party": ("Which political party was {x} a member of?", "What party did {x} belong to?"),
    "notable works": ("What are {x}'s notable works?", "What is {x} known for writing or making?"),
    "position held": ("What positions did {x} hold?", "Which office did {x} hold?"),
    "native language": ("What was {x}'s native language?", "What was the mother tongue of {x}?"),
}


#: What none of the nine graphs records, asked of a thing a hop reaches (a graph whose relations
#: name one of these words is not asked it).
ATTRIBUTES = (
    "phone number",
    "annual budget",
    "motto",
    "star rating",
    "ticket price",
    "email address",
    "floor area",
    "opening hours",
)
#: The same asked with a verb or a question word ("How tall is the head teacher of X?"), each with
#: the words a relation recording it would be named by (a graph naming one is not asked it).
ASKED_WITH_VERBS = (
    ("How tall is {thing}?", ("height", "tall")),
    ("How much does {thing} earn?", ("salary", "earn", "earns", "wage", "pay")),
    ("What does {thing} weigh?", ("weight", "weigh", "weighs")),
    ("When did {thing} retire?", ("retire", "retired", "retirement")),
    ("How much does {thing} cost?", ("cost", "price")),
)
#: The nine hand-written graphs of the kgqa benchmark.
GRAPHS = ("football", "music", "family", "aviation", "school", "hospital", "theatre", "farm", "university")
KGQA = Path(__file__).resolve().parent / "data" / "kgqa"


@dataclass(frozen=True)
class Probe:
    question: str
    entity: str
    relation: str
    held: bool
    walked: tuple[str, str] | None = None  # (subject id, relation) of a hop the question describes


def people(store: KGStore, n: int) -> list[tuple[str, str]]:
    """``n`` people (id, label) evenly spaced over those with a birth date whose label names one entity."""
    ids = sorted({t.subject_id: t.subject_label for t in store.match(relation="date of birth", limit=20_000)}.items())
    unique = [(i, label) for i, label in ids if len(store.entities_by_label(label, limit=2)) == 1]
    step = max(1, len(unique) // max(1, n))
    return unique[::step][:n]


def probes(store: KGStore, n_people: int, per_person: int = 4) -> list[Probe]:
    """For each person, up to ``per_person // 2`` held and as many missing relations, both phrasings."""
    out: list[Probe] = []
    for k, (pid, label) in enumerate(people(store, n_people)):
        have = {t.relation for t in store.outgoing(pid)}
        held = [r for r in PHRASINGS if r in have]
        missing = [r for r in PHRASINGS if r not in have]
        half = per_person // 2
        # rotate so that every relation is asked of someone
        for group, is_held in ((held, True), (missing, False)):
            chosen = [group[(k + j) % len(group)] for j in range(min(half, len(group)))] if group else []
            for r in dict.fromkeys(chosen):
                for phrasing in PHRASINGS[r]:
                    out.append(Probe(phrasing.format(x=label), pid, r, is_held))
    return out


def noun(label: str) -> bool:
    """Whether a relation's words read as a noun: "the {label} of X" is English."""
    words = label.lower().split()
    return bool(words) and words[0] not in ("has", "is", "was", "were") and not set(words) & PREPOSITIONS


def described_probes(store: KGStore, n: int, *, verbs: bool = False) -> list[Probe]:
    """Up to ``n`` things noun-named relations reach (relations taken in turn) from subjects that
    hold the relation once: each asked for an attribute the graph lacks, and, where it holds a
    noun-named relation of its own, for that. ``verbs``: the attribute asked with a verb
    (:data:`ASKED_WITH_VERBS`), and nothing held asked."""
    relations = sorted(store.relations())
    used = {w for r in relations for w in property_label(r).lower().split()}
    absent = (
        [(q, words[0]) for q, words in ASKED_WITH_VERBS if not set(words) & used]
        if verbs
        else [(f"What is the {a} of {{thing}}?", a) for a in ATTRIBUTES if not set(a.split()) & used]
    )
    if not absent:
        return []
    pairs = {
        r: [t for t in store.match(relation=r, limit=200) if t.object_id] for r in relations if noun(property_label(r))
    }
    out: list[Probe] = []
    for k in range(200):
        for r, triples in pairs.items():
            if sum(not p.held for p in out) >= n:
                return out
            if k >= len(triples):
                continue
            t = triples[k]
            if len([u for u in store.outgoing(t.subject_id) if u.relation == r]) != 1:
                continue
            thing = f"the {property_label(r)} of {t.subject_label}"
            asked, attribute = absent[len(out) % len(absent)]
            out.append(Probe(asked.format(thing=thing), t.object_id or "", attribute, False, (t.subject_id, r)))
            if verbs:
                continue
            held = [
                u for u in store.outgoing(t.object_id or "") if noun(property_label(u.relation)) and u.relation != r
            ]
            if held:
                u = held[k % len(held)]
                question = f"What is the {property_label(u.relation)} of {thing}?"
                out.append(Probe(question, u.subject_id, u.relation, True, (t.subject_id, r)))
    return out


def outcome(probe: Probe, answer: AttributedAnswer) -> bool:
    cited = [t.key for s in answer.sentences for t in s.cited_triples() if t.key is not None]
    if probe.held:
        return any(k[0] == probe.entity and k[1] == probe.relation for k in cited)
    # only the hop the question walks may be cited before the [NA]
    return all((k[0], k[1]) == probe.walked for k in cited) and any(s.na for s in answer.sentences)


def answered(runtime: Runtime, items: list[Probe]) -> list[tuple[Probe, str, bool, float]]:
    """Each probe asked through ``runtime``'s Answerer: (probe, answer, passed, ms)."""
    generator = runtime.generator("grounded")
    out = []
    for probe in items:
        t0 = time.perf_counter()
        answer = generator.answer(probe.question)
        out.append((probe, answer.answer, outcome(probe, answer), (time.perf_counter() - t0) * 1000))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--people", type=int, default=60, help="people of BioKaLMA to ask about (default 60)")
    parser.add_argument(
        "--described", type=int, default=6, help="things described by a hop, per hand-written graph (default 6)"
    )
    parser.add_argument("--quick", action="store_true", help="8 people and 2 graphs, for the test suite")
    parser.add_argument("--show", type=int, default=10, help="failures to print (default 10)")
    parser.add_argument(
        "--path-scorer", metavar="SPEC", help="also run ask with this path scorer (zero-shot, or an export folder)"
    )
    parser.add_argument(
        "--choose-llm",
        metavar="URL|GGUF",
        help="also run ask --choose llm with this OpenAI-compatible server, or a GGUF served for the run "
        "(shipped: SmolLM2-135M)",
    )
    args = parser.parse_args()
    store = biokalma_store()[0]
    items = probes(store, 8 if args.quick else args.people)
    rows: list[tuple[Any, ...]] = []
    shown: list[tuple[Probe, str]] = []
    shown_described: list[tuple[Probe, str]] = []
    shown_verbs: list[tuple[Probe, str]] = []
    systems: list[tuple[str, str | None, bool]] = [("ask (default)", None, False)]
    if args.path_scorer:
        systems.append((f"ask --path-scorer {args.path_scorer}", args.path_scorer, False))
    if args.choose_llm:
        systems.append(("ask --choose llm", args.path_scorer, True))
    graphs = [(g, open_kg(str(KGQA / f"{g}_graph.tsv"))) for g in GRAPHS[: 2 if args.quick else len(GRAPHS)]]
    described = [(kg, described_probes(kg, 2 if args.quick else args.described)) for _, kg in graphs]
    verbs = [(kg, described_probes(kg, 2 if args.quick else args.described, verbs=True)) for _, kg in graphs]
    with server_url(args.choose_llm) as url:
        for name, spec, chooses in [*systems, ("one-hop statements only (baseline)", "off", False)]:
            config = RuntimeConfig(
                cache=None,
                path_scorer=path_scorer_spec(spec),
                choose="llm" if chooses else "score",
                base_url=url if chooses else None,
            )
            rows.append(measured(name, [(Runtime(config, store=store), items)]))
            if spec is None and not chooses:
                shown = rows[-1][-1]
            runs = [(Runtime(config, store=kg), probes) for kg, probes in described]
            rows.append(measured(f"{name}, a thing described by a hop ({len(graphs)} graphs)", runs))
            if spec is None and not chooses:
                shown_described = rows[-1][-1]
            runs = [(Runtime(config, store=kg), probes) for kg, probes in verbs]
            rows.append(measured(f"{name}, the same asked with a verb", runs))
            if spec is None and not chooses:
                shown_verbs = rows[-1][-1]
    print(
        format_table(
            ("system", "missing", "[NA] on missing", "held", "right relation cited", "p50 ms"),
            [r[:-1] for r in rows],
        )
    )
    print("\ntargets: [NA] on missing >= 0.95, right relation cited on held >= 0.95")
    for probe, text in [*shown[: args.show], *shown_described[: args.show], *shown_verbs[: args.show]]:
        kind = "held" if probe.held else "missing"
        print(f"  miss ({kind} {probe.relation}): {probe.question} -> {text}")


def measured(name: str, runs: list[tuple[Runtime, list[Probe]]]) -> tuple[Any, ...]:
    """One table row over every (runtime, probes) pair's answers pooled, with its failures last."""
    results = [r for runtime, items in runs for r in answered(runtime, items)]
    missing = [ok for p, _, ok, _ in results if not p.held]
    held = [ok for p, _, ok, _ in results if p.held]
    p50 = statistics.median([ms for *_, ms in results]) if results else 0.0
    failures = [(p, text) for p, text, ok, _ in results if not ok]
    na = f"{sum(missing) / len(missing):.3f}" if missing else "–"
    cited = f"{sum(held) / len(held):.3f}" if held else "–"
    return (name, len(missing), na, len(held), cited, f"{p50:.1f}", failures)


if __name__ == "__main__":
    main()
