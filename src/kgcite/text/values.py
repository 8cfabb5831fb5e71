"""How a value is written in a sentence: normalised words, spoken dates, numbers.

The judge (docs/concepts.md) compares values as quantities: "November 1, 1871" states ``1871-11-01``
and "November 11, 1871" contradicts it. Everything here works on normalised word lists, so
punctuation and accents never decide.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_ISO = re.compile(r"(-?\d{1,4})-(\d{2})-(\d{2})(?:T.*)?", re.ASCII)
_NUMBER = re.compile(r"\d+", re.ASCII)
_MONTH_WORDS = frozenset(m.lower() for m in MONTHS)


def normalize(text: str) -> str:
    """Lower case, accents folded, punctuation to spaces: "Newark," matches "newark"."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def iso_date(value: str) -> tuple[str, str, int] | None:
    """``1871-11-01`` → ("1871", "November", 1): the year as written, the month's name, the day.
    None for anything else: BCE years and dates without a month or day (see :func:`date_parts`)."""
    parts = date_parts(value)
    if parts is None or parts[0] < 0 or not parts[1] or not parts[2]:
        return None
    return _ISO.fullmatch(value.strip())[1], MONTHS[parts[1] - 1], parts[2]  # type: ignore[index]


def date_parts(value: str) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of an ISO date as Wikidata writes it: a negative year is BCE (there
    is no year 0), a month or day of ``00`` is unknown (``1888-00-00``: the year alone)."""
    m = _ISO.fullmatch(value.strip())
    if not m or not 0 <= int(m[2]) <= 12 or int(m[3]) > 31 or (int(m[3]) and not int(m[2])) or not int(m[1]):
        return None
    return int(m[1]), int(m[2]), int(m[3])


def spoken_date(value: str) -> str | None:
    """An ISO date as people say it: "November 1, 1871", "May 1888", "1888", "January 1, 764 BCE"."""
    parts = date_parts(value)
    if parts is None:
        return None
    year, month, day = parts
    said = f"{-year} BCE" if year < 0 else str(year)
    if not month:
        return said
    return f"{MONTHS[month - 1]} {day}, {said}" if day else f"{MONTHS[month - 1]} {said}"


def join(values: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def value_forms(value: str) -> tuple[str, ...]:
    """Normalised spellings of a value: itself, and for an ISO date the ways it is said
    ("november 1 1871", "1 november 1871", "may 1888", "764 bce")."""
    forms = [normalize(value)]
    parts = date_parts(value)
    if parts:
        forms.append(normalize(spoken_date(value) or ""))
        year, month, day = parts
        said = f"{-year} bce" if year < 0 else str(year)
        if month and day:
            name = MONTHS[month - 1].lower()
            forms += [f"{day} {name} {said}", f"{name} {day:02d} {said}"]
    return tuple(dict.fromkeys(f for f in forms if f))


def states_value(sentence: str, value: str) -> bool:
    """Whether the value occurs in the sentence as whole words (any of its spellings)."""
    padded = f" {normalize(sentence)} "
    return any(f" {form} " in padded for form in value_forms(value))


def is_quantity(value: str) -> bool:
    """A date or a number: values a sentence can state *differently* (and so contradict)."""
    return date_parts(value) is not None or bool(re.fullmatch(r"-?\d[\d.,]*", value.strip()))


def quantities(words: list[str]) -> list[int]:
    """Positions of words that state a quantity: numbers and month names."""
    return [i for i, w in enumerate(words) if _NUMBER.fullmatch(w) or w in _MONTH_WORDS]
