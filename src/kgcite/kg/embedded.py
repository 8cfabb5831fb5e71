"""The embedded default store: pyoxigraph in memory or on disk, no server needed.

:class:`EmbeddedSparqlStore` answers through SPARQL like a remote endpoint would;
:class:`EmbeddedStore` answers the hot paths (entity, one-hop, label lookup) with pyoxigraph's
quad-pattern API, which skips query parsing and planning and is an order of magnitude faster.
"""

from __future__ import annotations

import bisect
import fcntl
import gzip
import heapq
import json
import logging
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, islice
from pathlib import Path
from typing import Any

from pyoxigraph import Literal, NamedNode, Quad, QuerySolution, RdfFormat, Store

from kgcite.errors import InputError
from kgcite.kg.keys import LABEL_PROPERTY
from kgcite.kg.loaders import graph_quads, shipped_biokalma, shipped_data
from kgcite.kg.model import Entity, Triple
from kgcite.kg.rdf import with_label_keys
from kgcite.kg.scheme import LABEL_KEY, RDFS_LABEL, SKOS_ALT_LABEL, IriScheme, label_key
from kgcite.kg.sparql import SparqlStore, Term

log = logging.getLogger(__name__)

#: The file in a store folder that keeps the store's relation labels (see ``relations``).
RELATIONS_FILE = "kgcite-relations.json"
_LABEL = NamedNode(RDFS_LABEL)
_ALT = NamedNode(SKOS_ALT_LABEL)
_KEY = NamedNode(LABEL_KEY)


def is_store(path: str | Path) -> bool:
    """Whether a folder already holds an embedded store (RocksDB writes ``CURRENT`` first)."""
    return (Path(path) / "CURRENT").is_file()


def _check_store_folder(path: Path, *, create: bool) -> None:
    """Only a store folder, or (to create one) a new or empty folder, is opened as a store: kgcite
    never writes a database into a folder of other files."""
    if path.exists() and not path.is_dir():
        raise InputError(path, None, None, "is a file, not a store folder")
    store = is_store(path)
    if path.is_dir() and not store and any(path.iterdir()):
        raise InputError(path, None, None, "is a folder but not a kgcite store; choose a new or empty folder")
    if not create and not store:
        raise InputError(path, None, None, "is not a kgcite store (create one with `kgcite kg load FILE --store DIR`)")


