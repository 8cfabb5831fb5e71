"""Training and test pairs for kgcite's NLI model: SICK plus attribution pairs made from a KG.

The attribution pairs have the shape the alignment metric asks about (docs/concepts.md): premise =
a sentence stating facts about one entity, hypothesis = ``property: value``. Labels come from
the graph, not from a model:

- entailment: a fact the sentence states;
- contradiction: a stated fact with its value swapped for another value of the same property
  taken from another entity — only for *functional* properties (almost every subject has one
  value) when the sentence states the entity's value; otherwise the swap is neutral;
- neutral: a stated value under another property, or a true fact the sentence does not state.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from kgcite.errors import InputError
from kgcite.generate.verbalize import verbalize
from kgcite.judge.support import hypothesis
from kgcite.kg.loaders import read_biokalma, read_tsv, shipped_biokalma, shipped_data
from kgcite.kg.model import Triple
from kgcite.text.lexicon import property_label
from kgcite.text.values import iso_date

LABELS: tuple[str, ...] = ("entailment", "neutral", "contradiction")


@dataclass(frozen=True, slots=True)
class LabelledPair:
    premise: str
    hypothesis: str
    label: str
    source: str = ""
    subject: str = ""  # the label of the entity the premise is about (KG pairs)


# --- SICK ----------------------------------------------------------------------------------


def read_sick(path: str | Path | None = None) -> Iterator[tuple[int, LabelledPair]]:
    """``(pair_ID, pair)`` from SICK.txt (tab-separated, header line)."""
    path = Path(path) if path else shipped_data("sick", "SICK.txt")
    with open(path, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        try:
            cols = {name: header.index(name) for name in ("pair_ID", "sentence_A", "sentence_B", "entailment_judgment")}
        except ValueError as exc:
            raise InputError(path, 1, "header", f"missing column: {exc}") from exc
        for lineno, line in enumerate(fh, 2):
            if not line.strip():
                continue
            row = line.rstrip("\n").split("\t")
            try:
                pair_id = int(row[cols["pair_ID"]])
                label = row[cols["entailment_judgment"]].strip().lower()
                premise, hypothesis = row[cols["sentence_A"]], row[cols["sentence_B"]]
            except (IndexError, ValueError) as exc:
                raise InputError(path, lineno, "pair_ID", f"bad row: {exc}") from exc
            if label not in LABELS:
                raise InputError(path, lineno, "entailment_judgment", f"unknown label {label!r}")
            yield pair_id, LabelledPair(premise, hypothesis, label, "sick")


def sick_split(split: str, path: str | Path | None = None) -> list[LabelledPair]:
    """The fixed split by ``pair_ID``: ``test`` = IDs divisible by 5, ``train`` = the rest."""
    if split not in ("train", "test"):
        raise ValueError(f"unknown SICK split {split!r}; choose train or test")
    return [p for i, p in read_sick(path) if (i % 5 == 0) == (split == "test")]


# --- knowledge-graph attribution pairs ------------------------------------------------------


#: Generic sentence shapes, so the model learns to read property names, not just our templates.
_GENERIC = (
    "{s}'s {r} is {o}.",
    "The {r} of {s} is {o}.",
    "{o} is the {r} of {s}.",
    "{s} has {o} as {r}.",
)


def spoken_date(value: str, rng: random.Random) -> str:
    """``1871-11-01`` as people write it ("November 1, 1871", "1 November 1871"); other text unchanged."""
    date = iso_date(value)
    if date is None:
        return value
    year, month, day = int(date[0]), date[1], date[2]
    return rng.choice((f"{month} {day}, {year}", f"{day} {month} {year}"))


#: More ways prose states a property, so the model learns verbs and modifiers that paraphrase a
#: property name ("won the X" for ``award received``, "a rock artist" for ``genre``), not only
#: the verbaliser's one sentence per relation.
VARIANTS: dict[str, tuple[str, ...]] = {
    "occupation": ("{s} is a {o}.", "{s} was a well-known {o}.", "{s} made a living as a {o}."),
    "genre": (
        "{s} is a {o} artist.",
        "{s} is known for {o}.",
        "{s} worked in the {o} genre.",
        "{s} is a {o} musician.",
        "{s} makes {o} music.",
    ),
    "notable works": ("{s} wrote {o}.", "{s} is known for {o}.", "{s} created {o}."),
    "award received": ("{s} won the {o}.", "{s} was awarded the {o}.", "{s} is a {o} winner."),
    "languages spoken": ("{s} speaks {o}.", "{s} was fluent in {o}."),
    "native language": ("{s} grew up speaking {o}.",),
    "spouse": ("{s} married {o}.", "{s} was the wife or husband of {o}."),
    "child": ("{s} is the parent of {o}.", "{o} is a child of {s}."),
    "father": ("{o} was the father of {s}.", "{s} was a child of {o}."),
    "mother": ("{o} was the mother of {s}.", "{s} was born to {o}."),
    "employer": ("{s} was employed by {o}.", "{s} joined the staff of {o}."),
    "field of work": ("{s} worked in the field of {o}.", "{s} specialised in {o}."),
    "member of political party": ("{s} belonged to the {o}.", "{s} joined the {o}."),
    "instrument": ("{s} plays the {o}.", "{s} performed on the {o}."),
    "sport": ("{s} plays {o}.", "{s} competed in {o}.", "{s} is a {o} player."),
    "residence": ("{s} resided in {o}.", "{s} made a home in {o}."),
    "country of citizenship": ("{s} held {o} citizenship.", "{s} is a national of {o}."),
    "religion": ("{s} practised {o}.", "{s} followed {o}."),
    "alma mater": ("{s} graduated from {o}.", "{s} attended {o}."),
    "place of burial": ("{s} is buried in {o}.", "{s} was laid to rest at {o}."),
    "cause of death": ("{s} died of {o}.",),
    "date of birth": ("{s} was born {o}.", "{s} (born {o}) is remembered today."),
    "date of death": ("{s} passed away on {o}.",),
    "place of birth": ("{s} is a native of {o}.", "{s} was born and raised in {o}."),
    "place of death": ("{s} passed away in {o}.",),
    # a property named by a participle or a noun is usually stated with the finite verb
    "position held": ("{s} held the post of {o}.", "{s} holds the office of {o}."),
    "nominated for": ("{s} was a nominee for the {o}.", "{s} earned a nomination for the {o}."),
    "influenced by": ("{o} influenced {s}.", "{s} drew on the work of {o}."),
    "depicted by": ("{o} depicts {s}.", "{s} is portrayed in {o}."),
    "participated in": ("{s} took part in {o}.", "{s} participates in {o}."),
    "convicted of": ("{s} was found guilty of {o}.",),
    "named after": ("{s} is named for {o}.", "{s} bears the name of {o}."),
    "described by source": ("{o} describes {s}.", "{s} has an entry in {o}."),
    "student of": ("{s} studied under {o}.", "{s} learned from {o}."),
    "student": ("{s} taught {o}.", "{o} studied under {s}."),
    "doctoral advisor": ("{s} did a doctorate under {o}.",),
    "doctoral student": ("{s} supervised the doctorate of {o}.",),
    "member of sports team": ("{s} plays for {o}.", "{s} played for {o}."),
    "member of": ("{s} belongs to {o}.", "{s} joined {o}."),
    "present in work": ("{s} appears in {o}.",),
    "record label": ("{s} recorded for {o}.", "{s} signed with {o}."),
    "work location": ("{s} works in {o}.", "{s} worked in {o}."),
    "military branch": ("{s} served in the {o}.",),
    "conflict": ("{s} fought in the {o}.",),
    "military rank": ("{s} rose to the rank of {o}.",),
    "academic degree": ("{s} earned a {o}.", "{s} holds a {o}."),
    "medical condition": ("{s} suffered from {o}.",),
    "relative": ("{s} is related to {o}.",),
    "cohabitant": ("{s} lived with {o}.",),
    "ethnic group": ("{s} is of {o} descent.",),
    "movement": ("{s} was part of the {o}.",),
    "noble title": ("{s} bore the title {o}.",),
    "league": ("{s} plays in the {o}.",),
    "position played on team": ("{s} plays as a {o}.",),
    "succeeded by": ("{o} succeeded {s}.",),
    "succeeds": ("{s} succeeded {o}.",),
}


def _sentence(t: Triple, rng: random.Random, templates: Callable[[Triple], str] | None) -> str:
    if rng.random() < 0.5:  # dates in prose rarely look like the graph's ISO form
        spoken = spoken_date(t.object_value, rng)
        if spoken != t.object_value:
            t = Triple(t.subject_id, t.subject_label, t.relation, spoken, t.object_id)
    if templates is not None:
        return templates(t)
    roll = rng.random()
    if roll < 0.35 and t.relation in VARIANTS:
        return rng.choice(VARIANTS[t.relation]).format(s=t.subject_label, o=t.object_value)
    if roll < 0.7:
        return verbalize(t)
    return rng.choice(_GENERIC).format(s=t.subject_label, r=property_label(t.relation), o=t.object_value)


def _claim(relation: str, value: str, rng: random.Random | None) -> str:
    """The hypothesis; with ``rng``, sometimes with the property named as graphs often do ("has genre")."""
    label = property_label(relation)
    if rng is not None and rng.random() < 0.2 and " " not in label and not label.startswith("has"):
        return f"has {label}: {value}"
    return hypothesis(relation, value)


def _join(sentences: list[str], rng: random.Random) -> str:
    """Several facts in one premise: separate sentences, or one sentence joined by semicolons."""
    if len(sentences) == 1 or rng.random() < 0.5:
        return " ".join(sentences)
    return "; ".join(s.rstrip(".") for s in sentences) + "."


def _kept(t: Triple, old: str, new: str) -> bool:
    """Does a rewrite still state the value as the original premise did (ISO or spoken date)?"""
    if t.object_value.lower() in new.lower():
        return True
    date = iso_date(t.object_value)
    return date is not None and date[0] in new and date[1] in new and str(date[2]) in new


#: Wikidata properties with a single-value constraint (Q19474404) that BioKaLMA uses. A graph
#: that keeps one value per entity and property (BioKaLMA does) makes *every* relation look
#: functional, so there the constraint, not the data, decides.
SINGLE_VALUE: frozenset[str] = frozenset(
    {
        "date of birth",
        "date of death",
        "place of birth",
        "place of death",
        "sex or gender",
        "father",
        "mother",
        "place of burial",
        "cause of death",
        "manner of death",
        "given name",
        "surname",
        "family name",
        "country of citizenship",
    }
)


def functional_relations(triples: Iterable[Triple], threshold: float = 0.9) -> frozenset[str]:
    """Relations where at least ``threshold`` of the subjects have exactly one value.

    When no subject has two values of any relation the data cannot tell, and only the relations
    in :data:`SINGLE_VALUE` count as functional.
    """
    values: dict[tuple[str, str], set[str]] = defaultdict(set)
    for t in triples:
        values[(t.relation, t.subject_id)].add(t.object_value)
    if all(len(v) == 1 for v in values.values()):
        return frozenset({rel for rel, _ in values} & SINGLE_VALUE)
    per_rel: dict[str, list[int]] = defaultdict(list)
    for (rel, _), vals in values.items():
        per_rel[rel].append(len(vals))
    return frozenset(r for r, counts in per_rel.items() if sum(c == 1 for c in counts) / len(counts) >= threshold)


def kg_pairs(
    triples: Sequence[Triple],
    *,
    n_premises: int,
    seed: int = 0,
    max_facts: int = 3,
    templates: Callable[[Triple], str] | None = None,
    rephrase: Callable[[list[str]], list[str]] | None = None,
    source: str = "kg",
    vary_claims: bool = False,
    many_valued_swaps: bool = True,
    inflect: Callable[[str], Sequence[str]] | None = None,
    inflect_rate: float = 0.3,
) -> list[LabelledPair]:
    """Labelled pairs about ``n_premises`` random entities of a graph, about one third per label.

    ``templates`` fixes the sentence for a triple (held-out sets use their own phrasing);
    ``rephrase`` (e.g. an LLM) rewrites premises in batch — a rewrite is kept only if every
    stated value is still there verbatim, so the labels stay true; ``vary_claims`` sometimes
    names a one-word property as "has <property>" in the hypothesis. ``many_valued_swaps=False``
    leaves out "another value of a many-valued property" neutrals: SICK, trained on alongside,
    calls "plays a guitar" vs "plays a flute" a contradiction, so those pairs teach two
    conventions at once; held-out sets keep them. ``inflect`` gives other inflections of a
    property name (:class:`kgcite.train.inflect.Inflector`); that share of the hypotheses, drawn
    with a generator of its own so the rest of the data stays the same, name their property so.
    """
    rng = random.Random(seed)
    by_subject: dict[str, list[Triple]] = defaultdict(list)
    values_of: dict[str, list[str]] = defaultdict(list)
    for t in triples:
        by_subject[t.subject_id].append(t)
        values_of[t.relation].append(t.object_value)
    for rel, values in values_of.items():
        values_of[rel] = sorted(set(values))
    functional = functional_relations(triples)
    relations = sorted(values_of)
    subjects = sorted(s for s, ts in by_subject.items() if len(ts) >= 2)
    if not subjects:
        return []
    drafts: list[tuple[str, list[Triple], list[Triple]]] = []
    for _ in range(n_premises):
        facts = by_subject[rng.choice(subjects)]
        k = rng.randint(1, min(max_facts, len(facts) - 1))
        stated = rng.sample(facts, k)
        drafts.append((_join([_sentence(t, rng, templates) for t in stated], rng), stated, facts))
    if rephrase is not None:
        rewrites = rephrase([d[0] for d in drafts])
        drafts = [
            (new if new and all(_kept(t, old, new) for t in stated) else old, stated, facts)
            for new, (old, stated, facts) in zip(rewrites, drafts, strict=True)
        ]
    out: list[LabelledPair] = []
    for premise, stated, facts in drafts:
        labelled = _labelled(
            premise, stated, facts, values_of, functional, relations, rng, source, vary_claims, many_valued_swaps
        )
        out.extend(replace(p, subject=stated[0].subject_label) for p in labelled)
    return out if inflect is None else _inflected(out, inflect, inflect_rate, random.Random(f"inflect-{seed}"))


def _inflected(
    pairs: list[LabelledPair], inflect: Callable[[str], Sequence[str]], rate: float, rng: random.Random
) -> list[LabelledPair]:
    """``rate`` of the pairs with their property named in another inflection; labels unchanged."""
    out: list[LabelledPair] = []
    for p in pairs:
        label, sep, value = p.hypothesis.partition(": ")
        variants = inflect(label) if sep and rng.random() < rate else ()
        out.append(replace(p, hypothesis=f"{rng.choice(variants)}: {value}") if variants else p)
    return out


def _labelled(
    premise: str,
    stated: list[Triple],
    facts: list[Triple],
    values_of: dict[str, list[str]],
    functional: frozenset[str],
    relations: list[str],
    rng: random.Random,
    source: str,
    vary_claims: bool,
    many_valued_swaps: bool = True,
) -> list[LabelledPair]:
    """One premise's pairs: one or two entailments, a contradiction where the graph allows, a neutral."""
    crng = rng if vary_claims else None
    own: dict[str, set[str]] = defaultdict(set)
    for t in facts:
        own[t.relation].add(t.object_value)
    stated_rels = {t.relation for t in stated}
    pairs = [
        LabelledPair(premise, _claim(t.relation, t.object_value, crng), "entailment", source)
        for t in rng.sample(stated, min(2, len(stated)))
    ]
    fact = rng.choice(stated)
    swaps = [v for v in values_of[fact.relation] if v not in own[fact.relation]]
    if swaps and fact.relation in functional:
        pairs.append(LabelledPair(premise, _claim(fact.relation, rng.choice(swaps), crng), "contradiction", source))
    neutral: list[str] = []
    wrong = [r for r in relations if fact.object_value not in own[r]]
    if wrong:  # the stated value under a property the entity does not have it for
        neutral.append(_claim(rng.choice(wrong), fact.object_value, crng))
    unstated = [t for t in facts if t.relation not in stated_rels]
    if unstated:  # a true fact the sentence does not state
        t = rng.choice(unstated)
        neutral.append(_claim(t.relation, t.object_value, crng))
    if many_valued_swaps and swaps and fact.relation not in functional:  # another value of a many-valued property
        neutral.append(_claim(fact.relation, rng.choice(swaps), crng))
    if neutral:
        pairs.append(LabelledPair(premise, rng.choice(neutral), "neutral", source))
    return pairs


