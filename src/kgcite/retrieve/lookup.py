"""A lookup's evidence: the facts of each asked relation, and a gap for each one the graph lacks.

The question's reading says what was asked; each asked relation of the entity its part is about
gives one :class:`~kgcite.retrieve.evidence.Facts` (outgoing, or incoming: "Jaws was directed by
Steven Spielberg" answers "What did Spielberg direct?"), of the kind of value asked (a birthplace
is no birth date). An asked relation the graph lacks for that entity is a
:class:`~kgcite.retrieve.evidence.Gap`, and is recorded as absent. Each relation the question
names is walked in order ("where was the author of X born": X's author, then where she was born).
Nothing unasked is selected, except in a summary: a bounded set of the entity's most informative
relations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kgcite.kg.keys import property_key
from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.retrieve.evidence import Absent, Facts, Gap, Item, Lookup, Unasked
from kgcite.retrieve.question import summary_relations
from kgcite.retrieve.reach import answer_reach, asked_of_described, with_described
from kgcite.retrieve.reading import Reading
from kgcite.retrieve.sides import Side, as_asked, asked_side, has_own_facts
from kgcite.text.kinds import fits, name_kind
from kgcite.text.lexicon import PRONOUNS, AnswerKind
from kgcite.text.values import normalize

#: The most values one sentence lists: an entity with thousands of values of one relation is
#: answered with this many (in the graph's order) and a note, so an answer's work is bounded.
MAX_LISTED = 100

Found = tuple[str, str, list[Triple]]  # (subject label, relation, its triples)


def _about(
    graph: Subgraph,
    entity: Entity,
    relations: Sequence[str],
    *,
    incoming: bool = True,
    sides: Mapping[str, Side] | None = None,
) -> list[Found]:
    """(subject label, relation, triples) per relation the entity has, outgoing first, then
    incoming; ``sides`` (by relation key): the one way round the question asks, where it says."""
    sides = sides or {}
    wanted = {property_key(r) for r in relations}
    out: dict[tuple[str, str, str], list[Triple]] = {}

    def asked(t: Triple) -> bool:
        return as_asked(t, entity.id, sides.get(property_key(t.relation), "either"))

    for t in graph.triples:
        if property_key(t.relation) not in wanted or t.is_label or not asked(t):
            continue
        if t.subject_id == entity.id:
            out.setdefault(("out", t.subject_label, t.relation), []).append(t)
    for t in graph.triples if incoming else ():
        if property_key(t.relation) in wanted and t.object_id == entity.id and t.subject_id != entity.id and asked(t):
            out.setdefault(("in", t.subject_label, t.relation), []).append(t)
    order = {property_key(r): i for i, r in enumerate(relations)}
    ranked = sorted(out.items(), key=lambda kv: (kv[0][0] != "out", order[property_key(kv[0][2])]))
    return [(subject, rel, ts) for (_, subject, rel), ts in ranked]


def listed(
    groups: Sequence[Found],
    notes: list[str] | None = None,
    max_listed: int = MAX_LISTED,
    held: Mapping[tuple[str, str], int] | None = None,
) -> list[Facts]:
    """One :class:`Facts` per group, with at most ``max_listed`` values; a longer list is cut and
    ``notes`` says so, with the store's count (``held``, by subject and relation) where retrieval
    read only part of a hub."""
    out = []
    for subject, relation, triples in groups:
        values = list(dict.fromkeys(t.object_value for t in triples))
        total = (held or {}).get((subject, relation), len(values))
        if len(values) > max_listed or total > len(values):
            if notes is not None:
                shown = min(max_listed, len(values))
                notes.append(f"statements: {subject} has {total:,} values of {relation}; {shown} are stated")
            kept = set(values[:max_listed])
            triples = [t for t in triples if t.object_value in kept]
        out.append(Facts(subject, relation, tuple(triples)))
    return out


def pointing_in(
    found: Sequence[Found],
    entity: Entity,
    notes: list[str],
    max_listed: int = MAX_LISTED,
    held: Mapping[tuple[str, str, bool], int] | None = None,
) -> list[Found]:
    """At most ``max_listed`` of the entities that point at ``entity`` by one relation ("who was
    born in Bigcity": each is its own group of one value, so :func:`listed` cannot cut them);
    ``notes`` says how many there are (the store's count where retrieval cut the hub)."""
    kept: list[Found] = []
    seen: dict[str, int] = {}
    for group in found:
        t = group[2][0]
        if t.object_id == entity.id and t.subject_id != entity.id:
            seen[group[1]] = seen.get(group[1], 0) + 1
            if seen[group[1]] > max_listed:
                continue
        kept.append(group)
    for relation, n in seen.items():
        total = max(n, (held or {}).get((entity.id, relation, True), 0))
        if total > min(n, max_listed):
            notes.append(
                f"statements: {total:,} entities are linked to {entity.label} by {relation}; {min(n, max_listed)} are stated"
            )
    return kept


def _fitting(found: list[Found], kind: AnswerKind) -> list[Found]:
    """The groups whose values can answer the kind asked: a birthplace is no birth date."""
    return [f for f in found if fits(kind, [t.object_value for t in f[2]])]


def _part_entity(text: str, entities: Sequence[Entity], mentions: dict[str, str], current: Entity) -> Entity:
    """The linked entity a part names (by its mention or label), else the one before."""
    norm = f" {normalize(text)} "
    for e in entities:
        names = {mentions.get(e.id, ""), e.label}
        if any(n and f" {normalize(n)} " in norm for n in names):
            return e
    return current


def _namesakes(named: Entity, entities: Sequence[Entity], mentions: dict[str, str]) -> list[Entity]:
    """The entity a part is about, or every namesake the question's one mention named alike."""
    said = mentions.get(named.id)
    alike = [e for e in entities if said is not None and mentions.get(e.id) == said and e.label != said]
    return alike if len(alike) > 1 and named in alike else [named]


def _refers_back(text: str) -> bool:
    """The part names its subject by a pronoun ("… and where was *he* born?")."""
    return any(w in PRONOUNS for w in normalize(text).split())


def _one_end(triples: Sequence[Triple]) -> tuple[str | None, str] | None:
    """The one (node id, value) a hop reached, or None: several. The id is None for a value no
    node of the graph stands for (a father known only by his name)."""
    ends = {(t.object_id, t.object_value) for t in triples}
    return next(iter(ends)) if len(ends) == 1 else None


def _one_entity(triples: Sequence[Triple]) -> Entity | None:
    """The one entity a part's answer is (a single entity value), or None."""
    end = _one_end(triples)
    return Entity(end[0], end[1]) if end is not None and end[0] is not None else None


def _one_value(triples: Sequence[Triple]) -> str | None:
    """The one value a hop reached that no node stands for, or None."""
    end = _one_end(triples)
    return end[1] if end is not None and end[0] is None else None


def _reached(triples: Sequence[Triple], start: Entity) -> str | None:
    """The name of the one thing all the triples reach from ``start`` (either way round), or
    None: several, or a value that names no thing (a founding year is no founder)."""
    ends = {
        (t.subject_id, t.subject_label) if t.object_id == start.id else (t.object_id, t.object_value) for t in triples
    }
    if len(ends) != 1:
        return None
    end_id, label = next(iter(ends))
    return label if end_id != start.id and fits("agent", [label]) else None


def _measured(items: Sequence[Item], kind: AnswerKind, start: Entity) -> bool:
    """Whether the facts found end in numbers, no thing, where the question asks a quantity
    of what they reach: the membership of X *is* its member count, so "How big is the
    membership of X?" is answered by it, not asked of a thing past it."""
    return kind == "quantity" and all(
        fits(kind, [t.object_value]) and _reached([t], start) is None
        for it in items
        if isinstance(it, Facts)
        for t in it.triples
    )


def select(
    reading: Reading,
    graph: Subgraph,
    entities: Sequence[Entity],
    mentions: dict[str, str] | None = None,
    *,
    summary_size: int = 5,
    max_listed: int = MAX_LISTED,
    cut: Mapping[tuple[str, str, bool], int] | None = None,
) -> Lookup:
    """The lookup for linked ``entities`` (in question order) over the retrieved graph; ``cut``:
    the store's counts of the hub relations retrieval cut (:attr:`Retrieval.cut`)."""
    mentions = mentions or {}
    items: list[Item] = []
    absent: list[Absent] = []
    notes: list[str] = []
    steps: list[Triple] = []
    past: str | None = None
    if not entities:
        return Lookup(())
    labels = {e.id: e.label for e in graph.entities}
    held = {(labels.get(e, e), r): n for (e, r, inverse), n in (cut or {}).items() if not inverse}
    current = entities[0]
    done: set[tuple[str, tuple[str, ...]]] = set()
    answer: Entity | None = None  # the one entity a "who" part answered: what a later "he" refers to
    for part in reading.parts:
        named = _part_entity(part.text, entities, mentions, current)
        if answer is not None and named == current and _refers_back(part.text):
            named = answer  # "Who designed X and where was he born?": he is X's designer
        current, answer = named, None
        for current in _namesakes(named, entities, mentions):  # "Samuel Idris": each one answered
            if part.open:  # asked, but no relation of the graph names it: say so rather than pad
                items.append(Unasked(part.text, current.label))
            walked: Entity | None = None  # the one entity the part's last relation reached: "the author of X"
            value: str | None = None  # … or the one value no node of the graph stands for
            gap = False  # the part's group before was missing
            past_thing = False  # a relation was found of what a hop reached: the thing was asked a named relation
            before: list[Triple] = []  # that relation's triples: a step on the way, once walked on
            mark = len(items)  # where this part's items start
            said = mentions.get(current.id) or current.label  # how the question names the topic
            # "How tall is the founder of X?": what is asked of the founder no relation names
            asked_of = asked_of_described(part.text, part.rest, said)
            read = bool(part.from_topic)  # the reader said which group walks on from which
            for i, group in enumerate(part.groups):
                # the value kind asked is the last relation's ("When was the founder of X born?"); a
                # relation before it is a hop on the way, to a thing (a founder, not a founding year),
                # and so is the last one where the question asks something past it
                ends = i == len(part.groups) - 1 or (read and part.from_topic[i + 1])
                last = ends and asked_of is None
                walks_on = not part.from_topic[i] if read else walked is not None and walked.id != current.id
                kind: AnswerKind = part.kind if last or name_kind(group[0]) == part.kind else "agent"
                if all(name_kind(r) not in ("any", kind) for r in group):
                    kind = "any"  # the name says its kind ("release *year*"): "where was X released" means it
                if walks_on and gap:
                    continue  # the hop to it is missing, said once: nothing is asked of the topic instead
                if walks_on and walked is None and value is not None:
                    # "Where was the father of X born?", the father a name no node stands for: the
                    # graph says nothing of him, and X's own birthplace is no answer
                    subject, found = Entity(value, value), []
                    steps.extend(before)
                elif walks_on and (walked is None or walked.id == current.id):
                    # several things reached, or none: what is asked of each is the path search's
                    if not any(isinstance(it, Unasked) for it in items[mark:]):
                        items.append(Unasked(part.text, current.label))
                    continue
                elif walks_on and walked is not None:
                    # each relation named is walked in order: X's mentor, then where *she* was born
                    # (not X's own birthplace, and a gap on her where the graph lacks it)
                    subject = walked
                    # "Who taught the conductor of X?" asks who taught *her*: the question said
                    # with the description as one thing reads her side as it reads a topic's
                    described = with_described(part.text, said, "Y") if i == 1 else None
                    sides = (
                        {property_key(r): asked_side(described, "Y", r, own_facts=True) for r in group}
                        if described is not None
                        else {}
                    )
                    found = _fitting(_about(graph, subject, group, sides=sides), kind)
                    steps.extend(before)
                else:
                    subject = current  # "Who coaches X?" asks X's coach
                    own = has_own_facts(graph, current.id)
                    sides = {property_key(r): asked_side(part.text, said, r, own_facts=own) for r in group}
                    found = _fitting(_about(graph, subject, group, sides=sides), kind)
                if (subject.id, group) in done:
                    continue
                done.add((subject.id, group))
                if not found:
                    items.append(Gap(subject.id, subject.label, group[0], part.wh))
                    absent.append((subject.id, group[0]))
                    walked, value, gap = None, None, True
                    continue
                gap, past_thing = False, past_thing or subject.id != current.id
                before = []
                for facts in listed(pointing_in(found, subject, notes, max_listed, cut), notes, max_listed, held):
                    items.append(facts)
                    before.extend(facts.triples)
                walked = _one_entity(found[0][2]) if len(found) == 1 else None
                value = _one_value(found[0][2]) if len(found) == 1 else None
                if part.wh in ("who", "whom") and len(found) == 1:
                    answer = _one_entity(found[0][2])
            mine = items[mark:]
            if (
                mine
                and not past_thing
                and asked_of is None
                and all(isinstance(it, Facts) or (isinstance(it, Gap) and it.subject_id == current.id) for it in mine)
                and answer_reach(part.text, said) == "beyond"
            ):
                # "Where was the mentor of X born?" names only what is asked of the mentor: X's own
                # birthplace is no answer, nor is its absence (the [NA] is the mentor's), and a
                # mentor no relation's name says is the search's
                items[mark:] = [Unasked(part.text, current.label)]
                gaps = {(it.subject_id, it.relation) for it in mine if isinstance(it, Gap)}
                absent = [a for a in absent if a not in gaps]
                answer = None
            elif part.open and asked_of is not None:
                # "What is the entry fee of the garden that X belongs to?" names no relation at all:
                # a chain past the garden answers only as a chain past a described thing does
                past = past or asked_of
            elif (
                mine
                and all(isinstance(it, Facts) for it in mine)
                and asked_of is not None
                and not past_thing
                and not _measured(mine, part.kind, current)
            ):
                # "How tall is the founder of X?": the facts found reach the founder, steps stated
                # as such; what is asked of her no relation names, so it is [NA], said of her
                # ("How big is the membership of X?" is not: the hop ends in the number asked)
                hops = [it for it in mine if isinstance(it, Facts)]
                steps.extend(t for it in hops for t in it.triples)
                things = {_reached(it.triples, current) for it in hops} - {None}
                thing = next(iter(things)) if len(things) == 1 else None
                if thing is None:  # several things, or none: the question's own words
                    items[mark:] = [Unasked(part.text, current.label)]
                else:  # the hops to the one thing, then what is asked of it
                    items[mark:] = [it for it in hops if _reached(it.triples, current) == thing]
                    items.append(Unasked(asked_of.replace("X", thing), thing))
                answer, past = None, past or asked_of
    if reading.summary:
        for entity in entities if not items else entities[:1]:
            rels = summary_relations({t.relation for t in graph.triples if t.subject_id == entity.id}, summary_size)
            for facts in listed(_about(graph, entity, rels, incoming=False), notes, max_listed, held):
                if facts not in items:
                    items.append(facts)
    return Lookup(tuple(items), tuple(absent), tuple(notes), tuple(dict.fromkeys(steps)), past)
