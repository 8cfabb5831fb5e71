"""Append-only JSONL files that survive a kill: read the complete lines, cut a torn last one."""

from __future__ import annotations

import json
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
