"""HTML to readable text, one block per line: what the Paragraph Splitter cuts on.

Block elements (``<p>``, headings, list items, table rows, ``<br>``...) end a line, so a
``<p>`` is always its own candidate passage; scripts, styles and page furniture (``nav``,
``footer``, forms) are dropped. Standard library only: no parser dependency to pin.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

BLOCK = frozenset(
    [
        "p",
        "div",
        "br",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "tr",
        "table",
        "thead",
        "tbody",
        "section",
        "article",
        "main",
        "header",
        "blockquote",
        "pre",
        "figcaption",
        "caption",
        "hr",
        "td",
        "th",
        "address",
        "details",
        "summary",
    ]
)
SKIP = frozenset(
    ["script", "style", "noscript", "template", "svg", "nav", "footer", "form", "button", "select", "iframe", "head"]
)
_SPACE = re.compile(r"\s+")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.title_parts: list[str] = []
        self._buf: list[str] = []
        self._skip = 0
        self._in_title = False

    def _flush(self) -> None:
        text = _SPACE.sub(" ", "".join(self._buf)).strip()
        if text:
            self.blocks.append(text)
        self._buf = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in SKIP:
            self._skip += 1
        elif tag in BLOCK and not self._skip:
            self._flush()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCK and not self._skip:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in BLOCK and not self._skip:
            self._flush()

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
        elif not self._skip:
            self._buf.append(data)


def html_to_text(markup: str) -> tuple[str, str]:
    """``(title, text)``; text has one block per line, whitespace inside a block collapsed."""
    parser = _Text()
    parser.feed(markup)
    parser.close()
    parser._flush()
    return _SPACE.sub(" ", html.unescape("".join(parser.title_parts))).strip(), "\n".join(parser.blocks)


def looks_like_html(text: str) -> bool:
    head = text[:2000].lower()
    return "<html" in head or "<!doctype html" in head or "<p>" in head or "<body" in head
