"""Sentence boundaries in plain text: a full stop after an abbreviation or an initial does not
end a sentence, and neither does one followed by a lower-case word; a line break always does."""

from __future__ import annotations

import re

SENTENCE_END = re.compile(r"[.!?]+[\"'”’)]*(?=\s|$)")
MAY_END = re.compile(r"[.!?]")
_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "jr",
        "sr",
        "prof",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "inc",
        "ltd",
        "co",
        "mt",
        "no",
        "fig",
        "approx",
        "ca",
        "c.",
        "u.s",
        "u.k",
    ]
)


def is_boundary(chunk: str, match: re.Match[str], nxt: str) -> bool:
    """Whether a sentence-end mark really ends a sentence; ``nxt`` is the next non-space character
    after it (possibly in a later chunk). Looks back at most 64 characters: linear in the text."""
    if nxt and nxt.islower():
        return False
    start = match.start()
    if chunk[start] != ".":
        return True
    if start and chunk[start - 1].isupper() and (start == 1 or chunk[start - 2].isspace()):
        return False  # an initial ("J. Smith"): the common case, without the look back
    window = chunk[max(0, start - 64) : start].rstrip()
    word = window.rsplit(None, 1)[-1] if window else ""
    return not (word.lower().rstrip(".") in _ABBREVIATIONS or _INITIALS.fullmatch(word))


_INITIALS = re.compile(r"[A-Z]|([A-Za-z]\.)+[A-Za-z]")
_NEXT_CHAR = re.compile(r"\S")


def next_char(text: str, pos: int) -> str:
    m = _NEXT_CHAR.search(text, pos)
    return m.group() if m else ""


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of plain text (no citation marks); a line break always ends one."""
    spans: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        chunk, base, start = line.group(), line.start(), 0
        for m in SENTENCE_END.finditer(chunk):
            if is_boundary(chunk, m, next_char(chunk, m.end())):
                spans.append((base + start, base + m.end()))
                start = m.end()
        spans.append((base + start, base + len(chunk)))
    out = []
    for a, b in spans:  # trim the spaces between sentences; drop empty rests
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out
