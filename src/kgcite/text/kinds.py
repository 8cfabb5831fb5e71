"""The kind of answer a question wants, and which relations and values can give it.

"When was Marsh & Cole founded?" wants a date: ``yearFounded 1887`` answers it and ``founded by
Edwin Marsh`` does not, though "founded" names both. A relation's name often says its kind with
one word ("*year* founded", "birth *date*", "page *count*", "*city* of HQ"); the rest of the
name ("founded", "birth", "page", "HQ") is what the question must say, in its own words
("born" for birth, "based" for HQ). Values say their kind too: a date, a number, or neither.
The words (kind words, word forms) are in :mod:`kgcite.text.lexicon`, with the rest of the language data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from kgcite.kg.keys import property_key, relation_words
from kgcite.text.forms import as_kind, quantity
from kgcite.text.lexicon import (
    KIND_MARKS,
    KIND_WORDS,
    MEASURE_NOUNS,
    STOP,
    WORD_FORMS,
    AnswerKind,
    occurrences,
    stem,
)
from kgcite.text.values import normalize

#: The wh-words and openings that want a kind: "how many pages" a quantity, "when" a date.
_WANTS = (
    (
        re.compile(r"^\s*(?:when|what (?:year|date|day|time)|which (?:year|date|day)|in what year|in which year)\b"),
        "date",
    ),
    (re.compile(r"\b(?:how (?:many|much|long|tall|high|big|large|old|deep|wide|heavy))\b"), "quantity"),
    # "what is the population of X", "what's X's elevation": a measure asked by its noun
    (
        re.compile(
            r"^\s*(?:what|which)\s+(?:s|is|was|are|were)\s+(?:the\s+|(?:\S+\s+){1,6}?s\s+)?"
            rf"(?:{'|'.join(sorted(MEASURE_NOUNS))})\b"
        ),
        "quantity",
    ),
    (re.compile(r"^\s*(?:where|in (?:what|which) (?:city|town|country|place|region))\b"), "place"),
    (re.compile(r"^\s*(?:who|whom)\b"), "agent"),
)


def wanted_kind(text: str) -> AnswerKind:
    """The kind of value a part of a question asks for, from its opening words alone."""
    said = " ".join(normalize(text).split())
    for pattern, kind in _WANTS:
        if pattern.search(said):
            return kind  # type: ignore[return-value]
    return "any"


@cache
def name_kind(relation: str) -> AnswerKind:
    """The kind a relation's name says its values are ("year founded": a date), or ``any``."""
    words = set(normalize(relation_words(relation)).split())
    for kind, marks in KIND_WORDS.items():
        if words & marks:
            return kind
    return "any"


def may_answer(relation: str, wanted: AnswerKind) -> bool:
    """Whether a relation's name allows the kind asked: a name saying its values are dates or
    numbers never answers a "who" or a "where" ("Who founded X?" is not its ``year founded``)."""
    return not (wanted in ("agent", "place") and name_kind(relation) in ("date", "quantity"))


@cache
def says_the_same(kinded: str, other: str) -> bool:
    """Whether ``other`` (a name that says no kind: ``born in``) asks what ``kinded`` does
    (``birthPlace``): each of its words is a word of the other's, or a form people ask it with
    ("born" for birth). A graph may hold both; "Where was X born?" asks either. A name for the
    one who did it (``founded by``) never asks the kind (``year founded``)."""
    words = [w for w in normalize(relation_words(other)).split() if w not in STOP and len(w) > 1]
    if not words or name_kind(other) != "any" or property_key(other).endswith(" by"):
        return False
    core = {stem(f) for forms in core_words(kinded) for f in forms}
    return bool(core) and all(stem(w) in core for w in words)


@cache
def core_words(relation: str) -> tuple[tuple[str, ...], ...]:
    """What a question must say to ask this relation when its kind is asked: each word of the
    name but the kind words, with the words people use for it ("birth date" → (("birth",
    "born"),)). Empty when the name is only kind words."""
    return tuple(
        (w, *WORD_FORMS.get(w, ()))
        for w in normalize(relation_words(relation)).split()
        if w not in KIND_MARKS and w not in STOP and len(w) > 1
    )


def kind_match(words: list[str], relation: str, wanted: AnswerKind) -> frozenset[int]:
    """Where a part asks ``relation`` by its kind: the part wants the kind the name says
    ("when" and "*year* founded") and says every other word of the name in one of its listed
    forms ("founded", "started"), word for word: "the *founder* of X" asks no founding year.
    The positions of those words, or none."""
    core = core_words(relation)
    if wanted == "any" or name_kind(relation) != wanted or not core:
        return frozenset()
    out: set[int] = set()
    for forms in core:
        hits = [(i, len(f)) for form in forms if (f := form.split()) for i in occurrences(words, f)]
        if not hits:
            return frozenset()
        out |= {i + k for i, n in hits for k in range(n)}
    # the kind word said too ("In what *year* was X built?" for ``built_yr``): the name is said whole
    marks = [w for w in normalize(relation_words(relation)).split() if w in KIND_MARKS]
    out |= {i for w in marks for i in occurrences(words, [w])}
    return frozenset(out)


#: A value written as a date (year-month-day), whether or not the calendar has it.
_DATE_SHAPED = re.compile(r"\s*-?\d{1,4}-\d{1,2}-\d{1,2}\b", re.ASCII)


def value_kinds(value: str) -> frozenset[AnswerKind]:
    """What a value can answer: a date, a number (a bare year like "1887" is both), or another
    value (a place or anything else: strings do not tell them apart)."""
    q = quantity(value)
    if q is None:  # "1999-13-45": written as a date, though no calendar has it; still the date the graph gives
        return frozenset(["date"]) if _DATE_SHAPED.match(value) else frozenset(["any"])
    if q.kind == "date":
        return frozenset(["date"])
    return frozenset(["date", "quantity"]) if as_kind(value, "date") is not None else frozenset(["quantity"])


def fits(kind: AnswerKind, values: Iterable[str]) -> bool:
    """Whether values can answer a question that wants ``kind``: a "when" needs a date, a "how
    many/much" a number, a "where" or a "who" anything but a date or a number (a founding year
    does not say who founded)."""
    if kind == "any":
        return True
    if kind in ("place", "agent"):
        return any(value_kinds(v) == {"any"} for v in values)
    return any(kind in value_kinds(v) for v in values)