def biokalma_triples() -> list[Triple]:
    """Every distinct triple of the shipped BioKaLMA graphs."""
    seen: dict[tuple[str, str, str], Triple] = {}
    for path in shipped_biokalma("all"):
        for item in read_biokalma(path):
            for t in item.graph:
                seen.setdefault(t.key, t)
    return list(seen.values())


#: Natural phrasings of MetaQA's relations; never used for training pairs.
METAQA_TEMPLATES: dict[str, str] = {
    "directed_by": "{s} was directed by {o}.",
    "written_by": "{s} was written by {o}.",
    "starred_actors": "{s} stars {o}.",
    "release_year": "{s} was released in {o}.",
    "in_language": "{s} is a film in {o}.",
    "has_genre": "{s} is a {o} film.",
    "has_tags": "{s} is tagged with {o}.",
    "has_imdb_rating": "{s} has an IMDb rating of {o}.",
    "has_imdb_votes": "{s} has {o} votes on IMDb.",
}


def metaqa_template(t: Triple) -> str:
    return METAQA_TEMPLATES.get(t.relation, "{s}'s {r} is {o}.").format(
        s=t.subject_label, r=property_label(t.relation), o=t.object_value
    )


def metaqa_pairs(n_premises: int = 1500, *, seed: int = 13, kb: str | Path | None = None) -> list[LabelledPair]:
    """The held-out attribution test: pairs from MetaQA's movie graph in its own phrasing."""
    triples = list(read_tsv(kb or shipped_data("metaqa", "kb.txt")))
    return kg_pairs(triples, n_premises=n_premises, seed=seed, templates=metaqa_template, source="metaqa")


def label_counts(pairs: Iterable[LabelledPair]) -> dict[str, int]:
    c = Counter(p.label for p in pairs)
    return {label: c.get(label, 0) for label in LABELS}
