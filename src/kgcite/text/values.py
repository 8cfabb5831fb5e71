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
_ISO = re.compile(r"(-?\d{1,4})-(\d{2})-(\d{2})(?:T.*)?")
_NUMBER = re.compile(r"\d+")
_MONTH_WORDS = frozenset(m.lower() for m in MONTHS)


def normalize(text: str) -> str:
    """Lower case, accents folded, punctuation to spaces: "Newark," matches "newark"."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def iso_date(value: str) -> tuple[str, str, int] | None:
    """``1871-11-01`` → ("1871", "November", 1): the year as written, the month's name, the day.
    None for anything else, BCE years included (their spoken forms vary too much)."""
    m = _ISO.fullmatch(value.strip())
    if not m or not 1 <= int(m[2]) <= 12 or m[1].startswith("-"):
        return None
    return m[1], MONTHS[int(m[2]) - 1], int(m[3])


def join(values: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def value_forms(value: str) -> tuple[str, ...]:
    """Normalised spellings of a value: itself, and for an ISO date "november 1 1871", "1 november 1871"."""
    forms = [normalize(value)]
    date = iso_date(value)
    if date:
        year, month, day = int(date[0]), date[1].lower(), date[2]
        forms += [f"{month} {day} {year}", f"{day} {month} {year}", f"{month} {day:02d} {year}"]
    return tuple(f for f in forms if f)


def states_value(sentence: str, value: str) -> bool:
    """Whether the value occurs in the sentence as whole words (any of its spellings)."""
    padded = f" {normalize(sentence)} "
    return any(f" {form} " in padded for form in value_forms(value))


def is_quantity(value: str) -> bool:
    """A date or a number: values a sentence can state *differently* (and so contradict)."""
    return iso_date(value) is not None or bool(re.fullmatch(r"-?\d[\d.,]*", value.strip()))


def quantities(words: list[str]) -> list[int]:
    """Positions of words that state a quantity: numbers and month names."""
    return [i for i, w in enumerate(words) if _NUMBER.fullmatch(w) or w in _MONTH_WORDS]
