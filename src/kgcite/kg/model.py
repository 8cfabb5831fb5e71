"""The knowledge-graph data model every stage speaks: entities, triples, subgraphs."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kgcite.kg.keys import LABEL_PROPERTY, TripleKey, canonical_key, property_key

__all__ = ["Entity", "Subgraph", "Triple", "TripleKey"]


@dataclass(frozen=True, slots=True)
class Entity:
    """A node of the graph with the names a question may use for it."""

    id: str
    label: str
    aliases: tuple[str, ...] = ()
    types: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        """The label first, then the aliases: every string that can refer to the entity."""
        return (self.label, *self.aliases)

    def named(self, brackets: str = "()") -> str:
        """ "Stephen Crane (Q206534)", or the label alone where the id is the label (a TSV graph)."""
        return named(self.label, self.id, brackets)


def named(label: str, entity_id: str, brackets: str = "()") -> str:
    """A label with its id in ``brackets``, the id left out where it says the same."""
    return label if label == entity_id else f"{label} {brackets[0]}{entity_id}{brackets[1]}"


@dataclass(frozen=True, slots=True)
class Triple:
    """One fact. ``object_value`` is always readable text (a literal or the object's label);
    ``object_id`` is set only when the object is itself an entity of the graph."""

    subject_id: str
    subject_label: str
    relation: str
    object_value: str
    object_id: str | None = None

    @property
    def key(self) -> TripleKey:
        """The part a citation names, used for exact matching in the metrics."""
        return (self.subject_id, self.relation, self.object_value)

    @property
    def is_label(self) -> bool:
        """The entity's own label stated as a triple (``name``): citable, but never news."""
        return property_key(self.relation) == LABEL_PROPERTY and self.object_value == self.subject_label

    def __str__(self) -> str:
        return f"({self.subject_label} [{self.subject_id}], {self.relation}, {self.object_value})"


@dataclass(frozen=True, slots=True)
class Subgraph:
    """A set of triples with the entities they are about (e.g. the retrieved graph G)."""

    entities: tuple[Entity, ...] = ()
    triples: tuple[Triple, ...] = ()
    _keys: frozenset[TripleKey] = field(default=frozenset(), init=False, repr=False, compare=False)
    _canonical: dict[TripleKey, TripleKey] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_keys", frozenset(t.key for t in self.triples))

    @classmethod
    def merge(cls, parts: Iterable[Subgraph]) -> Subgraph:
        """Union of subgraphs, keeping the first occurrence of each entity and triple."""
        entities: dict[str, Entity] = {}
        triples: dict[tuple[str, str, str, str | None], Triple] = {}
        for part in parts:
            for e in part.entities:
                entities.setdefault(e.id, e)
            for t in part.triples:
                triples.setdefault((*t.key, t.object_id), t)
        return cls(tuple(entities.values()), tuple(triples.values()))

    def __contains__(self, key: object) -> bool:
        """Whether the graph holds a triple, its property compared in canonical form."""
        if isinstance(key, Triple):
            key = key.key
        if not (isinstance(key, tuple) and len(key) == 3 and all(isinstance(x, str) for x in key)):
            return False
        return self.find((key[0], key[1], key[2])) is not None

    def find(self, key: TripleKey) -> TripleKey | None:
        """The graph's own spelling of a triple named in any spelling of its property, or None.
        The canonical index is built on first use: most subgraphs are never compared."""
        canonical = self._canonical
        if canonical is None:
            canonical = {}
            for t in self.triples:
                canonical.setdefault(canonical_key(t.key), t.key)
            object.__setattr__(self, "_canonical", canonical)
        return canonical.get(canonical_key(key))

    def __iter__(self) -> Iterator[Triple]:
        return iter(self.triples)

    def __len__(self) -> int:
        return len(self.triples)

    @property
    def keys(self) -> frozenset[TripleKey]:
        """The triples as the graph spells them (for display and output)."""
        return self._keys

    def relations(self) -> frozenset[str]:
        """Relation labels used in the subgraph; the citation parser resolves values with them."""
        return frozenset(t.relation for t in self.triples)

    def entity(self, entity_id: str) -> Entity | None:
        return next((e for e in self.entities if e.id == entity_id), None)

    def about(self, entity_id: str) -> tuple[Triple, ...]:
        """Outgoing triples of one entity."""
        return tuple(t for t in self.triples if t.subject_id == entity_id)
