"""A question's topic entities: given (ids or labels), bracketed (MetaQA), or found by the linker."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kgcite.errors import TopicError
from kgcite.kg.model import Entity
from kgcite.kg.store import KGStore
from kgcite.retrieve.linking import EntityLinker

_BRACKETED = re.compile(r"\[([^\[\]]+)\]")


def unbracketed(question: str) -> str:
    """The question as a user would write it: ``who directed [Jaws]`` → ``who directed Jaws``."""
    return _BRACKETED.sub(r"\1", question)


def bracketed_topics(question: str) -> list[str]:
    """MetaQA marks the topic entity in brackets: ``who directed [Jaws]`` → ``["Jaws"]``."""
    return [m.strip() for m in _BRACKETED.findall(question) if m.strip()]


def resolve_topic(store: KGStore, topic: str) -> Entity:
    """An entity by id, else by label (case-insensitive); :class:`TopicError` naming it if absent."""
    found = store.entity(topic)
    if found is None:
        by_label = store.entities_by_label(topic, limit=5)
        exact = [e for e in by_label if e.label == topic]
        found = (exact or by_label)[0] if by_label else None
    if found is None:
        raise TopicError(f"topic entity {topic!r} is not in the graph (looked up as id and as label)")
    return found


def find_topics(
    store: KGStore, question: str, topics: Sequence[str | Entity] | None = None, linker: EntityLinker | None = None
) -> list[Entity]:
    """Given topics (ids or labels), else [bracketed] names, else the linker's entities."""
    names: Sequence[str | Entity] = topics or bracketed_topics(question)
    if names:
        return list(
            {e.id: e for e in (t if isinstance(t, Entity) else resolve_topic(store, t) for t in names)}.values()
        )
    if linker is None:
        raise ValueError("no topic entity: pass topics, bracket one in the question, or give the search a linker")
    return [le.entity for le in linker.link(question)]
