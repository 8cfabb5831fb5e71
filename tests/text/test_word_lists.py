"""One question reading: a word list is defined once, in ``kgcite.text``, and the other modules
derive theirs from it. A module-level list of words that nearly equals another module's (80%
of the larger shared) is the same list defined twice, and drifts."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`

SRC = Path(__file__).resolve().parents[2] / "src" / "kgcite"


def word_lists() -> dict[str, frozenset[str]]:
    """Module-level names bound to a literal list/set/tuple (or frozenset([...])) of 5+ words."""
    out: dict[str, frozenset[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
                continue
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            value = node.value
            if isinstance(value, ast.Call) and value.args:
                value = value.args[0]
            if not isinstance(target, ast.Name) or not isinstance(value, ast.List | ast.Set | ast.Tuple):
                continue
            items = [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(items) >= 5 and len(items) == len(value.elts) and all(w.isalpha() for w in items):
                out[f"{path.relative_to(SRC).as_posix()}:{target.id}"] = frozenset(w.lower() for w in items)
    return out


def twice(lists: dict[str, frozenset[str]]) -> set[tuple[str, str]]:
    """Pairs of lists in different modules sharing 80% of the larger one."""
    found = set()
    for (a, x), (b, y) in itertools.combinations(sorted(lists.items()), 2):
        if a.split(":")[0] != b.split(":")[0] and len(x & y) >= 0.8 * max(len(x), len(y)):
            found.add((a, b))
    return found


def test_no_word_list_is_defined_twice() -> None:
    assert twice(word_lists()) == set()


def test_a_list_written_again_elsewhere_is_caught() -> None:
    lists = word_lists()
    stop = lists["text/lexicon.py:STOP"]
    copy = {**lists, "retrieve/new.py:_MY_STOP": stop - {next(iter(stop))}}
    assert twice(copy) == {("retrieve/new.py:_MY_STOP", "text/lexicon.py:STOP")}
    assert "text/lexicon.py:PRONOUNS" in lists  # the scan sees frozenset([...]) lists
