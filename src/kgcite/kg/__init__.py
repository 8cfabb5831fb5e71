"""Knowledge-graph model, stores and loaders."""

from __future__ import annotations

from pathlib import Path

from kgcite.errors import InputError, KGError
from kgcite.kg.embedded import EmbeddedSparqlStore, EmbeddedStore
from kgcite.kg.model import Entity, Subgraph, Triple, TripleKey
from kgcite.kg.scheme import IriScheme, WikidataScheme, scheme_named
from kgcite.kg.sparql import HttpSparqlStore, SparqlStore
from kgcite.kg.store import KGStore

__all__ = [
    "EmbeddedSparqlStore",
    "EmbeddedStore",
    "Entity",
    "HttpSparqlStore",
    "InputError",
    "IriScheme",
    "KGError",
    "KGStore",
    "SparqlStore",
    "Subgraph",
    "Triple",
    "TripleKey",
    "WikidataScheme",
    "open_store",
    "scheme_named",
]


def open_store(
    location: str | Path | None, scheme: str | IriScheme = "generic", *, read_only: bool = False
) -> SparqlStore:
    """A store from a location: an ``http(s)://`` SPARQL endpoint, a store folder, or None (in memory)."""
    s = scheme_named(scheme) if isinstance(scheme, str) else scheme
    if isinstance(location, str) and location.startswith(("http://", "https://")):
        return HttpSparqlStore(location, s)
    return EmbeddedStore(location, s, read_only=read_only)
