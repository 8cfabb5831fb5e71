"""Does a sentence state what it cites? The check behind grounded mode's guarantee.

A :class:`Verifier` reads claims (sentence, cited triple, the text before it); the judge of
:mod:`kgcite.judge.support` is the one kgcite ships, so verification and the alignment metric
never disagree (docs/concepts.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from kgcite.judge.rules import Claim
from kgcite.text.lexicon import ARTICLES, PRONOUNS
from kgcite.text.values import normalize


@runtime_checkable
class Verifier(Protocol):
    def supported(self, claims: Sequence[Claim]) -> list[bool]:
        """For each claim (a sentence without citation marks and a triple it cites): does the sentence state it?"""
        ...


#: A name (run of capitalised words) or a number: what a rewrite may only copy, never invent.
_NEW_FACT = re.compile(r"\b[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*|\b\d[\d\-/.,]*\d\b|\b\d\b")
#: Words a capitalised run may start with that are no name ("He", "The", "In").
_FUNCTION_WORDS = PRONOUNS | ARTICLES | frozenset(["this", "these", "in", "on", "at", "by", "as", "and", "but"])


def invents(text: str, known: str) -> bool:
    """Whether ``text`` names something (a name or a number) absent from ``known`` (normalised)."""
    for match in _NEW_FACT.findall(text):
        words = normalize(match).split()
        while words and words[0] in _FUNCTION_WORDS:
            words = words[1:]
        if words and f" {' '.join(words)} " not in f" {known} ":
            return True
    return False


@runtime_checkable
class QuoteVerifier(Protocol):
    def supported(self, pairs: Sequence[tuple[str, str]]) -> list[bool]:
        """For each (sentence without citation marks, quote text it cites): does the quote support it?"""
        ...
