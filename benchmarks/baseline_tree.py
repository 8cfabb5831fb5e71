"""The source of an earlier commit, for benchmarks that run a baseline in the same run."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def extract(ref: str, into: Path) -> Path | None:
    """``src/`` of commit ``ref`` under ``into``, or None where git or the commit is missing."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "src"], capture_output=True, check=True, timeout=120
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"
