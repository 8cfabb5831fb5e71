"""What reaches the terminal is text: graph labels and file contents never move the cursor.

A label may hold ANSI escapes ("\\x1b[2J" clears the screen, others rewrite what was printed
before), a carriage return (the rest of the label is drawn over its start), a bidirectional
override (U+202E shows "gpj.exe" as "exe.jpg") or other control characters. The command line's
streams show each as its JSON escape (``\\u001b``), which also keeps ``--json`` output valid.
Tab and newline pass, and so does a carriage return that starts what is written (a progress bar
redrawing its line) or ends a line (``\\r\\n``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

#: C0 controls but tab, newline and carriage return; DEL; the C1 controls (U+0080–U+009F); the
#: bidirectional marks, embeddings, overrides and isolates.
_CONTROL = {
    c: f"\\u{c:04x}"
    for c in [
        *range(0x20),
        0x7F,
        *range(0x80, 0xA0),
        0x061C,
        0x200E,
        0x200F,
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
    ]
    if chr(c) not in "\t\n\r"
}
#: A carriage return inside a text (not leading it, not before a newline): it would draw over the line.
_INNER_CR = re.compile(r"(?<=[^\r])\r(?!\n)")


def printable(text: str) -> str:
    """``text`` with every control character escaped but tab, newline and a carriage return that
    leads the text or ends a line."""
    return _INNER_CR.sub("\\\\u000d", text.translate(_CONTROL))


class PrintableStream:
    """A text stream that escapes control characters on the way out (see :func:`printable`)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def printable_streams() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` routed through :class:`PrintableStream` while inside."""
    saved = sys.stdout, sys.stderr
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, PrintableStream):
            setattr(sys, name, PrintableStream(stream))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