def _written_elsewhere(path: Path) -> bool:
    """Whether another process holds the store open for writing (RocksDB's POSIX lock on
    ``LOCK``): a read-only view then sees a store still being loaded, often empty."""
    try:
        fd = os.open(path / "LOCK", os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        fcntl.lockf(fd, fcntl.LOCK_UN)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def _remove_orphans(path: Path) -> None:
    """Delete the bulk-load files a killed ``kg load`` left behind. Safe here: this process now
    holds the store's lock, and a finished bulk load leaves no ``bulk-*.sst`` (they are ingested)."""
    orphans = list(path.glob("bulk-*.sst"))
    if orphans:
        size = sum(p.stat().st_size for p in orphans)
        for p in orphans:
            p.unlink(missing_ok=True)
        log.warning("%s: removed %d files (%.1f MB) left by an interrupted load", path, len(orphans), size / 1e6)


#: RocksDB's diagnostic logs kept in a store folder: every open writes a new one (~137 KB).
KEPT_LOGS = 2


def _prune_logs(path: Path, keep: int = KEPT_LOGS) -> None:
    """Delete all but the newest ``keep`` of RocksDB's rotated info logs (``LOG.old.*``): every
    open, a read-only one included, rotates one, so a store asked 230 times held 32 MB of them.
    They are diagnostics only; the data, the WAL (``*.log``) and ``LOG`` itself are untouched."""
    old = sorted(path.glob("LOG.old.*"), key=lambda p: p.stat().st_mtime, reverse=True)
    for p in old[keep:]:
        p.unlink(missing_ok=True)


class EmbeddedSparqlStore(SparqlStore):
    """A pyoxigraph store queried with SPARQL (in memory when ``path`` is None)."""

    def __init__(
        self, path: str | Path | None = None, scheme: IriScheme | None = None, *, read_only: bool = False
    ) -> None:
        super().__init__(scheme)
        self.path = Path(path) if path is not None else None
        self.read_only = read_only
        if self.path is None:
            self.store = Store()
            return
        _check_store_folder(self.path, create=not read_only)
        try:
            if read_only:
                if _written_elsewhere(self.path):
                    raise InputError(
                        self.path,
                        None,
                        None,
                        "the store is open for writing by another process (a running kgcite kg load, or serve "
                        "--store?); wait for the load to finish, or ask that process",
                    )
                self.store = Store.read_only(str(self.path))
                _prune_logs(self.path)
            else:
                self.path.mkdir(parents=True, exist_ok=True)
                self.store = Store(str(self.path))
                _remove_orphans(self.path)
                _prune_logs(self.path)
        except OSError as exc:
            in_use = "lock" in str(exc).lower()
            why = (
                "in use by another process (a running kgcite load or serve?)" if in_use else f"cannot be opened: {exc}"
            )
            raise InputError(self.path, None, None, f"the store is {why}") from exc

    # Named graphs (N-Quads, TriG input) count as part of the graph, as in the pattern API.
    def _select(self, query: str) -> Iterable[QuerySolution]:
        return self.store.query(query, use_default_graph_as_union=True)  # type: ignore[return-value]

    def _ask(self, query: str) -> bool:
        return bool(self.store.query(query, use_default_graph_as_union=True))

    def add_quads(self, quads: Iterable[Quad]) -> None:
        """Bulk-insert quads (with label keys) without holding them all in memory."""
        self.store.bulk_extend(with_label_keys(quads))
        self._added()

    def add_nquads(self, data: bytes) -> None:
        """Bulk-load N-Quads that already carry their label keys (a dump of a kgcite store)."""
        self.store.bulk_load(data, format=RdfFormat.N_QUADS)
        self._added()

    def _added(self) -> None:
        self.invalidate()
        if self.path is not None:
            self.store.flush()
            self._save_relations()

    def relations(self) -> list[str]:
        """The relation labels; a store folder keeps them beside the data (finding them is a scan
        of every quad, a third of a second at 200k), trusted while the quad count is unchanged."""
        if self._relations is None and self.path is not None:
            self._relations = self._saved_relations()
        return super().relations()

    def _relations_record(self) -> tuple[Path, str]:
        assert self.path is not None
        return self.path / RELATIONS_FILE, repr(self.scheme)

    def _saved_relations(self) -> list[str] | None:
        path, scheme = self._relations_record()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("scheme") != scheme or data.get("quads") != len(self.store):
            return None
        return [str(r) for r in data.get("relations", [])]

    def _save_relations(self) -> None:
        path, scheme = self._relations_record()
        record = {"scheme": scheme, "quads": len(self.store), "relations": super().relations()}
        try:
            path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            log.info("%s: relations not saved (%s)", path, exc)

    def load(self, path: str | Path, *, progress: bool = False) -> int:
        """Load a graph file (BioKaLMA JSON, TSV or RDF); returns the number of quads read."""
        counter = _Counter(graph_quads(path, self.scheme), desc=Path(path).name if progress else None)
        self.add_quads(counter)
        return counter.n

    def __len__(self) -> int:
        return len(self.store)

    def close(self) -> None:
        if self.path is not None and not self.read_only:  # a read-only store has nothing to flush (and refuses to)
            self.store.flush()
        del self.store


class _Counter:
    """Counts quads on their way into the store, with an optional progress bar."""

    def __init__(self, quads: Iterable[Quad], desc: str | None) -> None:
        self.quads, self.desc, self.n = quads, desc, 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        bar = None
        if self.desc is not None:
            from tqdm import tqdm

            bar = tqdm(desc=f"loading {self.desc}", unit=" quads", unit_scale=True, mininterval=0.5)
        for quad in self.quads:
            self.n += 1
            if bar is not None and self.n % 10_000 == 0:
                bar.update(10_000)
            yield quad
        if bar is not None:
            bar.update(self.n % 10_000)
            bar.close()


#: Edges counted quad by quad before a hub's are left to one aggregate query (faster per edge,
#: slower to start).
_COUNT_IN_PYTHON = 2_000


class EmbeddedStore(EmbeddedSparqlStore):
    """The default store: SPARQL where flexibility matters, quad patterns on the hot paths."""

    def __init__(
        self, path: str | Path | None = None, scheme: IriScheme | None = None, *, read_only: bool = False
    ) -> None:
        super().__init__(path, scheme, read_only=read_only)
        self._key_index: list[tuple[str, str]] | None = None
        self._named_graphs: bool | None = None
        self._hub_degrees: dict[str, list[tuple[str, bool, int]]] = {}
        self._counts: dict[
            tuple[tuple[str, ...], int], tuple[Counter[NamedNode | Literal], Counter[NamedNode | Literal]]
        ] = {}

    def invalidate(self) -> None:
        super().invalidate()
        self._key_index = None
        self._named_graphs = None
        self._hub_degrees = {}
        self._counts = {}

    def _value_counts(
        self, predicates: Sequence[str], inverse: bool, limit: int, scan: int
    ) -> list[tuple[NamedNode | Literal, int]]:
        """The engine's count, done in one pass over the relation's triples for both directions
        (an aggregate query per direction cost MetaQA's first question 1.7 s)."""
        key = (tuple(predicates), scan)
        if key not in self._counts:
            seen = self._seen()
            triples = chain.from_iterable(self._relation_quads(None, NamedNode(p), None, seen) for p in predicates)
            objects: Counter[NamedNode | Literal] = Counter()
            subjects: Counter[NamedNode | Literal] = Counter()
            for s, _, o in islice(triples, scan):
                subjects[s] += 1
                objects[o] += 1
            self._counts[key] = (objects, subjects)
        counts = self._counts[key][1 if inverse else 0]
        return heapq.nsmallest(limit, counts.items(), key=lambda kv: (-kv[1], kv[0].value))

    def _label(self, node: NamedNode) -> str | None:
        labels = [o for q in self.store.quads_for_pattern(node, _LABEL, None) if isinstance(o := q.object, Literal)]
        if len(labels) == 1:  # the common case, without sorting
            only = labels[0]
            return only.value if self._lang_ok(only) and only.value else None
        best = self._usable_labels(labels)
        return best[0].value if best else None

    def _entities(self, iris: Sequence[str]) -> dict[str, Entity]:
        out: dict[str, Entity] = {}
        if not iris:  # most label look-ups find nothing: skip the scheme's IRIs
            return out
        type_iri = self.scheme.type_relation_iri
        for i in iris:
            try:
                node = NamedNode(i)
            except ValueError:  # "x://a b" names no entity: it cannot even be an IRI
                continue
            labels: list[Term] = [
                o for q in self.store.quads_for_pattern(node, _LABEL, None) if isinstance(o := q.object, Literal)
            ]
            aliases: list[Term] = [
                o for q in self.store.quads_for_pattern(node, _ALT, None) if isinstance(o := q.object, Literal)
            ]
            types: list[Term] = []
            if type_iri:
                for q in self.store.quads_for_pattern(node, NamedNode(type_iri), None):
                    o = q.object
                    if isinstance(o, NamedNode):
                        label = self._label(o)
                        types.append(Literal(label) if label is not None else o)
                    elif isinstance(o, Literal):
                        types.append(o)
            entity = self._entity_from_parts(i, labels, aliases, types)
            if entity is None and (
                next(self.store.quads_for_pattern(node, None, None), None)
                or next(self.store.quads_for_pattern(None, None, node), None)
            ):
                entity = Entity(self.scheme.entity_id(i), self.scheme.entity_id(i))
            if entity is not None:
                out[i] = entity
        return out

    def _triples(
        self,
        subjects: Sequence[Term] | None = None,
        predicates: Sequence[str] | None = None,
        objects: Sequence[Term] | None = None,
        limit: int | None = None,
    ) -> list[Triple]:
        # The hot path of retrieval: one tight loop over quad patterns, each node's id and
        # label computed once per call, no intermediate rows.
        preds = [NamedNode(p) for p in predicates] if predicates is not None else [None]
        entity_id = self.scheme.entity_id
        relation_of = self._relation_label_cache
        nodes: dict[NamedNode, tuple[str, str]] = {}

        def describe(node: NamedNode) -> tuple[str, str]:
            if node not in nodes:
                nid = entity_id(node.value)
                nodes[node] = (nid, self._label(node) or nid)
            return nodes[node]

        seen = self._seen()
        out: list[Triple] = []
        any_node: list[Any] = [None]
        for s in subjects if subjects is not None else any_node:
            for p in preds:
                for o in objects if objects is not None else any_node:
                    for subj, pred, obj in self._relation_quads(s, p, o, seen):
                        pv = pred.value
                        relation = relation_of.get(pv) or self._relation_labels([pv])[pv]
                        sid, slabel = describe(subj)
                        if isinstance(obj, Literal):
                            out.append(Triple(sid, slabel, relation, obj.value))
                        else:
                            oid, olabel = describe(obj)
                            out.append(Triple(sid, slabel, relation, olabel, oid))
                        if limit is not None and len(out) >= limit:
                            return out
        return out

    def relation_degrees(self, entity_id: str) -> list[tuple[str, bool, int]]:
        node = NamedNode(self.scheme.entity_iri(entity_id))
        counts: dict[tuple[str, bool], int] = {}
        seen = self._seen()
        counted = 0
        for inverse, quads in (
            (False, self._relation_quads(node, None, None, seen)),
            (True, self._relation_quads(None, None, node, seen)),
        ):
            for _, pred, _ in quads:
                counts[(pred.value, inverse)] = counts.get((pred.value, inverse), 0) + 1
                counted += 1
                if counted > _COUNT_IN_PYTHON and seen is None:  # a hub: the engine counts 3x faster
                    if entity_id not in self._hub_degrees:  # and a hub is asked about again and again
                        if len(self._hub_degrees) >= 1_000:
                            self._hub_degrees.clear()
                        self._hub_degrees[entity_id] = super().relation_degrees(entity_id)
                    return list(self._hub_degrees[entity_id])
        labels = self._relation_labels(p for p, _ in counts)
        return sorted((labels[p], inv, n) for (p, inv), n in counts.items())

    def _seen(self) -> set[tuple[object, object, object]] | None:
        """A set to drop repeated triples, needed only when named graphs can repeat one
        (quads are unique per graph)."""
        return set() if self._has_named_graphs() else None

    def _relation_quads(
        self, s: Term | None, p: NamedNode | None, o: Term | None, seen: set[tuple[object, object, object]] | None
    ) -> Iterator[tuple[NamedNode, NamedNode, Literal | NamedNode]]:
        """``(subject, predicate, object)`` of the relation triples matching a pattern: other
        predicates (labels, keys) when none is given, blank nodes and RDF-star skipped."""
        is_relation = self.scheme.is_relation
        for q in self.store.quads_for_pattern(s, p, o):  # type: ignore[arg-type]
            subj, pred, obj = q.subject, q.predicate, q.object
            if (p is None and not is_relation(pred.value)) or not isinstance(subj, NamedNode):
                continue
            if not isinstance(obj, (Literal, NamedNode)):
                continue
            if seen is not None:
                if (subj, pred, obj) in seen:
                    continue
                seen.add((subj, pred, obj))
            yield subj, pred, obj

    def _has_named_graphs(self) -> bool:
        if self._named_graphs is None:
            self._named_graphs = next(iter(self.store.named_graphs()), None) is not None
        return self._named_graphs

    def _value_terms(self, value: str) -> list[Term]:
        variants = self._literal_variants(value)
        nodes = [
            n
            for v in variants
            for q in self.store.quads_for_pattern(None, _LABEL, v)
            if isinstance(n := q.subject, NamedNode)
        ]
        return [*variants, *dict.fromkeys(nodes)]

    def _keys(self) -> list[tuple[str, str]]:
        """Sorted (label key, entity IRI) pairs: prefix lookups become a binary search."""
        if self._key_index is None:
            self._key_index = sorted(
                (q.object.value, q.subject.value)
                for q in self.store.quads_for_pattern(None, _KEY, None)
                if isinstance(q.subject, NamedNode) and isinstance(q.object, Literal)
            )
        return self._key_index

    def entities_by_label(self, text: str, *, prefix: bool = False, limit: int = 50) -> list[Entity]:
        if not self._has_label_keys():
            return super().entities_by_label(text, prefix=prefix, limit=limit)
        key = label_key(text)
        if not key:
            return []
        if prefix:
            index = self._keys()
            start = bisect.bisect_left(index, (key, ""))
            hits: dict[str, int] = {}
            for k, node in index[start:]:
                if not k.startswith(key):
                    break
                hits[node] = min(hits.get(node, len(k)), len(k))
            ranked = sorted(hits, key=lambda n: (hits[n], n))[:limit]
        else:
            ranked = sorted(
                {
                    q.subject.value
                    for q in self.store.quads_for_pattern(None, _KEY, Literal(key))
                    if isinstance(q.subject, NamedNode)
                }
            )[:limit]
        found = self._entities(ranked)
        return [found[n] for n in ranked if n in found]


#: The shipped BioKaLMA graph as this module stores it (label keys included), gzipped N-Quads:
#: loading it is ten times faster than reading the JSON. Rebuilt by ``python -m kgcite.kg.embedded``;
#: a test holds it equal to the JSON loaded.
BIOKALMA_DUMP = "biokalma.nq.gz"


def biokalma_store(location: str | Path | None = None) -> tuple[EmbeddedStore, int]:
    """The shipped BioKaLMA graph, reopened from ``location`` if loaded there before, else loaded
    (in memory when ``location`` is None). Returns the store and the quads read (0: reopened).
    A store without the entities' ``name`` triples (made by an older kgcite) is topped up."""
    store = EmbeddedStore(location)
    if len(store) and LABEL_PROPERTY in store.relations():
        return store, 0
    # new, or loaded by a kgcite that did not yet cite labels: loading again adds what is missing
    data = gzip.decompress(shipped_data("biokalma", BIOKALMA_DUMP).read_bytes())
    store.add_nquads(data)
    return store, data.count(b"\n")


def write_biokalma_dump(path: Path) -> int:
    """Write :data:`BIOKALMA_DUMP` from the shipped JSON; returns the quads written. The quads
    keep the order a load of the JSON inserts them in (each at its first occurrence): the store
    returns matches in insertion order, and graph walks, sampled questions and benchmarks built
    from the graph must be the same whichever way it was opened."""
    scheme = EmbeddedStore().scheme
    lines = list(
        dict.fromkeys(str(q) + " .\n" for p in shipped_biokalma() for q in with_label_keys(graph_quads(p, scheme)))
    )
    path.write_bytes(gzip.compress("".join(lines).encode("utf-8"), mtime=0))
    return len(lines)


if __name__ == "__main__":
    print(write_biokalma_dump(shipped_data("biokalma", BIOKALMA_DUMP)), "quads")
