"""Which retrieved triples answer the question: grounded mode cites only these.

A triple scores by the relation being named in the question (``father``, ``born``...) and by
embedding similarity between the question and the triple's sentence; the best few are kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kgcite.generate.verbalize import verbalize
from kgcite.kg.model import Subgraph, Triple
from kgcite.models.embed import Embedder

#: Question words that name a relation without using its label.
RELATION_CUES: dict[str, tuple[str, ...]] = {
    "father": ("father", "dad", "parent", "parents"),
    "mother": ("mother", "mom", "parent", "parents"),
    "child": ("child", "children", "son", "sons", "daughter", "daughters", "kids"),
    "spouse": ("spouse", "wife", "husband", "married"),
    "place of birth": ("born", "birthplace"),
    "date of birth": ("born", "birth", "when was"),
    "place of death": ("died", "death"),
    "date of death": ("died", "death"),
    "cause of death": ("died", "death", "cause"),
    "occupation": ("occupation", "profession", "job", "work as"),
    "alma mater": ("study", "studied", "educated", "education", "university", "college"),
    "notable works": ("works", "wrote", "known for", "famous"),
    "award received": ("award", "awards", "prize", "honours", "honors"),
    "religion": ("religion", "religious", "faith"),
    "position held": ("position", "office", "title"),
}
#: Relations that rarely answer anything (KaLMA discourages them too); an entity's ``name``
#: triple (its label) is never selected either: the question already names the entity.
LOW_VALUE = frozenset({"described by source", "topic's main category", "topic's main infobox", "given name", "surname"})


@dataclass(frozen=True)
class ScoredTriple:
    triple: Triple
    score: float
    cued: bool


def _cued(relation: str, question: str) -> bool:
    words = RELATION_CUES.get(relation, ()) + (relation,)
    return any(re.search(rf"\b{re.escape(w)}\b", question) for w in words)


class TripleSelector:
    def __init__(self, embedder: Embedder, *, k: int = 4, min_similarity: float = 0.35) -> None:
        self.embedder, self.k, self.min_similarity = embedder, k, min_similarity

    def score_many(self, questions: Sequence[str], graphs: Sequence[Subgraph]) -> list[list[ScoredTriple]]:
        """All triples of each graph, best first; one embedding batch for everything."""
        candidates = [[t for t in g.triples if t.relation not in LOW_VALUE and not t.is_label] for g in graphs]
        texts = list(questions) + [verbalize(t) for ts in candidates for t in ts]
        vecs = self.embedder.encode(texts)
        q_vecs, t_vecs = vecs[: len(questions)], vecs[len(questions) :]
        out, offset = [], 0
        for i, (question, triples) in enumerate(zip(questions, candidates, strict=True)):
            sims = t_vecs[offset : offset + len(triples)] @ q_vecs[i] if triples else np.zeros(0)
            offset += len(triples)
            ql = question.lower()
            scored = [ScoredTriple(t, float(s), _cued(t.relation, ql)) for t, s in zip(triples, sims, strict=True)]
            out.append(sorted(scored, key=lambda st: (st.cued, st.score), reverse=True))
        return out

    def select_many(self, questions: Sequence[str], graphs: Sequence[Subgraph]) -> list[list[Triple]]:
        """The triples a grounded answer states: those the question names, else the most similar."""
        chosen = []
        for scored in self.score_many(questions, graphs):
            cued = [s.triple for s in scored if s.cued]
            if cued:
                chosen.append(cued[: self.k])
            else:
                chosen.append([s.triple for s in scored if s.score >= self.min_similarity][: self.k])
        return chosen
