"""MetaQA questions (Zhang et al. 2018) over the shipped movie graph.

A question names its topic entity in brackets and its relation path as a *qtype*
(``movie_to_director_to_movie``). Following that path over ``kb.txt`` gives the answers the
graph can prove; where they equal the gold answers the question is *reproducible* and its
path is a gold reasoning path (ToG-E's evaluation, CAQA-style generation).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kgcite.errors import InputError
from kgcite.jsonl import text_lines
from kgcite.kg.loaders import read_tsv, shipped_data
from kgcite.kg.model import Triple
from kgcite.retrieve.topics import bracketed_topics

#: qtype step ``a_to_b`` → (relation, inverse): the kb stores movie → attribute triples.
STEPS: dict[str, tuple[str, bool]] = {
    "movie_to_director": ("directed_by", False),
    "movie_to_writer": ("written_by", False),
    "movie_to_actor": ("starred_actors", False),
    "movie_to_year": ("release_year", False),
    "movie_to_language": ("in_language", False),
    "movie_to_genre": ("has_genre", False),
    "movie_to_tags": ("has_tags", False),
    "movie_to_imdbrating": ("has_imdb_rating", False),
    "movie_to_imdbvotes": ("has_imdb_votes", False),
}
STEPS.update({f"{k.split('_to_')[1]}_to_movie": (r, True) for k, (r, _) in list(STEPS.items())})
STEPS["tag_to_movie"] = ("has_tags", True)


@dataclass(frozen=True, slots=True)
class MetaQAQuestion:
    hops: int
    line: int
    question: str
    topic: str
    answers: tuple[str, ...]
    qtype: str | None = None  # absent for the dev split

    def path(self) -> list[tuple[str, bool]]:
        """The qtype as ``[(relation, inverse), ...]``."""
        if self.qtype is None:
            return []
        parts = self.qtype.split("_to_")
        return [STEPS[f"{a}_to_{b}"] for a, b in itertools.pairwise(parts)]


def read_questions(hops: int, split: str = "test", root: str | Path | None = None) -> list[MetaQAQuestion]:
    """``N-hop/qa_{split}.txt`` with its qtype file when there is one."""
    base = Path(root) if root else shipped_data("metaqa")
    qa = base / f"{hops}-hop" / f"qa_{split}.txt"
    if not qa.exists():
        raise FileNotFoundError(f"{qa}: no MetaQA {hops}-hop {split} split")
    qtype_file = base / f"{hops}-hop" / f"qa_{split}_qtype.txt"
    qtypes = qtype_file.read_text(encoding="utf-8").split("\n") if qtype_file.exists() else []
    out = []
    for lineno, line in text_lines(qa):
        if isinstance(line, InputError):
            raise line
        if line.strip():
            question, sep, answers = line.rstrip("\n").partition("\t")
            topics = bracketed_topics(question)
            if not sep or not topics:
                raise InputError(
                    qa, lineno, "question" if sep else "answers", "expected 'question with [topic]<TAB>a|b|...'"
                )
            qtype = qtypes[lineno - 1].strip() if lineno - 1 < len(qtypes) else None
            if qtype and any(f"{a}_to_{b}" not in STEPS for a, b in itertools.pairwise(qtype.split("_to_"))):
                raise InputError(qtype_file, lineno, "qtype", f"unknown relation path {qtype!r}")
            out.append(MetaQAQuestion(hops, lineno, question, topics[0], tuple(answers.split("|")), qtype or None))
    return out


class MetaQAGraph:
    """The kb as adjacency lists, to follow qtype paths exactly (no store, no limits)."""

    def __init__(self, triples: Iterable[Triple]) -> None:
        self.out: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.inc: dict[tuple[str, str], set[str]] = defaultdict(set)
        for t in triples:
            self.out[(t.subject_id, t.relation)].add(t.object_value)
            self.inc[(t.object_value, t.relation)].add(t.subject_id)

    @classmethod
    def shipped(cls) -> MetaQAGraph:
        return cls(read_tsv(shipped_data("metaqa", "kb.txt")))

    def follow(self, topic: str, path: list[tuple[str, bool]]) -> set[str]:
        """Entities at the end of the path; the topic itself is never an answer (MetaQA's rule)."""
        frontier = {topic}
        for relation, inverse in path:
            index = self.inc if inverse else self.out
            frontier = {n for e in frontier for n in index.get((e, relation), ())}
        return frontier - {topic}

    def reproducible(self, q: MetaQAQuestion) -> bool:
        return bool(q.qtype) and self.follow(q.topic, q.path()) == set(q.answers)


def reproducible_questions(hops: int, graph: MetaQAGraph | None = None) -> Iterator[MetaQAQuestion]:
    graph = graph or MetaQAGraph.shipped()
    return (q for q in read_questions(hops) if graph.reproducible(q))
