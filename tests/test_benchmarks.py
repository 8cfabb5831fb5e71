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
        (
            "abstention.py",
            ["[NA] on missing", "ask (default)", "one-hop statements only (baseline)", "described by a hop"],
        ),
        ("users_graphs.py", ["users' graphs", "publishing", "(baseline)", "invented citations", "namesake"]),
        ("question_forms.py", ["lookup only (baseline)", "intersection", "superlative", "metaqa", "biokalma"]),
        ("nli_quality.py", ["SICK held-out", "judge: rules + model", "KaLMA Appendix F"]),
        ("ask_latency.py", ["grounded --rewrite (SmolLM2)", "grounded, template (default ask)"]),
        (
            "cold_start.py",
            [
                "now",
                "(baseline)",
                "BioKaLMA (default)",
                "BioKaLMA, names that need NER",
                "MetaQA store, 20,000 triples",
                "now, --path-scorer off",
                "what the path search costs a cold ask",
            ],
        ),
        ("entity_linking.py", ["kgcite linker", "NER spans only (baseline)"]),
        ("faithfulness.py", ["judge-supported", "asked parts answered/[NA]", "this tree, default ask (template)"]),
        (
            "kgqa.py --virtuoso",
            [
                "paths, grounding model",
                "paths, zero-shot",
                "ToG-E top path (baseline)",
                "football graph (development)",
                "paths, grounding model, Virtuoso",
                "requests/q",
                "same order",
            ],
        ),
        ("store_scale.py", ["embedded, on disk", "embedded, in memory", "Virtuoso 7.2 (HTTP)", "requests/ask"]),
        ("few_shot.py", ["zero-shot (baseline)", "grounding, 0 examples", "adapter + mix chosen, 20 examples"]),
        (
            "documents_metaqa.py",
            ["bi-encoder only", "fused (default)", "cosine alone (baseline)", "cosine + asked words (default)"],
        ),
        ("eval_speed.py", ["citations only (baseline)", "citations + alignment (rules, then NLI)"]),
        ("evaluators.py", ["trained (kgcite, 4-way)", "nli (AutoIS-style, binary)"]),
        (
            "evaluator_graphs.py",
            [
                "text: shipped (baseline)",
                "struct: held out, trained without it",
                "struct: shipped, in domain",
                "river trade (written after)",
            ],
        ),
        ("grounding_split.py", ["MiniLM, no training (baseline)", "grounding model (shipped)", "camelCase"]),
        ("path_speed.py", ["p50 ms, cold (baseline)", "p50 ms, prepared", "port", "same answers"]),
        ("kg_lookup.py", ["embedded in memory, pattern API", "SPARQL server (HTTP)"]),
        ("nli_speed.py", ["batch 32", "batch 1 (baseline)"]),
        ("serve_load.py", ["one at a time (baseline)", "5 at once"]),
        ("serve_load.py --faults", ["quiet (baseline)", "1,000 idle connections", "10 header drips", "relations"]),
        ("tog_e_metaqa.py", ["ToG-E W=3 D=3 (default)", "neighbourhood, same #triples"]),
        (
            "metaqa_paraphrases.py",
            ["grounding model (default)", "no one-hop lead (baseline)", "zero-shot", "movie_to_tags"],
        ),
    ],
)
def test_benchmark_quick_mode_runs(script: str, expected: list[str]) -> None:
    name, *extra = script.split()  # Virtuoso's rows need virtuoso-t, which .ci/run installs
    res = subprocess.run(
        [sys.executable, str(BENCHMARKS / name), "--quick", *extra],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert all(e in res.stdout for e in expected), res.stdout


def test_every_benchmark_has_a_quick_run_here() -> None:
    """A new benchmark must join the list above (helpers that other scripts run are exempt)."""
    helpers = {"faithfulness_run.py", "baseline_tree.py"}  # run or imported by the others, in their --quick runs
    listed = {p[0].split()[0] for p in test_benchmark_quick_mode_runs.pytestmark[0].args[1]}  # type: ignore[attr-defined]
    assert {p.name for p in BENCHMARKS.glob("*.py")} - helpers == listed
