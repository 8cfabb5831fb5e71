"""Likely namesakes in a graph that names entities by their text (TSV, CSV): two films called
"Hamlet" become one entity, and nothing in the file says so. The trace they leave is a relation
that nearly every entity holds once (``release_year``) held several times by one of them."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from kgcite.kg.model import Triple

_QUALIFIER = re.compile(r"\s*\([^()]+\)\s*$")


def qualified(label: str, name: str) -> bool:
    """Whether ``label`` is ``name`` with a qualifier, as docs/graphs.md recommends writing
    namesakes: "Samuel Idris (editor)" for "Samuel Idris"."""
    return label.lower() != name.lower() and _QUALIFIER.sub("", label).lower() == name.lower()


def role(label: str) -> str:
    """The qualifier of a "Name (role)" label ("editor"), or ""."""
    found = _QUALIFIER.search(label)
    return found.group(0).strip().strip("()").strip() if found else ""


def spoken(label: str) -> list[str]:
    """How a question may say a "Name (role)" label, longest first: the label, "Name the role",
    "the role Name", "role Name", then the bare name ("Ivo Marsh (boatbuilder)" → "Ivo Marsh the
    boatbuilder", …, "Ivo Marsh"). A label without a qualifier is said as it is."""
    said = role(label)
    if not said:
        return [label]
    name = _QUALIFIER.sub("", label)
    return [label, f"{name} the {said}", f"the {said} {name}", f"{said} {name}", name]


def said_as(label: str, question: str) -> str | None:
    """The words of the question that say the label with its role ("Ivo Marsh the boatbuilder"),
    or None when the role is not said with the name."""
    low = question.lower()
    for variant in spoken(label)[1:-1] if role(label) else ():
        if (at := low.find(variant.lower())) >= 0:
            return question[at : at + len(variant)]
    return None


@dataclass(frozen=True, slots=True)
class Namesakes:
    """Entities holding two or more values of ``relation``, which ``single`` of its heads hold once."""

    relation: str
    single: float
    heads: tuple[tuple[str, int], ...]  # (label, values), most values first

    def describe(self, shown: int = 3) -> str:
        """One line: the relation, how many heads hold it more than once, a few of them."""
        named = ", ".join(f"{label} ({n})" for label, n in self.heads[:shown])
        more = ", …" if len(self.heads) > shown else ""
        return (
            f"{len(self.heads):,} {'entity holds' if len(self.heads) == 1 else 'entities hold'} 2 or more values of "
            f"{self.relation} ({named}{more}), "
            f"which {self.single:.0%} of its entities hold once"
        )


def likely_namesakes(triples: Iterable[Triple], *, usual: float = 0.9, min_heads: int = 10) -> list[Namesakes]:
    """Relations at least ``usual`` of whose (at least ``min_heads``) heads hold one value, with
    the heads that hold more; the relations with the most such heads first."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for t in triples:
        counts[t.relation][t.subject_label] += 1
    found = []
    for relation, per_head in counts.items():
        single = sum(1 for n in per_head.values() if n == 1) / len(per_head)
        more = sorted(((h, n) for h, n in per_head.items() if n > 1), key=lambda x: (-x[1], x[0]))
        if len(per_head) >= min_heads and single >= usual and more:
            found.append(Namesakes(relation, single, tuple(more)))
    return sorted(found, key=lambda f: (-len(f.heads), f.relation))


def qualified_names(labels: Iterable[str]) -> dict[str, list[str]]:
    """Names that two or more labels qualify ("Samuel Idris" → "Samuel Idris (editor)", "Samuel
    Idris (novelist)"): the namesakes a question naming the bare name is answered for, each."""
    out: dict[str, set[str]] = defaultdict(set)
    for label in labels:
        if (bare := _QUALIFIER.sub("", label)) != label and bare:
            out[bare].add(label)
    return {name: sorted(alike) for name, alike in sorted(out.items()) if len(alike) > 1}
