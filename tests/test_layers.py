"""The package's layers hold: no module imports a layer above its own, and packages form no cycle.

Bottom to top: errors, jsonl, kg, text, schema, timing → models → judge → retrieve → generate → evaluate
(metrics → judges → records) →
runs, experiments, bench, train → runtime → server, cli. Imports inside functions count too.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`

SRC = Path(__file__).resolve().parent.parent / "src" / "kgcite"
LAYERS = [
    {"errors", "jsonl", "kg", "text", "schema", "timing", "ports"},
    {"models"},
    {"judge"},
    {"retrieve"},
    {"generate"},
    {"evaluate"},
    {"runs", "experiments", "bench", "train"},
    {"runtime"},
    {"server", "cli"},
]
LEVEL = {name: i for i, names in enumerate(LAYERS) for name in names}


def part(module: str) -> str | None:
    """The top-level part of ``kgcite.X…`` (every ``cli*`` module counts as ``cli``)."""
    bits = module.split(".")
    if bits[0] != "kgcite" or len(bits) < 2:
        return None
    return "cli" if bits[1].startswith("cli") else bits[1]


def imports() -> list[tuple[str, str, str, int]]:
    """(importing part, importing module, imported module, line) for every kgcite import."""
    out = []
    for path in SRC.rglob("*.py"):
        module = ".".join(("kgcite", *path.relative_to(SRC).with_suffix("").parts)).removesuffix(".__init__")
        me = part(module)
        if me is None:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kgcite"):
                out.append((me, module, node.module, node.lineno))
            elif isinstance(node, ast.Import):
                out += [(me, module, a.name, node.lineno) for a in node.names if a.name.startswith("kgcite")]
    return out


def test_every_part_has_a_layer() -> None:
    parts = {p.stem if p.is_file() else p.name for p in SRC.iterdir() if p.suffix == ".py" or p.is_dir()}
    parts = {"cli" if p.startswith("cli") else p for p in parts} - {"__init__", "__pycache__", "data"}
    assert parts <= set(LEVEL), parts - set(LEVEL)


def test_no_upward_import() -> None:
    upward = [
        f"{module}:{line} imports {target}"
        for me, module, target, line in imports()
        if (other := part(target)) and other != me and LEVEL[other] > LEVEL[me]
    ]
    assert not upward, "\n".join(upward)


def test_no_package_cycle() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for me, _, target, _ in imports():
        if (other := part(target)) and other != me:
            graph[me].add(other)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph.get(start, ()))

    cycles = sorted(p for p in graph if reaches(p, p, {p}))
    assert not cycles, cycles


def test_nothing_imports_the_command_line() -> None:
    """The CLI is the top: its modules import the library, never the other way round."""
    back = [f"{module}:{line}" for me, module, target, line in imports() if part(target) == "cli" and me != "cli"]
    assert not back, back


def test_generation_does_not_search_the_graph() -> None:
    """Retrieval decides the evidence (``retrieve.plan``); generation states it. So ``generate``
    imports neither the graph search (``retrieve.paths``) nor the retriever (``retrieve.retriever``),
    and nothing in it reads the store."""
    found = [
        f"{module}:{line} imports {target}"
        for me, module, target, line in imports()
        if me == "generate" and target in ("kgcite.retrieve.paths", "kgcite.retrieve.retriever")
    ]
    assert not found, found
    reads = [
        f"{path.name}: {name}"
        for path in (SRC / "generate").rglob("*.py")
        for name in ("one_hop(", ".store.", "capped_one_hop")
        if name in path.read_text(encoding="utf-8")
    ]
    assert not reads, reads


def test_evaluate_keeps_its_own_order() -> None:
    """Inside ``evaluate``: pure metrics, then the model-backed judges, then the answer-file records
    that run both; a metric never needs a judge or a file."""
    order = {"metrics": 0, "judges": 1, "records": 2}
    wrong = [
        f"{module}:{line} imports {target}"
        for _, module, target, line in imports()
        if module.startswith("kgcite.evaluate.")
        and target.startswith("kgcite.evaluate.")
        and order[target.split(".")[2]] > order[module.split(".")[2]]
    ]
    assert not wrong, wrong


def test_starting_a_command_loads_no_heavy_library() -> None:
    """`kgcite --help` imports the CLI: the schema (pydantic), the models and the plots load later."""
    import json
    import subprocess
    import sys

    code = "import json, sys, kgcite.cli.main; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(res.stdout))
    assert not loaded & {"pydantic", "torch", "onnxruntime", "spacy", "matplotlib", "transformers", "fastapi"}, loaded


def test_errors_are_imported_from_kgcite_errors_only() -> None:
    """One place for each thing: an error class comes from ``kgcite.errors``, not through the
    modules that happen to raise it (28 of 37 ``mypy --strict`` errors were such re-exports)."""
    from kgcite import errors

    names = {n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, Exception)}
    src = Path(errors.__file__).parent
    wrong = [
        f"{path.relative_to(src)}:{node.lineno}: {alias.name} from {node.module}"
        for path in sorted(src.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module != "kgcite.errors"
        for alias in node.names
        if alias.name in names
    ]
    assert not wrong, wrong
