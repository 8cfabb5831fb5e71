"""Evaluation reports on disk (folders with a ``report.md``), found and read without leaving the root."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_NAME = re.compile(r"^[A-Za-z0-9_.\-]+(/[A-Za-z0-9_.\-]+)*$")
_IMAGE = re.compile(r"^[A-Za-z0-9_.\-]+\.png$")


class ReportNotFound(LookupError):
    pass


class ReportFolder:
    """Every folder under ``root`` (``root`` itself included, three levels down) that holds a ``report.md``."""

    def __init__(self, root: str | Path, *, depth: int = 3) -> None:
        self.root, self.depth = Path(root).resolve(), depth

    def names(self) -> list[str]:
        found = []
        for report in sorted(self.root.rglob("report.md")):
            rel = report.parent.relative_to(self.root)
            listed = len(rel.parts) <= self.depth and (not rel.parts or _NAME.match(rel.as_posix()))
            if listed and self._inside(report) and report.parent.resolve().is_relative_to(self.root):
                found.append(rel.as_posix() if rel.parts else ".")  # only what read() serves
        return found

    def _folder(self, name: str) -> Path:
        if name != "." and (not _NAME.match(name) or ".." in name.split("/")):
            raise ReportNotFound(name)
        folder = (self.root / name).resolve()
        if not folder.is_relative_to(self.root) or not (folder / "report.md").is_file():
            raise ReportNotFound(name)
        return folder

    def _inside(self, path: Path) -> bool:
        """A file that is where it seems: no symlink out of the reports folder."""
        return path.is_file() and path.resolve().is_relative_to(self.root)

    def read(self, name: str) -> dict[str, Any]:
        """The report's markdown, its metrics (when there is a ``metrics.json``) and its PNG plots."""
        folder = self._folder(name)
        if not self._inside(folder / "report.md"):
            raise ReportNotFound(name)
        metrics_file = folder / "metrics.json"
        if not self._inside(metrics_file):
            metrics_file = folder / "metrics.json.missing"  # a link out of the folder is not read
        try:
            metrics = json.loads(metrics_file.read_text(encoding="utf-8")) if metrics_file.is_file() else None
        except json.JSONDecodeError:
            metrics = None
        return {
            "name": name,
            "markdown": (folder / "report.md").read_text(encoding="utf-8", errors="replace"),
            "metrics": metrics,
            "images": sorted(p.name for p in folder.glob("*.png") if _IMAGE.match(p.name) and self._inside(p)),
        }

    def image(self, name: str, file: str) -> Path:
        folder = self._folder(name)
        path = folder / file
        if not _IMAGE.match(file) or not self._inside(path):
            raise ReportNotFound(f"{name}/{file}")
        return path
