"""An answer graded as its user would grade it, against questions written with their answers.

The question sets of ``tests/data`` (graphs written by people who had seen neither kgcite's code
nor its models) give each question its answers or ``"expect": "na"`` and a kind. An answer is
right when every citation is a triple of the graph, it states what was asked (a derived answer
predicts it; a conjunctive one predicts all of it and nothing more), and ``[NA]`` stands on every
missing fact and only there: a missing fact is right as ``[NA]`` with nothing cited, or with only
the hop walked to it cited before the ``[NA]`` that names what is missing. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any

Triple = tuple[str, str, str]
#: Kinds whose answer is derived from facts (a number, yes or no, a winner): graded on ``predicted``.
DERIVED = ("yes-no", "count", "comparison")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).strip()


def graded(question: Mapping[str, Any], record: Mapping[str, Any], triples: AbstractSet[Triple]) -> str | None:
    """Why ``record`` (a `kgcite run` line) does not answer ``question``, or None when it does."""
    answer, cited = str(record.get("answer", "")), [tuple(c) for c in record.get("citations", [])]
    if bad := [c for c in cited if c not in triples]:
        return f"cites what the graph does not hold: {bad}"
    predicted = [_norm(str(p)) for p in record.get("predicted") or []]
    kind = str(question.get("kind", ""))
    if question.get("expect") == "na":
        if kind == "common" and not predicted and "nothing is common" in answer:
            return None
        if "[NA]" not in answer:
            return "no [NA] for a fact the graph lacks"
        if kind in (*DERIVED, "common") and predicted:
            return f"derives {predicted} from what the graph lacks"
        if cited and not (kind == "missing" and len(cited) == 1 and answer.index("[NA]") > answer.index("]")):
            return "states other facts in place of the missing one"
        return None
    want = [_norm(str(a)) for a in question["answers"]]
    if "[NA]" in answer:
        return "[NA] on a question the graph answers"
    if kind in DERIVED:
        return None if predicted and predicted[0] in want else f"predicts {predicted}"
    if kind == "conjunctive":  # what meets both conditions, all of it and nothing more
        return None if set(predicted) == set(want) else f"predicts {predicted}"
    text = _norm(answer)
    return None if all(w in text for w in want) else f"does not state {list(question['answers'])}"
