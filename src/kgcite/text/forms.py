"""What shape of answer a question wants, and values compared as what they are.

A question only looks a fact up ("Where was X born?") or wants something *derived* from facts:
yes or no, a count, which of several is older or larger, the largest of a set, what two things
have in common. The form is read from the question's words alone — its first word, "how many",
a comparative or superlative adjective, "both" — so it holds on any graph; which relation the
comparison is over is the question reader's and the graph's business (:mod:`kgcite.retrieve.derive`).

Values are typed here: dates (ISO, BCE, spoken, a bare year) and numbers (with a unit after
them) become sortable quantities, so "1872-04-15" is earlier than "September 1, 1885" and
"1,200 m" is longer than "950 m".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kgcite.text.lexicon import participle
from kgcite.text.values import MONTHS, normalize

FormKind = Literal["lookup", "yesno", "count", "comparison", "superlative", "intersection"]
ValueKind = Literal["date", "number"]


@dataclass(frozen=True, slots=True)
class Order:
    """An ordering word: which kind of value it compares and whether the greatest wins.
    ``dimension``: words a relation about that measure is named with ("longer" → length)."""

    word: str
    kind: ValueKind
    greatest: bool
    dimension: tuple[str, ...] = ()


def _orders() -> dict[str, Order]:
    table: list[tuple[tuple[str, ...], ValueKind, bool, tuple[str, ...]]] = [
        (("older", "oldest", "earlier", "earliest", "first", "before"), "date", False, ()),
        (("younger", "youngest", "newer", "newest", "later", "latest", "last", "after", "recent"), "date", True, ()),
        (("larger", "largest", "bigger", "biggest"), "number", True, ("area", "size", "population", "capacity")),
        (("smaller", "smallest"), "number", False, ("area", "size", "population", "capacity")),
        (("greater", "greatest", "more", "most"), "number", True, ()),
        (("fewer", "fewest", "less", "least"), "number", False, ()),
        (("higher", "highest", "taller", "tallest"), "number", True, ("height", "elevation", "altitude")),
        (("lower", "lowest", "shorter", "shortest"), "number", False, ("height", "elevation", "length")),
        (("longer", "longest"), "number", True, ("length", "long", "duration")),
        (("deeper", "deepest"), "number", True, ("depth", "deep")),
        (("shallower", "shallowest"), "number", False, ("depth", "deep")),
        (("heavier", "heaviest"), "number", True, ("mass", "weight")),
        (("lighter", "lightest"), "number", False, ("mass", "weight")),
        (("wider", "widest"), "number", True, ("width", "wide")),
        (("narrower", "narrowest"), "number", False, ("width", "wide")),
        (("populous",), "number", True, ("population",)),
    ]
    return {w: Order(w, kind, greatest, dim) for words, kind, greatest, dim in table for w in words}


#: Every ordering word kgcite reads, comparative and superlative.
ORDERS = _orders()
_SUPERLATIVE = re.compile(r"(?:est|^most .*|^least .*|^most|^least|^first|^last)$")
_AUX = frozenset(["is", "was", "are", "were", "did", "does", "do", "has", "have", "had", "can", "could"])
_COMMON = re.compile(r"\b(?:both|in common|as well as|and also|each of)\b")
_HOW_MANY = re.compile(r"\bhow many\s+((?:[a-z]+\s+){0,2}?[a-z]+?s)\b|\bhow many\b|\bnumber of\s+([a-z]+s)\b")
_DETERMINERS = frozenset(["the", "a", "an", "his", "her", "its", "their", "my", "our", "your"])


@dataclass(frozen=True, slots=True)
class Form:
    """The answer's shape. ``order``: the comparative or superlative read ("older", "largest");
    ``noun``: what a count counts ("stations"); ``polar``: answered yes or no ("Is X older than
    Y?")."""

    kind: FormKind = "lookup"
    order: Order | None = None
    noun: str | None = None
    polar: bool = False


def read_form(question: str, names: Sequence[str] = ()) -> Form:
    """The form of one question, from its words alone; ``names`` (the entities' mentions) are
    not read ("[Last Run]", "[Look Both Ways]" are titles, not a superlative or "both")."""
    text = f" {normalize(question)} "
    for name in sorted({normalize(n) for n in names if normalize(n)}, key=len, reverse=True):
        text = text.replace(f" {name} ", " X ")
    words = text.split()
    if not words:
        return Form()
    text = " ".join(words)
    polar = words[0] in _AUX and not (len(words) > 1 and words[1] == "you")  # "Can you give …" asks, not yes/no
    order = find_order(words)
    many = _HOW_MANY.search(text)
    if many and not polar:
        noun = many.group(1) or many.group(2)
        return Form("count", noun=noun.split()[-1] if noun else None)
    if order is not None:
        superlative = bool(_SUPERLATIVE.search(order.word))
        return Form("superlative" if superlative else "comparison", order, polar=polar)
    if _COMMON.search(text) and not polar:
        return Form("intersection")
    if polar:
        return Form("yesno")
    return Form("lookup")


def find_order(words: list[str]) -> Order | None:
    """The first ordering word that compares: "more"/"most" only before an adjective or a plural
    ("more platforms", "most populous"), "first"/"last" and "before"/"after" only as comparison
    ("born first", "opened before"), never as "first name"."""
    for i, w in enumerate(words):
        order = ORDERS.get(w)
        if order is None:
            continue
        after = words[i + 1] if i + 1 < len(words) else ""
        if w in ("more", "most", "less", "least") and after in ORDERS:
            base = ORDERS[after] if w in ("more", "most") else _flip(ORDERS[after])
            return Order(f"{w} {after}", base.kind, base.greatest, base.dimension)
        if w in ("more", "most", "less", "least", "fewer", "fewest") and after and after.endswith("s"):
            return Order(f"{w} {after}", "number", order.greatest, (after,))  # "more platforms": their number
        if w in ("more", "most", "less", "least"):
            continue  # "more about", "at least": no comparison
        before = words[i - 1] if i else ""
        if w in ("first", "last") and (before in _DETERMINERS or after in ("name", "names")):
            continue  # "the first person", "her first name": an ordinal, not a comparison
        if w in ("first", "last") and participle(after):
            continue  # "the theatre where X was first performed": when it began, not a comparison
        if w in ("before", "after") and words[0] not in _AUX:
            continue  # "Who did X marry after Y?" asks a fact; "Did X open before Y?" compares
        return order
    return None


def _flip(order: Order) -> Order:
    return Order(order.word, order.kind, not order.greatest, order.dimension)


# -- typed values --------------------------------------------------------------------------------

# ASCII digits only: a graph's value may hold other scripts' digits (``April 12 ፩፪፫``), which
# ``int`` cannot read, and a number of thousands of digits; such a value is no date or number
_ISO = re.compile(r"(-?)(\d{1,4})-(\d{1,2})-(\d{1,2})(?:T.*)?", re.ASCII)
_YEAR = re.compile(r"(\d{1,4})\s*(bce|bc|ce|ad)?", re.ASCII)
_MONTH = {m.lower(): i + 1 for i, m in enumerate(MONTHS)}
_NUMBER = re.compile(r"(-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d{1,4})?)(?:\s*([a-z%°]+[a-z0-9²³]*))?", re.ASCII)


@dataclass(frozen=True, slots=True, order=True)
class Quantity:
    """A value as what it is: ``key`` sorts dates by (year, month, day), BCE years negative;
    numbers by their amount. ``unit`` is the word written after a number, if any."""

    kind: ValueKind
    key: tuple[float, ...]
    unit: str = ""


def _digits(word: str) -> bool:
    """A word of ASCII digits (``int`` reads it; "፩፪፫" and "²" are digits ``int`` cannot read)."""
    return word.isascii() and word.isdigit()


def quantity(value: str) -> Quantity | None:
    """``"1872-04-15"``, ``"1874-00-00"`` (a year), ``"-0500-01-01"``, ``"April 15, 1872"``, ``"15 April 1872"``,
    ``"1872"``, ``"500 BC"`` → a date; ``"6"``, ``"1,200 m"``, ``"3.5 km"`` → a number. A bare
    integer of one to four digits is read as a year only where ``year_ok``; see :func:`as_kind`."""
    text = value.strip()
    if (m := _ISO.fullmatch(text)) and 0 <= int(m[3]) <= 12 and (int(m[3]) or not int(m[4])):  # 00: unknown
        year = -int(m[2]) if m[1] else int(m[2])
        return Quantity("date", (float(year), float(m[3]), float(m[4])))
    words = normalize(text).split()
    months = [i for i, w in enumerate(words) if w in _MONTH]
    if months and len(words) <= 4:
        year_words = [w for w in words if _digits(w) and 3 <= len(w) <= 6]
        days = [int(w) for w in words if _digits(w) and len(w) <= 2]
        if year_words:
            year = int(year_words[0]) * (-1 if {"bc", "bce"} & set(words) else 1)
            return Quantity("date", (float(year), float(_MONTH[words[months[0]]]), float(days[0] if days else 0)))
    if m := _YEAR.fullmatch(normalize(text)):
        if m[2] in ("bc", "bce"):
            return Quantity("date", (-float(m[1]), 0.0, 0.0))
        if m[2] in ("ce", "ad"):
            return Quantity("date", (float(m[1]), 0.0, 0.0))
    if m := _NUMBER.fullmatch(text.lower()):
        return Quantity("number", (float(m[1].replace(",", "")),), m[2] or "")
    return None


#: Units one measure is written in, as a multiple of the first: compared after scaling.
_SCALES: dict[str, tuple[str, float]] = {
    "mm": ("m", 0.001),
    "cm": ("m", 0.01),
    "m": ("m", 1.0),
    "metres": ("m", 1.0),
    "meters": ("m", 1.0),
    "km": ("m", 1000.0),
    "g": ("kg", 0.001),
    "kg": ("kg", 1.0),
    "t": ("kg", 1000.0),
    "tonnes": ("kg", 1000.0),
    "km2": ("km2", 1.0),
    "km²": ("km2", 1.0),
    "ha": ("km2", 0.01),
}


def comparable(quantities: list[Quantity]) -> bool:
    """Quantities of one measure: all dates, or numbers whose units scale to one ("3 km" and
    "950 m" compare; "3 km" and "40 kg" do not)."""
    kinds = {q.kind for q in quantities}
    units = {_SCALES.get(q.unit, (q.unit, 1.0))[0] for q in quantities if q.kind == "number"}
    return len(kinds) <= 1 and len(units) <= 1


def sort_key(q: Quantity) -> tuple[float, ...]:
    """What orders a quantity: its date tuple, or its amount in its measure's base unit."""
    return q.key if q.kind == "date" else (q.key[0] * _SCALES.get(q.unit, (q.unit, 1.0))[1],)


def as_kind(value: str, kind: ValueKind) -> Quantity | None:
    """The value read as ``kind``: a bare year ("1868") is a date where dates are compared and a
    number where numbers are; anything else must already be of that kind."""
    q = quantity(value)
    if q is None:
        return None
    if q.kind == kind:
        return q
    if kind == "date" and q.kind == "number" and not q.unit and q.key[0].is_integer() and 0 < q.key[0] < 10000:
        return Quantity("date", (q.key[0], 0.0, 0.0))
    return None


def same_value(a: str, b: str) -> bool:
    """Two writings of one value: equal words, equal numbers, or a date and its year ("1872" is
    "1872-04-15" when a question asks "Did it open in 1872?")."""
    if normalize(a) == normalize(b):
        return True
    qa, qb = quantity(a), quantity(b)
    if qa is None or qb is None:
        return False
    if qa.kind == qb.kind == "number":
        return qa.key == qb.key
    da, db = as_kind(a, "date"), as_kind(b, "date")
    if da is None or db is None:
        return False
    coarse = [x for x in (da.key, db.key) if x[1] == 0]  # a bare year matches any day of it
    if coarse:
        return da.key[0] == db.key[0]
    return da.key == db.key
