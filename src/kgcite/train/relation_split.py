"""A relation-disjoint split of Wikidata's properties, and the questions and names that go with it.

A grounding model learns the relations it is trained on far better than it learns to match new
ones (0.95 against 0.50 Hits@1 when half of SimpleQuestions' properties were held out), so its
quality on a user's graph is measured only on properties held out of training *whole*. Each
property's split is a function of its id alone (a hash), so every run, machine and future training
mixture agrees on it, and a property walked backwards (``R19``) is in the split of ``P19``.

Splits: ``train`` (what a recipe may learn from), ``dev`` (where every architecture choice is made)
and ``test`` (reported, never chosen on).
"""

from __future__ import annotations

import gzip
import hashlib
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from kgcite.kg.loaders import shipped_data

Split = Literal["train", "dev", "test"]

#: Per cent of properties in each split, by the hash of the id (SimpleQuestions has only ~80
#: properties: a quarter each for dev and test keeps about 20 of them in each).
SPLIT_PERCENT: dict[Split, int] = {"train": 50, "dev": 25, "test": 25}


def property_split(pid: str) -> Split:
    """The split of a Wikidata property id (``P19``; ``R19``, its inverse, goes with it)."""
    key = "P" + pid[1:] if pid[:1] in ("P", "R") else pid
    bucket = int(hashlib.sha256(key.encode("ascii")).hexdigest(), 16) % 100
    if bucket < SPLIT_PERCENT["train"]:
        return "train"
    return "dev" if bucket < SPLIT_PERCENT["train"] + SPLIT_PERCENT["dev"] else "test"


@dataclass(frozen=True, slots=True)
class PropertyName:
    """How Wikidata names a property: its English label, aliases and datatype."""

    pid: str
    label: str
    aliases: tuple[str, ...] = ()
    datatype: str = ""


@dataclass(frozen=True, slots=True)
class GroundingQuestion:
    """A one-hop question and the property that answers it (``inverse``: walked object → subject)."""

    question: str
    pid: str
    inverse: bool


def grounding_data(*parts: str) -> Path:
    """A file of the shipped relation-grounding data (``kgcite/data/grounding``, see its README)."""
    return shipped_data("grounding", *parts)


def _kgtk_rows(path: Path) -> Iterable[list[str]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        next(f, None)  # the header
        for line in f:
            yield line.rstrip("\n").split("\t")


def _text(value: str) -> str:
    """``'place of birth'@en`` → ``place of birth``."""
    text = value.rsplit("@", 1)[0] if value.endswith("@en") else value
    return text[1:-1].replace("\\'", "'") if len(text) >= 2 and text[0] == text[-1] == "'" else text


def read_property_names(folder: Path | None = None) -> dict[str, PropertyName]:
    """Every property with an English label, with its aliases and datatype."""
    base = folder or grounding_data("wikidata-properties")
    labels = {row[0]: _text(row[1]) for row in _kgtk_rows(base / "labels.property.en.tsv.gz") if len(row) >= 2}
    aliases: dict[str, list[str]] = defaultdict(list)
    for row in _kgtk_rows(base / "aliases.property.en.tsv.gz"):
        if len(row) >= 2:
            aliases[row[0]].append(_text(row[1]))
    types = {row[1]: row[3] for row in _kgtk_rows(base / "metadata.property.datatypes.tsv.gz") if len(row) >= 4}
    return {p: PropertyName(p, label, tuple(aliases.get(p, ())), types.get(p, "")) for p, label in labels.items()}


def read_simple_questions(paths: Sequence[Path] | None = None) -> list[GroundingQuestion]:
    """SimpleQuestions-over-Wikidata lines (train and valid unless told): question, property, direction."""
    files = paths or [
        grounding_data("simplequestions-wikidata", f"annotated_wd_data_{name}_answerable.txt")
        for name in ("train", "valid")
    ]
    out = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = line.split("\t")
            if len(cells) == 4 and cells[1][:1] in ("P", "R") and cells[3].strip():
                out.append(GroundingQuestion(cells[3].strip(), "P" + cells[1][1:], cells[1][0] == "R"))
    return out


def held_out(
    questions: Sequence[GroundingQuestion], split: Split, *, per_property: int = 30, seed: int = 0
) -> list[GroundingQuestion]:
    """The questions of ``split``'s properties, at most ``per_property`` per property and direction
    (P136 genre alone is a quarter of SimpleQuestions), drawn with ``seed``."""
    groups: dict[tuple[str, bool], list[GroundingQuestion]] = defaultdict(list)
    for q in questions:
        if property_split(q.pid) == split:
            groups[(q.pid, q.inverse)].append(q)
    rng = random.Random(seed)
    out = []
    for key in sorted(groups):
        group = groups[key]
        out.extend(rng.sample(group, min(per_property, len(group))))
    return out
