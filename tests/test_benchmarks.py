"""Benchmarks rot when nothing runs them: each one here runs in its --quick mode."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("nli_quality.py", ["SICK held-out", "judge: rules + model", "KaLMA Appendix F"]),
        ("ask_latency.py", ["grounded --rewrite (SmolLM2)", "grounded, template (default ask)"]),
        ("entity_linking.py", ["kgcite linker", "NER spans only (baseline)"]),
        ("faithfulness.py", ["judge-supported", "asked parts answered/[NA]", "this tree, default ask (template)"]),
        ("kgqa.py", ["paths, zero-shot", "ToG-E top path (baseline)", "Hits@1", "port graph (held out)"]),
    ],
)
def test_benchmark_quick_mode_runs(script: str, expected: list[str]) -> None:
    res = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--quick"], capture_output=True, text=True, timeout=600, check=False
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert all(e in res.stdout for e in expected), res.stdout
