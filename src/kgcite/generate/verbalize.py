"""The template verbaliser: one plain sentence per relation, the values verbatim.

It is the floor of grounded generation (docs/concepts.md): whatever an LLM makes of the facts, this
text is always available and always states exactly what it cites, so the judge supports it.
Common Wikidata relations have hand-written patterns; any other relation label is read by its
parts of speech (spaCy, remembered: :mod:`kgcite.models.tags`): a verb ("X founded Y"), a participle ("X was directed by Y"), a noun
("X's spouse is Y"), a preposition first ("in language" → "X's language is Y"). Labels are
humanised (``_`` → space) and ISO dates spoken ("November 1, 1871"); citations keep the value
as the graph writes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from kgcite.kg.keys import property_key
from kgcite.kg.model import Triple
from kgcite.models.tags import label_tags
from kgcite.text.forms import as_kind
from kgcite.text.kinds import core_words, name_kind, value_kinds
from kgcite.text.lexicon import EVENT_VERBS, property_label
from kgcite.text.values import date_parts, join, spoken_date

#: Relation → sentence pattern; ``{s}`` subject label, ``{o}`` value(s).
TEMPLATES: dict[str, str] = {
    "place of birth": "{s} was born in {o}.",
    "place of death": "{s} died in {o}.",
    "date of birth": "{s} was born on {o}.",
    "date of death": "{s} died on {o}.",
    "place of burial": "{s} was buried at {o}.",
    "cause of death": "{s}'s cause of death was {o}.",
    "manner of death": "{s}'s manner of death was {o}.",
    "occupation": "{s}'s occupation was {o}.",
    "country of citizenship": "{s} was a citizen of {o}.",
    "alma mater": "{s} studied at {o}.",
    "educated at": "{s} studied at {o}.",
    "award received": "{s} received the {o}.",
    "member of": "{s} is a member of {o}.",
    "member of political party": "{s} is a member of the {o}.",
    "member of sports team": "{s} played for {o}.",
    "employer": "{s} worked for {o}.",
    "notable works": "{s}'s notable works include {o}.",
    "languages spoken": "{s} spoke {o}.",
    "native language": "{s}'s native language was {o}.",
    "participated in": "{s} participated in {o}.",
    "position held": "{s} held the position of {o}.",
    "noble family": "{s} belonged to the {o}.",
    "religion": "{s}'s religion was {o}.",
    "residence": "{s} lived in {o}.",
    "work location": "{s} worked in {o}.",
    "student of": "{s} was a student of {o}.",
    "influenced by": "{s} was influenced by {o}.",
    "instance of": "{s} is an instance of {o}.",
    "sex or gender": "{s}'s sex or gender is {o}.",
    "succeeded by": "{s} was succeeded by {o}.",
    "succeeds": "{s} succeeded {o}.",
    "conflict": "{s} took part in the {o}.",
    "nominated for": "{s} was nominated for the {o}.",
    "starred actors": "{s} stars {o}.",
    "release year": "{s} was released in {o}.",
    "has genre": "{s}'s genre is {o}.",
    "in language": "{s}'s language is {o}.",
    "has tags": "{s} is tagged with {o}.",
}
#: Patterns that also read well with several values; the others state a list ("X's child: A, B and C.").
_LISTS_WELL = frozenset(p for p, t in TEMPLATES.items() if not t.startswith("{s}'s") or "include" in t) | {
    "notable works",
    "has genre",
    "in language",
}


def speak(value: str) -> str:
    """An ISO date as people write it ("November 1, 1871", "764 BCE"); anything else as it is."""
    return spoken_date(value) or value


#: Participles of states, not events: a graph's "located in" holds now ("X is located in Y"),
#: its "directed by" happened once ("X was directed by Y").
_STATES = frozenset(
    [
        "located",
        "situated",
        "based",
        "headquartered",
        "owned",
        "operated",
        "run",
        "managed",
        "led",
        "governed",
        "contained",
        "affiliated",
        "connected",
        "served",
        "used",
        "held",
    ]
)
#: Verbs with no object: "X died in 1900"; another verb with a time is passive, "X was founded in 1888".
_INTRANSITIVE = frozenset(
    ["died", "ended", "began", "started", "opened", "closed", "arrived", "retired", "emigrated", "happened", "occurred"]
)
#: Words after which a value needs no preposition of time ("released in 1888", "born on …").
_BEFORE_VALUE = frozenset(
    ["in", "on", "at", "by", "of", "for", "to", "from", "with", "as", "the", "a", "an", "is", "was", "are", "were"]
)
_YEAR = re.compile(r"-?\d{3,4}")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


@lru_cache(maxsize=4096)
def pattern(relation: str) -> tuple[str, bool]:
    """The sentence pattern of a relation and whether it reads well with several values."""
    key = property_key(relation)
    if key in TEMPLATES:
        return TEMPLATES[key], key in _LISTS_WELL
    label = property_label(relation).strip()
    if (kinded := _kind_pattern(relation)) is not None:
        return kinded
    tags = label_tags().tags(label)
    first, last = tags[0], tags[-1]
    # a bare "genre" is tagged as a verb: a one-word label is a verb only when visibly inflected
    verb = first[2] in ("VERB", "AUX") and (
        first[1] in ("VBD", "VBN", "VBZ") or (len(tags) > 1 and first[1] in ("VB", "VBP"))
    )
    if label.lower().startswith(("number of ", "count of ")):  # "number of platforms": "X has 6 platforms"
        return "{s} has {o} " + label.split(" ", 2)[2] + ".", False
    if verb and len(tags) >= 2 and (last[2] == "ADP" or tags[1][2] == "ADP"):  # "directed by", "located in the …"
        passive = first[1] == "VBN" or tags[1][0].lower() == "by"
        tense = "is " if first[0].lower() in _STATES else "was "
        return "{s} " + (tense if passive else "") + label + " {o}.", True
    if verb and (len(tags) == 1 or first[1] in ("VBZ", "VBD")):  # "founded", "owns", "has genre", "entered service"
        return "{s} " + label + " {o}.", True
    if last[0].lower() in ("of", "at") and first[2] in ("NOUN", "PROPN") and len(tags) > 1:
        # "mentor of", "rival of", "instructor at": a role the subject has
        return "{s} is " + ("an " if label[:1].lower() in "aeiou" else "a ") + label + " {o}.", True
    if first[2] == "ADP" and len(tags) > 1:  # "in language": the preposition says nothing alone
        label = label.split(" ", 1)[1]
    if last[1] in ("NNS", "NNPS"):  # "starred actors", "notable works"
        return "{s}'s " + label + " include {o}.", True
    return "{s}'s " + label + " is {o}.", False


def learn_relations(relations: Iterable[str]) -> None:
    """Tag, once and remembered, the labels :func:`pattern` will read parts of speech from
    (those with no hand-written pattern): `kg load` does it so a later ask needs no spaCy."""
    label_tags().many(property_label(r).strip() for r in relations if property_key(r) not in TEMPLATES)


def _kind_pattern(relation: str) -> tuple[str, bool] | None:
    """A name that is a kind word and one word of what it is about reads as that event or
    count: ``yearFounded`` → "X was founded in 1887", ``birthDate`` → "X was born on …",
    ``pageCount`` → "X has 320 pages" (not "X's year founded is 1887")."""
    core = [w for forms in core_words(relation) for w in forms[:1]]
    if len(core) != 1:
        return None
    word, kind = core[0].lower(), name_kind(relation)
    if kind == "date":
        said = EVENT_VERBS.get(word) or (f"was {word}" if word.endswith("ed") or word in ("born", "built") else None)
        return ("{s} " + said + " {o}.", False) if said else None
    if kind == "quantity" and word.isalpha() and not word.endswith("ed"):
        return "{s} has {o} " + (word if word.endswith("s") else word + "s") + ".", False
    return None


def state(subject: str, relation: str, values: Sequence[str]) -> str:
    """One sentence stating every value of one relation of one subject (dates spoken; a time after
    a verb gets its preposition, "entered service in 1888"; a number of a plural noun is a count,
    "has 300 employees")."""
    spoken = [speak(v) for v in values]
    text, lists = pattern(relation)
    if len(spoken) > 1 and not lists:
        return f"{subject}'s {property_label(relation).strip()}: {join(spoken)}."
    head = text.split("{o}")[0].split()
    if text.endswith(" include {o}.") and all(_NUMBER.fullmatch(v.strip()) for v in values):
        text = "{s} has {o} " + text.removeprefix("{s}'s ").removesuffix(" include {o}.") + "."
    elif head[1:2] != ["has"] and all(_is_time(v) for v in values):
        on = len(values) == 1 and (day := as_kind(values[0], "date")) is not None and bool(day.key[2])
        if text.startswith("{s} ") and head[-1].lower() not in _BEFORE_VALUE:
            if len(head) == 2 and head[1].lower() not in _INTRANSITIVE:
                text = "{s} was " + head[1] + " {o}."
            text = text.replace(" {o}", (" on" if on else " in") + " {o}")
        elif head[-1] == "on" and not on:  # "born on 1888" → "born in 1888"
            text = text.replace(" on {o}", " in {o}")
    return text.format(s=subject, o=join(spoken))


def _is_time(value: str) -> bool:
    """A date as any graph writes it: ISO, "2 March 1954", "May 1921", a bare year."""
    return date_parts(value) is not None or bool(_YEAR.fullmatch(value.strip())) or value_kinds(value) == {"date"}


def verbalize(triple: Triple) -> str:
    """One sentence stating the triple, with the subject label and the value (dates spoken)."""
    return state(triple.subject_label, triple.relation, [triple.object_value])
