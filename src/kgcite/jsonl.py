"""Append-only JSONL files that survive a kill: read the complete lines, cut a torn last one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def read_trimmed(path: Path) -> list[dict[str, Any]]:
    """The objects of every complete line; a torn or unreadable tail is cut off the file so
    that the next append starts on a fresh line."""
    if not path.exists():
        return []
    rows: list[dict[str, Any]] = []
    good_end = 0
    with path.open("rb") as fh:
        for raw in fh:
            if not raw.endswith(b"\n"):
                break
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError:
                break
            good_end += len(raw)
            if isinstance(obj, dict):
                rows.append(obj)
    if good_end < path.stat().st_size:
        with path.open("r+b") as fh:
            fh.truncate(good_end)
    return rows


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` of every non-blank line of an input file; a line that is not JSON
    is an :class:`~kgcite.kg.loaders.InputError` naming the file and line. Input files are never modified."""
    from kgcite.kg.loaders import InputError

    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(path, lineno, None, f"not JSON: {exc.msg}") from exc
            if not isinstance(obj, dict):
                raise InputError(path, lineno, None, "expected a JSON object")
            yield lineno, obj
