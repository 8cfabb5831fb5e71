"""What reaches the terminal is text: graph labels and file contents never move the cursor.

A label may hold ANSI escapes ("\\x1b[2J" clears the screen, others rewrite what was printed
before) or other control characters. The command line's streams show each as its JSON escape
(``\\u001b``), which also keeps ``--json`` output valid; tab, newline and carriage return (progress
bars) pass.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

#: C0 controls but tab, newline and carriage return; DEL; the C1 controls (U+0080–U+009F).
_CONTROL = {c: f"\\u{c:04x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if chr(c) not in "\t\n\r"}


def printable(text: str) -> str:
    """``text`` with every control character but tab, newline and carriage return escaped."""
    return text.translate(_CONTROL)


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
