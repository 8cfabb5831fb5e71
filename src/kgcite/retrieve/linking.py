"""Entity linking as KaLMA §3.1 does it, without an LLM.

NER mentions → candidate entities by label and alias → NER-type filter (a PERSON mention links
to a ``human``) → same-name candidates ranked by how many of their neighbours' values occur in
the question (exact match) → the chosen entities.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kgcite.kg.model import Entity
from kgcite.kg.store import KGStore
from kgcite.models.ner import NER, Mention

#: NER label → KG types it may link to (WikiData type labels); labels not listed are unfiltered.
TYPE_FILTER: dict[str, frozenset[str]] = {
    "PERSON": frozenset({"human", "fictional human", "person"}),
}
#: NER labels that are never worth linking (numbers, dates...).
SKIP_LABELS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})

_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")
_CAPITALISED_RUN = re.compile(r"\b(?:[A-Z][\w\-.]*(?:\s+(?:of|the|de|van|von|da|di|del|la|le|[A-Z][\w\-.]*))*\s+)*[A-Z][\w\-.]*")


@dataclass(frozen=True, slots=True)
class LinkedEntity:
    entity: Entity
    mention: str
    ner_label: str
    evidence: int  # neighbour values found in the question: the disambiguation score


def clean_mention(text: str) -> str:
    """``Stephen Crane's`` → ``Stephen Crane``; surrounding quotes and punctuation dropped."""
    text = text.strip().strip("\"'“”‘’.,;:!?()[]")
    return _POSSESSIVE.sub("", text).strip()


def type_ok(entity: Entity, ner_label: str) -> bool:
    allowed = TYPE_FILTER.get(ner_label)
    if allowed is None or not entity.types:
        return True
    return any(t.lower() in allowed for t in entity.types)


class EntityLinker:
    """Links the entities a question mentions."""

    def __init__(self, store: KGStore, ner: NER, *, max_candidates: int = 20, fallback: bool = True) -> None:
        self.store, self.ner = store, ner
        self.max_candidates, self.fallback = max_candidates, fallback

    def link(self, question: str) -> list[LinkedEntity]:
        return self.link_many([question])[0]

    def link_many(self, questions: Sequence[str]) -> list[list[LinkedEntity]]:
        return [self._link(q, ms) for q, ms in zip(questions, self.ner.mentions(questions), strict=True)]

    def _mentions(self, question: str, mentions: list[Mention]) -> list[tuple[str, str]]:
        """(text, NER label) to look up. A small NER model often cuts names short ("Emmett" for
        "Emmett Till"), so a mention grows to the capitalised run around it; with ``fallback``,
        runs of two or more capitalised words that NER missed are tried too."""
        runs = [(m.start(), m.end(), m.group()) for m in _CAPITALISED_RUN.finditer(question)]
        out: list[tuple[str, str]] = []
        used: set[int] = set()
        for m in mentions:
            if m.label in SKIP_LABELS:
                continue
            text = m.text
            for i, (a, b, run) in enumerate(runs):
                if a <= m.start and m.end <= b + 2 and len(run) > len(clean_mention(text)):
                    text = run
                    used.add(i)
                elif a < m.end and m.start < b:
                    used.add(i)
            out.append((clean_mention(text), m.label))
        if self.fallback:
            out += [(clean_mention(run), "") for i, (_, _, run) in enumerate(runs) if i not in used and len(run.split()) > 1]
        return [(t, label) for t, label in dict.fromkeys(out) if t]

    def _link(self, question: str, mentions: list[Mention]) -> list[LinkedEntity]:
        return self._link_mentions(question, self._mentions(question, mentions))

    def _candidates(self, text: str) -> list[Entity]:
        """Entities named by the mention, else by its longest sub-span that names one
        ("Jafar Khan Lotf Ali Khan" → "Jafar Khan")."""
        candidates = self.store.entities_by_label(text, limit=self.max_candidates)
        words = text.split()
        for size in range(len(words) - 1, 1, -1):
            if candidates:
                break
            for i in range(len(words) - size + 1):
                candidates = self.store.entities_by_label(" ".join(words[i : i + size]), limit=self.max_candidates)
                if candidates:
                    break
        return candidates

    def _link_mentions(self, question: str, mentions: list[tuple[str, str]]) -> list[LinkedEntity]:
        q = question.lower()
        chosen: dict[str, LinkedEntity] = {}
        for text, label in mentions:
            candidates = self._candidates(text)
            typed = [c for c in candidates if type_ok(c, label)] or candidates
            if not typed:
                continue
            if len(typed) == 1:
                best, score = typed[0], 0
            else:
                scored = [(self._evidence(c, q), c) for c in typed]
                score, best = max(scored, key=lambda sc: (sc[0], -typed.index(sc[1])))
            chosen.setdefault(best.id, LinkedEntity(best, text, label, score))
        return list(chosen.values())

    def _evidence(self, entity: Entity, question_lower: str) -> int:
        """How many of the entity's neighbour values occur verbatim in the question."""
        values = {t.object_value.lower() for t in self.store.outgoing(entity.id)}
        values |= {t.subject_label.lower() for t in self.store.incoming(entity.id)}
        return sum(1 for v in values if len(v) > 2 and v in question_lower)
