"""Does a sentence state a fact? One judge for alignment, ``[NA]`` scoring and verification.

DESIGN.md §4: a (sentence, triple) pair is supported iff the value occurs in the sentence
(case-insensitive, whole words; ISO dates also in their spoken forms) or the NLI model says the
sentence entails ``property: value``. The lexical test is free, so only the rest goes to NLI,
all pairs of a call in one batch.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kgcite.generate.verify import normalize
from kgcite.kg.model import Triple, TripleKey
from kgcite.models.nli import NLIModel

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")
_ISO = re.compile(r"(-?\d{1,4})-(\d{2})-(\d{2})(?:T.*)?")


def iso_date(value: str) -> tuple[str, str, int] | None:
    """``1871-11-01`` → ("1871", "November", 1): the year as written, the month's name, the day.
    None for anything else, BCE years included (their spoken forms vary too much)."""
    m = _ISO.fullmatch(value.strip())
    if not m or not 1 <= int(m[2]) <= 12 or m[1].startswith("-"):
        return None
    return m[1], MONTHS[int(m[2]) - 1], int(m[3])


def value_forms(value: str) -> tuple[str, ...]:
    """Normalised spellings of a value: itself, and for an ISO date "november 1 1871", "1 november 1871"."""
    forms = [normalize(value)]
    date = iso_date(value)
    if date:
        year, month, day = int(date[0]), date[1].lower(), date[2]
        forms += [f"{month} {day} {year}", f"{day} {month} {year}", f"{month} {day:02d} {year}"]
    return tuple(f for f in forms if f)


def states_value(sentence: str, value: str) -> bool:
    padded = f" {normalize(sentence)} "
    return any(f" {form} " in padded for form in value_forms(value))


def property_label(relation: str) -> str:
    """``directed_by`` → ``directed by``: relation ids of TSV graphs read as property names."""
    return relation.replace("_", " ")


def hypothesis(relation: str, value: str) -> str:
    """What a citation triple claims, as NLI reads it (DESIGN.md §4): ``property: value``."""
    return f"{property_label(relation)}: {value}"


class SupportJudge:
    """Lexical test first, NLI for the rest; ``nli=None`` is the lexical judge alone, and
    ``lexical=False`` sends every pair to NLI (what the paper did with TRUE)."""

    def __init__(self, nli: NLIModel | None = None, *, lexical: bool = True) -> None:
        if nli is None and not lexical:
            raise ValueError("a judge needs the lexical test, an NLI model, or both")
        self.nli, self.lexical = nli, lexical

    @property
    def name(self) -> str:
        if self.nli is None:
            return "value-only"
        return f"value-or-nli:{self.nli.name}" if self.lexical else f"nli:{self.nli.name}"

    def judge(self, pairs: Sequence[tuple[str, TripleKey]]) -> list[bool]:
        """For each (sentence, (entity, property, value)): does the sentence state it?"""
        out = [self.lexical and states_value(s, k[2]) for s, k in pairs]
        if self.nli is None:
            return out
        todo = [i for i, ok in enumerate(out) if not ok and pairs[i][0].strip()]
        if todo:
            results = self.nli.predict([pairs[i][0] for i in todo], [hypothesis(pairs[i][1][1], pairs[i][1][2]) for i in todo])
            for i, r in zip(todo, results, strict=True):
                out[i] = r.label == "entailment"
        return out


class NLIVerifier:
    """The grounded pipeline's :class:`~kgcite.generate.verify.Verifier` backed by the judge."""

    def __init__(self, judge: SupportJudge) -> None:
        self.judge = judge

    def supported(self, pairs: Sequence[tuple[str, Triple]]) -> list[bool]:
        return self.judge.judge([(s, t.key) for s, t in pairs])
