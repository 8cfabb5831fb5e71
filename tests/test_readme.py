"""The README's tour, run as a user would: each command block prints what the README shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
TOUR = README[README.index("## A ten-minute tour") : README.index("## Documentation")]
BLOCK = re.compile(r"```(bash|text|python)\n(.*?)```", re.DOTALL)
SLOW = ("kgcite serve",)  # a server that runs until stopped: tests/server covers it


def tour_steps() -> list[tuple[str, str]]:
    """(commands, expected output) for each bash block of the tour that a text block follows."""
    blocks = [(m.group(1), m.group(2)) for m in BLOCK.finditer(TOUR)]
    steps = []
    for i, (kind, body) in enumerate(blocks):
        if kind == "bash" and not any(s in body for s in SLOW):
            expected = blocks[i + 1][1] if i + 1 < len(blocks) and blocks[i + 1][0] == "text" else ""
            steps.append((body, expected))
    return steps


def test_the_tour_has_its_steps() -> None:
    assert len(tour_steps()) >= 4 and "```python" in TOUR


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh folder in which the README's relative paths resolve, as in a clone."""
    d = tmp_path_factory.mktemp("tour")
    (d / "benchmarks").symlink_to(ROOT / "benchmarks")
    return d


def _run(cmd: list[str], cwd: Path) -> str:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, env=env, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def _steady(lines: str) -> list[str]:
    """The lines a rerun prints the same: timings and speeds left out, and a table's rule cut to
    its first column (a column's width follows its widest value, a timing's too)."""
    kept = [ln.rstrip() for ln in lines.splitlines() if ln.strip() and not re.search(r"\bms\b|_ms|samples/s", ln)]
    return [ln.split("  ")[0] if re.fullmatch(r"-+(  -+)*", ln) else ln for ln in kept]


@pytest.mark.parametrize("step", range(len(tour_steps())))
def test_tour_step_prints_what_the_readme_says(step: int, workdir: Path) -> None:
    commands, expected = tour_steps()[step]
    out = _steady(_run(["bash", "-e", "-c", commands], workdir))
    want = _steady(expected)
    it = iter(out)
    missing = [line for line in want if not any(line == got for got in it)]  # in order, other lines allowed
    assert not missing, f"not printed (in order): {missing}\n--- printed:\n" + "\n".join(out)


def test_python_example_runs(workdir: Path) -> None:
    code = next(m.group(2) for m in BLOCK.finditer(TOUR) if m.group(1) == "python")
    out = _run([sys.executable, "-c", code], workdir)
    assert out.startswith("Quenby Bakery's founder is Marla Quenby [X2, founder: Marla Quenby].")
