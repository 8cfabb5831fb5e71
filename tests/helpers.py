"""Helpers the test modules share (test modules import from here, not from each other)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kgcite.kg.virtuoso import PACKAGE as VIRTUOSO_PACKAGE
from kgcite.kg.virtuoso import Virtuoso, binary


def kgcite_cmd() -> list[str]:
    """The installed `kgcite` command, as a user runs it (the module where it is not on PATH)."""
    exe = shutil.which("kgcite")
    return [exe] if exe else [sys.executable, "-m", "kgcite.cli"]


def kgcite(
    *args: str, cwd: Path | None = None, timeout: int = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`kgcite ARGS` in a subprocess with no standard input, as CI runs it; ``env``: variables
    set on top of this process's environment."""
    return subprocess.run(
        [*kgcite_cmd(), *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        env={**os.environ, **env} if env else None,
    )


def resize_disk(folder: Path, size: str) -> None:
    """Make a :func:`small_disk` bigger (freeing space) or smaller."""
    subprocess.run(["mount", "-o", f"remount,size={size}", str(folder)], check=True)


def virtuoso_or_skip(folder: Path) -> Virtuoso:
    """A started private Virtuoso, or a skip naming the package (CI installs it: `.ci/run`)."""
    if binary() is None:
        if os.environ.get("CI"):
            pytest.fail(f"virtuoso-t is not installed; .ci/run installs the Debian package {VIRTUOSO_PACKAGE}")
        pytest.skip(f"virtuoso-t is not installed (apt install {VIRTUOSO_PACKAGE})")
    server = Virtuoso(folder, buffers=5_000)
    server.start()
    return server
