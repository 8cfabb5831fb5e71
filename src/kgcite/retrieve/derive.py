"""Answers derived from facts: yes/no, counts, comparisons, superlatives, what sets share.

The question reader gives the form (:mod:`kgcite.text.forms`) and the asked relations; here the
facts are found (a member's own facts from the store, where retrieval reached only how it links to
the topic) and the conclusion drawn: a :class:`~kgcite.retrieve.evidence.Derivation`, which
generation states, each fact cited and one conclusion citing every fact it rests on (phrased by
:mod:`kgcite.judge.derived`, which the judge uses to recompute it). A derivation needs every
member's value: a member the graph gives none is a gap, and a yes/no over a relation the graph
lacks is ``[NA]``, never "no". A question this module cannot derive (no relation to count, one
entity to compare) returns None and is looked up as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from kgcite.judge.derived import rank
from kgcite.kg.keys import property_key
from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.retrieve.evidence import (
    Absent,
    Counted,
    Derivation,
    Gap,
    Item,
    More,
    NoMeasure,
    NoneShared,
    Ordered,
    Shared,
    Unasked,
    grouped,
)
from kgcite.retrieve.question import UNINFORMATIVE
from kgcite.retrieve.reading import Reading
from kgcite.retrieve.sides import as_asked, asked_side, has_own_facts
from kgcite.text.forms import Form, Order, as_kind, quantity, same_value
from kgcite.text.kinds import name_kind
from kgcite.text.lexicon import property_label, stem
from kgcite.text.values import normalize

#: Words in a relation's name that mark when something began: "older" compares these first.
_START = frozenset(
    stem(w)
    for w in (
        "birth",
        "born",
        "open",
        "opened",
        "found",
        "founded",
        "established",
        "inception",
        "start",
        "begin",
        "built",
        "created",
        "released",
        "published",
        "launched",
        "formed",
        "entered",
        "introduced",
        "first",
    )
)
_LITERAL = re.compile(r"\b\d[\d,]*(?:\.\d+)?(?:\s*(?:bce|bc|ce|ad))?\b", re.IGNORECASE)
#: Words by which a yes/no asks whether the entities share a value.
_SAME = frozenset(["same", "both", "common", "shared", "share"])
#: How many counted members a count's text lists; the rest are "and N more" (all are in --json).
SHOWN = 10


OneHop = Callable[[str], Subgraph]


class Deriver:
    """Derives the answer of a non-lookup question over the retrieved graph; ``facts`` gives an
    entity's one-hop graph (the store's), for members the retrieval did not reach."""

    def __init__(self, facts: OneHop, *, shown: int = SHOWN) -> None:
        self.facts, self.shown = facts, shown

    def derive(self, reading: Reading, graph: Subgraph, entities: Sequence[Entity]) -> Derivation | None:
        form = reading.form
        if not entities or len(reading.parts) > 1:
            return None
        relations = set(reading.asked)
        if form.kind == "yesno":
            return self.yes_no(reading, graph, entities, relations)
        if form.kind == "count":
            return self.count(reading, graph, entities[0], relations)
        if form.kind in ("comparison", "superlative") and form.order is not None:
            return self.order(reading, graph, entities, relations, form.order)
        constrained = (
            len(entities) > 1 and _asks_members(reading) and (bool(reading.groups) or _all_values(graph, entities))
        )
        if form.kind == "intersection" or constrained:  # "Which lakes in V flow into the S?": members of both
            derived = self.common(reading, graph, entities, relations)
            return replace(derived, form=Form("intersection")) if derived and constrained else derived
        return None

    # -- yes/no --------------------------------------------------------------------------------
    def yes_no(
        self, reading: Reading, graph: Subgraph, entities: Sequence[Entity], relations: set[str]
    ) -> Derivation | None:
        """Yes when a triple of an asked relation joins the subject to the other entity (or the
        value the question gives); no when that relation holds other values; else [NA]."""
        subject, others = entities[0], entities[1:]
        names = {w for e in entities for w in normalize(e.label).split()}
        literals = [m for m in _LITERAL.findall(reading.question) if normalize(m) not in names]
        asked = [t for t in graph.triples if property_key(t.relation) in relations and not t.is_label]
        words = set(normalize(reading.question).split())
        if others and words & _SAME and relations:  # "Were A and B designed by the same architect?"
            return self._same(reading, entities, asked, relations, by_year="year" in words)
        if others or _names_more(reading.question, names):  # a name is claimed: not a date's relation
            relations = {r for r in relations if not _dated(r)} or relations
            asked = [t for t in asked if quantity(t.object_value) is None]
        elif literals:  # "Did it open in 1872?", "Was she born in 1870?": a date's or number's relation
            every = {property_key(r) for r in reading.relations}  # "born" is also *date of birth*
            asked = [
                t
                for t in graph.triples
                if property_key(t.relation) in every and quantity(t.object_value) is not None and not t.is_label
            ]
        held = [t for t in asked if t.subject_id == subject.id]
        if others:  # "Were A and B designed by C?": each of the others but the last claims the last
            target, claimants = others[-1], [subject, *others[:-1]]
            joined = [
                [t for t in _between(graph, c, target) if not relations or property_key(t.relation) in relations]
                for c in claimants
            ]
            if all(joined):
                return self._polar(reading, True, [t for ts in joined for t in ts])
            unjoined = [c for c, ts in zip(claimants, joined, strict=True) if not ts]
            held = [t for t in asked if t.subject_id in {c.id for c in unjoined}] or [
                t for t in asked if t.subject_id == target.id
            ]
            subject = unjoined[0]
        else:
            said = f" {normalize(reading.question)} "
            hits = [
                t
                for t in held
                if f" {normalize(t.object_value)} " in said or any(same_value(t.object_value, v) for v in literals)
            ]
            if hits:
                return self._polar(reading, True, hits)
            if held and not literals and not _names_more(reading.question, names):
                return None  # "Was X born?": no value claimed, nothing to say no to
        if held:
            return self._polar(reading, False, held)
        if not others and not literals and not _names_more(reading.question, names):
            return None
        relation = next((r for r in reading.relations if property_key(r) in relations), None)
        if relation is None:
            return Derivation(reading.form, (Unasked(reading.question, subject.label),), ())
        gap = Gap(subject.id, subject.label, relation, reading.parts[0].wh)
        return Derivation(reading.form, (gap,), (), ((subject.id, relation),))

    def _same(
        self,
        reading: Reading,
        entities: Sequence[Entity],
        asked: list[Triple],
        relations: set[str],
        *,
        by_year: bool = False,
    ) -> Derivation:
        """Do the entities share a value of the asked relation (``by_year``: a date's year)? Yes
        citing each one's triple of a shared value, no citing all their values, [NA] for one
        that has none."""
        values = {e.id: [t for t in asked if t.subject_id == e.id] for e in entities}
        lacking = [e for e in entities if not values[e.id]]
        if lacking:
            relation = next(r for r in reading.relations if property_key(r) in relations)
            wh = "when" if by_year else "what"
            gaps = tuple(Gap(e.id, e.label, relation, wh) for e in lacking)
            return Derivation(reading.form, gaps, (), tuple((e.id, relation) for e in lacking))

        def key(t: Triple) -> str:
            date = as_kind(t.object_value, "date") if by_year else None
            return str(int(date.key[0])) if date is not None else normalize(t.object_value)

        shared = set.intersection(*({key(t) for t in ts} for ts in values.values()))
        if shared:
            return self._polar(reading, True, [t for ts in values.values() for t in ts if key(t) in shared])
        return self._polar(reading, False, [t for ts in values.values() for t in ts])

    def _polar(self, reading: Reading, yes: bool, triples: list[Triple]) -> Derivation:
        verdict = "yes" if yes else "no"
        return Derivation(
            reading.form, grouped(triples), tuple(triples), (), (verdict,), _members(triples), verdict=verdict
        )

    # -- count ---------------------------------------------------------------------------------
    def count(self, reading: Reading, graph: Subgraph, topic: Entity, relations: set[str]) -> Derivation | None:
        """The members an asked relation links to the topic, each cited, then their number. A
        relation that holds the number itself ("number of platforms: 6") is looked up instead."""
        if not relations:
            return None
        # "How many people report to X?" counts those who do, not the one X reports to
        own = has_own_facts(graph, topic.id)
        sides = {r: asked_side(reading.question, topic.label, r, own_facts=own) for r in relations}
        found = [t for t in _linked(graph, topic, relations) if as_asked(t, topic.id, sides[property_key(t.relation)])]
        if not found:
            relation = reading.relations[0]
            gap = Gap(topic.id, topic.label, relation, "what")
            return Derivation(reading.form, (gap,), (), ((topic.id, relation),))
        if len(found) == 1 and quantity(found[0].object_value) is not None and found[0].subject_id == topic.id:
            return None  # the graph states the number: a lookup answers it
        numbers = {r for r in relations if name_kind(r) == "quantity"}
        if numbers and not any(property_key(t.relation) in numbers for t in found):
            return None  # "How many seats does the hall where X rehearses have?": the number is further on
        ends = list(dict.fromkeys(_far(t, topic.id) for t in found))
        shown = [t for t in found if _far(t, topic.id) in ends[: self.shown]]
        items: list[Item] = list(grouped(shown))
        if len(ends) > self.shown:
            # cites nothing itself: the conclusion cites every counted member (all are in --json)
            items.append(More(len(ends) - self.shown))
        items.append(Counted(len(ends), reading.form.noun, tuple(found)))
        return Derivation(reading.form, tuple(items), tuple(found), (), (str(len(ends)),), _members(found, topic.id))

    # -- comparison and superlative ------------------------------------------------------------
    def order(
        self,
        reading: Reading,
        graph: Subgraph,
        entities: Sequence[Entity],
        relations: set[str],
        order: Order,
    ) -> Derivation | None:
        """Which member wins on a value of the order's kind: the members are the entities named
        ("A or B"), or the set an asked relation links to the one named ("the stations the
        railway operates")."""
        set_triples: list[Triple] = []
        if len(entities) > 1:
            members = list(entities)
        else:
            set_triples = [t for t in _linked(graph, entities[0], relations) if _far_id(t, entities[0].id)]
            ends = [e for t in set_triples if (e := _far_entity(t, entities[0].id)) is not None]
            members = list({e.id: e for e in ends}.values())
            if len(members) < 2:
                return None
        facts = {m.id: [t for t in self._about(m) if as_kind(t.object_value, order.kind) is not None] for m in members}
        relation = _choose(facts, relations, order)
        if relation is None:
            return Derivation(reading.form, (NoMeasure(order.kind, tuple(m.label for m in members)),), ())
        valued = {m.id: [t for t in facts[m.id] if property_key(t.relation) == property_key(relation)] for m in members}
        best: dict[str, Triple] = {}
        for m in members:
            ranked = rank([(m.label, t.relation, t.object_value) for t in valued[m.id]], order)
            if ranked is not None and valued[m.id]:
                best[m.id] = next(
                    t for t in valued[m.id] if as_kind(t.object_value, order.kind) == ranked.values[m.label]
                )
        items: list[Item] = list(grouped(set_triples))
        absent: list[Absent] = []
        for m in members:
            if m.id in best:
                items.extend(grouped([best[m.id]]))
            else:
                items.append(Gap(m.id, m.label, relation, "when" if order.kind == "date" else "what"))
                absent.append((m.id, relation))
        compared = [best[m.id] for m in members if m.id in best]
        ranked = rank([(t.subject_label, t.relation, t.object_value) for t in compared], order)
        superlative = len(members) > 2 or bool(set_triples)  # "older" of two, "the oldest" of more
        cited = set_triples + compared
        if ranked is None or len(compared) < 2 or (absent and len(entities) > 1 and len(members) == 2):
            return Derivation(reading.form, tuple(items), tuple(cited), tuple(absent), (), _members(cited))
        polar = None
        if reading.form.polar:
            polar = set(ranked.winners) == {entities[0].label}
        items.append(Ordered(tuple(ranked.winners), order, superlative, polar, bool(absent), tuple(cited)))
        predicted = ("yes" if polar else "no",) if polar is not None else ranked.winners
        return Derivation(reading.form, tuple(items), tuple(cited), tuple(absent), tuple(predicted), _members(compared))

    def _about(self, entity: Entity) -> list[Triple]:
        """A member's own facts, from the store: retrieval holds only how it links to the topic."""
        return [t for t in self.facts(entity.id).triples if t.subject_id == entity.id and not t.is_label]

    # -- intersection and constraint -----------------------------------------------------------
    def common(
        self, reading: Reading, graph: Subgraph, entities: Sequence[Entity], relations: set[str]
    ) -> Derivation | None:
        """The entities an asked relation links to every named one ("designed both A and B",
        "stations the railway operates that are located in Vellmoor")."""
        anchors = list(dict.fromkeys(entities))[:4]
        if len(anchors) < 2:
            return None
        linked = {a.id: _linked(graph, a, relations or _all(graph)) for a in anchors}
        if reading.form.kind != "intersection":  # "lakes *in* Valdmark that flow into the Sael": "in" names no relation
            linked = {
                a: ts or _linked(graph, next(e for e in anchors if e.id == a), _all(graph)) for a, ts in linked.items()
            }
        missing = [a for a in anchors if not linked[a.id]]
        if missing:
            if reading.form.kind != "intersection":
                return None  # a lookup naming two entities: answered as before
            relation = reading.relations[0] if reading.relations else None
            if relation is None:
                return None
            gaps = tuple(Gap(a.id, a.label, relation, reading.parts[0].wh) for a in missing)
            return Derivation(reading.form, gaps, (), tuple((a.id, relation) for a in missing))
        sets = [{_end(t, a.id) for t in linked[a.id]} for a in anchors]
        shared = set.intersection(*sets) - {a.id for a in anchors}
        if not shared and reading.form.kind != "intersection":
            if _all_values(graph, anchors):
                # "Which midfielders play for Harrowdene FC?": both named are values, and none links to both
                by = tuple(tuple(dict.fromkeys(t.relation for t in linked[a.id])) for a in anchors)
                return Derivation(reading.form, (NoneShared(tuple(a.label for a in anchors), by),), ())
            return None
        cited = (
            [t for a in anchors for t in linked[a.id] if _end(t, a.id) in shared]
            if shared
            else [t for a in anchors for t in linked[a.id]]
        )
        members = list(dict.fromkeys(_far(t, a.id) for a in anchors for t in linked[a.id] if _end(t, a.id) in shared))
        shared_item = Shared(tuple(members), tuple(a.label for a in anchors), tuple(cited))
        items: tuple[Item, ...] = (*grouped(cited), shared_item)
        return Derivation(reading.form, items, tuple(cited), (), tuple(members), _members(cited))


# -- helpers -------------------------------------------------------------------------------------


def _names_more(question: str, names: set[str]) -> bool:
    """The question names something besides its linked entities: a capitalised word after the
    first ("Was X born in *Cameron*?"), the value it claims though linking found no entity."""
    words = re.findall(r"[\w'-]+", question)[1:]
    return any(w[:1].isupper() and normalize(w) not in names for w in words)


def _dated(relation: str) -> bool:
    """A relation whose name says its values are dates ("date of birth", "release_year")."""
    return bool({"date", "year", "time", "when"} & set(normalize(property_label(relation)).split()))


def _all(graph: Subgraph) -> set[str]:
    """Every informative relation of the graph: what "What do A and B have in common?" may share."""
    return {k for t in graph.triples if (k := property_key(t.relation)) not in UNINFORMATIVE}


#: Openings that ask for the members of a set without a wh-word: "Name the Kelby Athletic forwards."
_LIST = re.compile(r"^\s*(?:name|list|give|show)\b", re.IGNORECASE)


def _asks_members(reading: Reading) -> bool:
    """ "Who/which/what …?" or "Name the …": the answer is the things that meet every condition."""
    return reading.parts[0].wh in ("which", "what", "who", "whom") or bool(_LIST.match(reading.question))


def _all_values(graph: Subgraph, entities: Sequence[Entity]) -> bool:
    """Whether every named entity is a value others point to ("Midfielder", "Harrowdene FC" in
    "Which midfielders play for Harrowdene FC?"): conditions on the answer."""
    return all(any(t.object_id == e.id and t.subject_id != e.id for t in graph.triples) for e in entities)


def _between(graph: Subgraph, a: Entity, b: Entity) -> list[Triple]:
    """Triples joining two entities, either way; in a graph whose values are names (BioKaLMA's
    JSON), a value that is the other's label joins them too."""

    def points(t: Triple, to: Entity) -> bool:
        return t.object_id == to.id or (t.object_id is None and normalize(t.object_value) == normalize(to.label))

    return [
        t for t in graph.triples if (t.subject_id == a.id and points(t, b)) or (t.subject_id == b.id and points(t, a))
    ]


def _linked(graph: Subgraph, entity: Entity, relations: set[str]) -> list[Triple]:
    """The entity's triples of the relations, outgoing first, then incoming; each once."""
    out = [t for t in graph.triples if t.subject_id == entity.id and property_key(t.relation) in relations]
    out += [
        t
        for t in graph.triples
        if t.object_id == entity.id and t.subject_id != entity.id and property_key(t.relation) in relations
    ]
    return [t for t in dict.fromkeys(out) if not t.is_label]


def _far(t: Triple, near: str) -> str:
    """The label at the other end of a triple from ``near``."""
    return t.subject_label if t.object_id == near and t.subject_id != near else t.object_value


def _end(t: Triple, near: str) -> str:
    """What the far end is, to compare ends across anchors: its id, or a literal's words."""
    return _far_id(t, near) or f"value:{normalize(t.object_value)}"


def _far_id(t: Triple, near: str) -> str | None:
    """The entity id at the other end, None for a literal value."""
    return t.subject_id if t.object_id == near and t.subject_id != near else t.object_id


def _far_entity(t: Triple, near: str) -> Entity | None:
    if t.object_id == near and t.subject_id != near:
        return Entity(t.subject_id, t.subject_label)
    return Entity(t.object_id, t.object_value) if t.object_id is not None else None


def _members(triples: Sequence[Triple], near: str | None = None) -> dict[str, list[list[str]]]:
    """Each answer (the far end from ``near``, else the subject) with the triple citing it."""
    out: dict[str, list[list[str]]] = {}
    for t in triples:
        label = _far(t, near) if near is not None else t.subject_label
        out.setdefault(label, [[t.subject_label, t.relation, t.object_value]])
    return out


def _choose(facts: dict[str, list[Triple]], asked: set[str], order: Order) -> str | None:
    """The relation to compare by (the graph's spelling). An order with a measure ("longer" →
    length) compares only relations named by it; then an asked relation comes first, then — for
    dates — one that marks a beginning (birth, opening, founding), then the one most members hold."""
    held: dict[str, str] = {}
    count: dict[str, int] = {}
    for triples in facts.values():
        for r in dict.fromkeys(property_key(t.relation) for t in triples):
            count[r] = count.get(r, 0) + 1
        for t in triples:
            held.setdefault(property_key(t.relation), t.relation)
    if not held:
        return None

    def words(r: str) -> set[str]:
        return {stem(w) for w in normalize(r).split()}

    dimension = {stem(w) for w in order.dimension}
    if dimension:  # "deepest" compares depths or nothing: never the year a lake was found
        measured = {r: name for r, name in held.items() if words(r) & dimension}
        held = measured or {r: name for r, name in held.items() if r in asked}  # "the longer book": its pages
        if not held:
            return None
    ranked = sorted(
        held,
        key=lambda r: (
            r not in asked,
            not (order.kind == "date" and words(r) & _START),
            -count[r],
            r,
        ),
    )
    return held[ranked[0]]
