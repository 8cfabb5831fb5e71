"""Regular English inflections of one word: plural (also a verb's third person), past, gerund."""

from __future__ import annotations

_VOWELS = set("aeiou")


def _short_cvc(w: str) -> bool:
    """One-syllable consonant–vowel–consonant words double their last letter (star → starred)."""
    return 3 <= len(w) <= 4 and w[-1] not in _VOWELS | set("wxy") and w[-2] in _VOWELS and w[-3] not in _VOWELS


def plural(w: str) -> str:
    """Also the third person singular of a verb."""
    if w.endswith(("s", "x", "z", "ch", "sh")):
        return w + "es"
    if w.endswith("y") and len(w) > 1 and w[-2] not in _VOWELS:
        return w[:-1] + "ies"
    return w + "s"


def past(w: str) -> str:
    if w.endswith("e"):
        return w + "d"
    if w.endswith("y") and len(w) > 1 and w[-2] not in _VOWELS:
        return w[:-1] + "ied"
    return w + w[-1] + "ed" if _short_cvc(w) else w + "ed"


def gerund(w: str) -> str:
    if w.endswith("ie"):
        return w[:-2] + "ying"
    if w.endswith("e") and not w.endswith(("ee", "ye", "oe")):
        return w[:-1] + "ing"
    return w + w[-1] + "ing" if _short_cvc(w) else w + "ing"
