"""Model objects to RDF quads, the form every store is filled with."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Quad

from kgcite.kg.model import Entity, Triple
from kgcite.kg.scheme import LABEL_KEY, RDFS_LABEL, SKOS_ALT_LABEL, IriScheme, label_key

_LABEL = NamedNode(RDFS_LABEL)
_ALT = NamedNode(SKOS_ALT_LABEL)
_KEY = NamedNode(LABEL_KEY)


def entity_quads(entity: Entity, scheme: IriScheme) -> Iterator[Quad]:
    """Label and aliases of an entity (its types are ordinary triples of the type relation)."""
    node = NamedNode(scheme.entity_iri(entity.id))
    if entity.label:
        yield Quad(node, _LABEL, Literal(entity.label))
    for alias in entity.aliases:
        yield Quad(node, _ALT, Literal(alias))


def triple_quads(triple: Triple, scheme: IriScheme) -> Iterator[Quad]:
    """One relation triple; an entity object also gets its label so it can be found by name."""
    predicate = scheme.relation_iri(triple.relation)
    if predicate is None:
        raise ValueError(
            f"the {scheme.name!r} IRI scheme cannot mint a predicate for relation {triple.relation!r}; "
            "load RDF that already uses it, or write with the generic scheme"
        )
    subject = NamedNode(scheme.entity_iri(triple.subject_id))
    if triple.object_id is None:
        yield Quad(subject, NamedNode(predicate), Literal(triple.object_value))
    else:
        obj = NamedNode(scheme.entity_iri(triple.object_id))
        yield Quad(subject, NamedNode(predicate), obj)
        if triple.object_value:
            yield Quad(obj, _LABEL, Literal(triple.object_value))


def with_label_keys(quads: Iterable[Quad]) -> Iterator[Quad]:
    """Pass quads through, adding a lower-cased key quad after each label or alias.

    The keys make case-insensitive and prefix lookups index hits instead of label scans.
    """
    for quad in quads:
        yield quad
        if quad.predicate in (_LABEL, _ALT) and isinstance(quad.object, Literal):
            key = label_key(quad.object.value)
            if key:
                yield Quad(quad.subject, _KEY, Literal(key), quad.graph_name)


def ntriple(quad: Quad) -> str:
    """The quad's triple as one N-Triples statement (terms escaped by pyoxigraph; graph dropped)."""
    return f"{quad.subject} {quad.predicate} {quad.object} ."


def write_ntriples(quads: Iterable[Quad], path: Path) -> int:
    """Write the quads' triples to ``path`` as N-Triples, whole under ``NAME.tmp`` then renamed:
    the file an engine's bulk loader reads. Returns how many were written."""
    tmp = path.with_name(path.name + ".tmp")
    n = 0
    with tmp.open("w", encoding="utf-8") as fh:
        for quad in quads:
            fh.write(ntriple(quad) + "\n")
            n += 1
    tmp.replace(path)
    return n
