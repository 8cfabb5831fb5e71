"""What retrieval decided a question's answer rests on: one type per branch of the plan.

:func:`kgcite.retrieve.plan.Planner.plan` returns an :data:`Evidence`; generation matches on its
type and phrases it, choosing nothing. Each branch holds the triples to cite and, item by item,
what each sentence of the answer will say (a group of facts, a gap, a conclusion), so the words
are generation's and the facts are retrieval's.

- :class:`Lookup`: the asked relations of the linked entities, one :class:`Facts` per relation
  held and one :class:`Gap` per relation asked and lacking.
- :class:`Chain`: a path of relations the graph search walked (multi-hop, or standing in for a
  one-hop gap), with its answers.
- :class:`Derivation`: facts and the conclusion drawn from them (yes/no, a count, an order, what
  the named entities share).
- :class:`Lacking`: nothing of the graph answers; the answer is one ``[NA]`` sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from kgcite.kg.model import Triple
from kgcite.retrieve.paths import PathResult
from kgcite.text.forms import Form, Order
from kgcite.timing import Timings

__all__ = [  # PathResult too: generation types a chain's result by it without importing the search
    "NA_ITEMS",
    "Absent",
    "Chain",
    "Counted",
    "Derivation",
    "Evidence",
    "Facts",
    "Gap",
    "Item",
    "Lacking",
    "Lookup",
    "More",
    "NoMeasure",
    "NoneShared",
    "Ordered",
    "PathResult",
    "Shared",
    "Unasked",
    "grouped",
]

#: (entity id, relation) an answer was asked for and the graph does not hold.
Absent = tuple[str, str]


@dataclass(frozen=True)
class Facts:
    """One sentence's worth: a subject's values of one relation (or, when ``subject`` is a value,
    the subjects pointing to it), each triple cited."""

    subject: str
    relation: str
    triples: tuple[Triple, ...]


@dataclass(frozen=True)
class Gap:
    """An asked relation the graph lacks for ``subject``: "The graph does not say when X was born [NA]"."""

    subject_id: str
    subject: str
    relation: str
    wh: str | None


@dataclass(frozen=True)
class Unasked:
    """A part of the question no relation of the graph names: ``[NA]`` in the question's own words."""

    text: str
    subject: str | None = None


@dataclass(frozen=True)
class More:
    """Members counted but not stated one by one ("… and 12 more."); the conclusion cites them all."""

    n: int


@dataclass(frozen=True)
class Counted:
    """The conclusion of a count: ``n`` members, citing each."""

    n: int
    noun: str | None
    triples: tuple[Triple, ...]


@dataclass(frozen=True)
class Ordered:
    """The conclusion of a comparison or superlative; ``polar`` answers "Is A older than B?";
    ``partial``: some members had no value (the conclusion says it ranks those that do)."""

    winners: tuple[str, ...]
    order: Order
    superlative: bool
    polar: bool | None
    partial: bool
    triples: tuple[Triple, ...]


@dataclass(frozen=True)
class Shared:
    """The conclusion of "which X did both A and B …": the members linked to every anchor."""

    members: tuple[str, ...]
    anchors: tuple[str, ...]
    triples: tuple[Triple, ...]


@dataclass(frozen=True)
class NoMeasure:
    """No member has a value of the order's kind: nothing to compare by (``[NA]``)."""

    kind: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class NoneShared:
    """Nothing is linked to every anchor (``[NA]``), though each has links; ``relations``: by
    which relations each anchor was looked at (the sentence says so: another relation may
    link both)."""

    anchors: tuple[str, ...]
    relations: tuple[tuple[str, ...], ...] = ()


Item: TypeAlias = Facts | Gap | Unasked | More | Counted | Ordered | Shared | NoMeasure | NoneShared
#: The items that become an ``[NA]`` sentence.
NA_ITEMS = (Gap, Unasked, NoMeasure, NoneShared)


def grouped(triples: Sequence[Triple]) -> tuple[Facts, ...]:
    """One :class:`Facts` per (subject, relation) of the triples, in their order."""
    groups: dict[tuple[str, str], list[Triple]] = {}
    for t in triples:
        groups.setdefault((t.subject_label, t.relation), []).append(t)
    return tuple(Facts(s, r, tuple(ts)) for (s, r), ts in groups.items())


@dataclass(frozen=True)
class Lookup:
    """The asked relations' facts and gaps, in question order. ``steps``: hops walked on the way
    to what was asked ("X's author" in "where was X's author born"), which answer nothing.
    ``past``: where the steps reach a thing the question asks something of that no relation
    names, the question said of that thing ("how tall is X" for "How tall is the founder of
    X?"); that part is :class:`Unasked` unless a chain past the thing is what it asks (where
    the question names no relation, the thing is taken to be one hop from the topic)."""

    items: tuple[Item, ...]
    absent: tuple[Absent, ...] = ()
    notes: tuple[str, ...] = ()
    steps: tuple[Triple, ...] = ()
    past: str | None = None
    timings: Timings = field(default_factory=Timings)

    @property
    def triples(self) -> tuple[Triple, ...]:
        """Every cited triple, in order."""
        return tuple(dict.fromkeys(t for i in self.items if isinstance(i, Facts) for t in i.triples))

    @property
    def found(self) -> bool:
        """Whether any asked fact is held."""
        return any(isinstance(i, Facts) for i in self.items)

    @property
    def gaps(self) -> bool:
        """Whether anything asked is missing (a gap, an unnamed part, or nothing at all)."""
        return bool(self.absent) or not self.items or any(isinstance(i, NA_ITEMS) for i in self.items)


@dataclass(frozen=True)
class Chain:
    """A relation path the search walked, and its answers. ``count``: the form of a count question
    over the chain, answered with the number of what it reaches (never over a cut hub)."""

    result: PathResult
    scorer: str
    count: Form | None = None
    notes: tuple[str, ...] = ()
    timings: Timings = field(default_factory=Timings)


@dataclass(frozen=True)
class Derivation:
    """Facts, then a conclusion drawn from them. ``verdict``: "yes"/"no" said before the first
    fact of a yes/no; ``predicted``: what a run scores; ``members``: each answer's triple."""

    form: Form
    items: tuple[Item, ...]
    triples: tuple[Triple, ...]
    absent: tuple[Absent, ...] = ()
    predicted: tuple[str, ...] = ()
    members: dict[str, list[list[str]]] = field(default_factory=dict)
    verdict: str | None = None
    timings: Timings = field(default_factory=Timings)


@dataclass(frozen=True)
class Lacking:
    """Nothing of the graph answers. ``linked``: the entities found (none: no entity found)."""

    linked: tuple[str, ...]
    notes: tuple[str, ...] = ()
    timings: Timings = field(default_factory=Timings)


Evidence: TypeAlias = Lookup | Chain | Derivation | Lacking
