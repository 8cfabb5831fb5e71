"""Statements for a path answer: each shown answer with the chain of triples that reaches it.

Every sentence states one triple in its template and cites exactly it, so an answer is as true
as the graph: "Catch Me If You Can was directed by Steven Spielberg [1]. Munich was directed by
Steven Spielberg [2]. Munich's language is German [3]." A triple that several answers share is
stated once. Only ``shown`` answers are stated; the rest are in the answer's ``predicted`` and
``answer_paths`` (front ends print "… and N more"). No path → one ``[NA]`` sentence.
"""

from __future__ import annotations

from kgcite.generate.citations import NACitation, Sentence, cite_triples
from kgcite.generate.verbalize import verbalize
from kgcite.kg.model import Entity
from kgcite.retrieve.evidence import PathResult
from kgcite.text.values import join


def no_path_sentence(topics: tuple[Entity, ...]) -> Sentence:
    names = join([t.label for t in topics]) or "the question's entity"
    return Sentence(f"The graph has no path from {names} that answers this question.", (NACitation(),))


def path_sentences(result: PathResult, shown: int = 3) -> tuple[Sentence, ...]:
    if not result.answers:
        return (no_path_sentence(result.topics),)
    out: list[Sentence] = []
    stated: set[tuple[str, str, str, str | None]] = set()
    for answer in result.answers[:shown]:
        for t in answer.triples:
            key = (*t.key, t.object_id)
            if key not in stated:
                stated.add(key)
                out.append(Sentence(verbalize(t), cite_triples([t.key])))
    return tuple(out)
