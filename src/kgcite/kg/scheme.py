"""How kgcite's entities and relations are spelled as RDF IRIs.

Two spellings exist in the wild: kgcite's own (``urn:kgcite:entity:Q42``, relation IRIs that
carry their label) and WikiData's (``wd:Q42``, ``wdt:P19`` whose label lives on ``wd:P19``).
The stores never build IRIs themselves; they ask the scheme, so one store serves both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal as TypingLiteral
from urllib.parse import quote, unquote

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT_LABEL = "http://www.w3.org/2004/02/skos/core#altLabel"
#: Lower-cased copy of every label and alias, written by kgcite's loaders so that
#: case-insensitive lookups hit an index instead of scanning all labels.
LABEL_KEY = "urn:kgcite:labelKey"

SchemeName = TypingLiteral["generic", "wikidata"]


def label_key(text: str) -> str:
    """Normal form used for case-insensitive label matching (same as SPARQL's LCASE)."""
    return " ".join(text.split()).lower()


def _is_absolute_iri(text: str) -> bool:
    return "://" in text or text.startswith("urn:")


@dataclass(frozen=True)
class IriScheme:
    """kgcite's own spelling: every relation IRI is its percent-encoded label."""

    entity_ns: str = "urn:kgcite:entity:"
    relation_ns: str = "urn:kgcite:relation:"
    language: str = "en"
    type_relation: str = "instance of"
    name: str = "generic"

    def entity_iri(self, entity_id: str) -> str:
        """IRI of an entity id; ids that already are IRIs (foreign RDF) pass through."""
        if _is_absolute_iri(entity_id):
            return entity_id
        return self.entity_ns + quote(entity_id, safe="")

    def entity_id(self, iri: str) -> str:
        if iri.startswith(self.entity_ns):
            return unquote(iri[len(self.entity_ns) :])
        return iri

    def is_relation(self, iri: str) -> bool:
        return iri.startswith(self.relation_ns)

    def relation_iri(self, label: str) -> str | None:
        """The predicate IRI for a relation label, or None when only the data can tell."""
        return self.relation_ns + quote(label, safe="")

    def relation_label(self, iri: str) -> str | None:
        """The label of a predicate read off its IRI, or None when the data must be asked."""
        return unquote(iri[len(self.relation_ns) :])

    def relation_label_node(self, iri: str) -> str:
        """The IRI that carries the rdfs:label of a predicate."""
        return iri

    def relation_from_label_node(self, iri: str) -> str | None:
        """Inverse of :meth:`relation_label_node`; None if the node is no relation."""
        return iri if self.is_relation(iri) else None

    @property
    def type_relation_iri(self) -> str | None:
        return self.relation_iri(self.type_relation)


@dataclass(frozen=True)
class WikidataScheme(IriScheme):
    """WikiData's spelling: ``wd:Q..`` entities, ``wdt:P..`` direct claims, labels on ``wd:P..``."""

    entity_ns: str = "http://www.wikidata.org/entity/"
    relation_ns: str = "http://www.wikidata.org/prop/direct/"
    type_property: str = "P31"
    name: str = "wikidata"

    def relation_iri(self, label: str) -> str | None:
        return None

    def relation_label(self, iri: str) -> str | None:
        return None

    def relation_label_node(self, iri: str) -> str:
        return self.entity_ns + iri[len(self.relation_ns) :]

    def relation_from_label_node(self, iri: str) -> str | None:
        if not iri.startswith(self.entity_ns):
            return None
        local = iri[len(self.entity_ns) :]
        return self.relation_ns + local if local.startswith("P") else None

    @property
    def type_relation_iri(self) -> str | None:
        return self.relation_ns + self.type_property


def scheme_named(name: str) -> IriScheme:
    """The scheme for a CLI/config name."""
    schemes: dict[str, IriScheme] = {"generic": IriScheme(), "wikidata": WikidataScheme()}
    try:
        return schemes[name]
    except KeyError:
        raise ValueError(f"unknown IRI scheme {name!r}; choose one of {sorted(schemes)}") from None
