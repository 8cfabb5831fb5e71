"""Does a sentence state what it cites? The check behind grounded mode's guarantee.

:class:`LexicalVerifier` accepts a (sentence, triple) pair when the value occurs in the sentence;
an NLI model (a later issue) plugs in through the same :class:`Verifier` protocol.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from kgcite.kg.model import Triple


@runtime_checkable
class Verifier(Protocol):
    def supported(self, pairs: Sequence[tuple[str, Triple]]) -> list[bool]:
        """For each (sentence without citation marks, cited triple): does the sentence state it?"""
        ...


def normalize(text: str) -> str:
    """Lower case, accents folded, punctuation to spaces: "Newark," matches "newark"."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


#: A name (run of capitalised words) or a number: what a rewrite may only copy, never invent.
_NEW_FACT = re.compile(r"\b[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*|\b\d[\d\-/.,]*\d\b|\b\d\b")
_FUNCTION_WORDS = frozenset(["he", "she", "they", "his", "her", "their", "it", "its", "the", "a", "an", "this", "these", "in", "on", "at", "by", "as", "and", "but"])


def invents(text: str, known: str) -> bool:
    """Whether ``text`` names something (a name or a number) absent from ``known`` (normalised)."""
    for match in _NEW_FACT.findall(text):
        words = normalize(match).split()
        while words and words[0] in _FUNCTION_WORDS:
            words = words[1:]
        if words and f" {' '.join(words)} " not in f" {known} ":
            return True
    return False


class LexicalVerifier:
    """Supported iff the cited value appears in the sentence as whole words (normalised)."""

    def supported(self, pairs: Sequence[tuple[str, Triple]]) -> list[bool]:
        out = []
        for sentence, triple in pairs:
            value = normalize(triple.object_value)
            out.append(bool(value) and f" {value} " in f" {normalize(sentence)} ")
        return out


@runtime_checkable
class QuoteVerifier(Protocol):
    def supported(self, pairs: Sequence[tuple[str, str]]) -> list[bool]:
        """For each (sentence without citation marks, quote text it cites): does the quote support it?"""
        ...
