"""The KG store protocol answered with SPARQL 1.1: one query builder, several executors.

:class:`SparqlStore` is a template: it builds every query (terms serialised by pyoxigraph, so a
label can never change a query's meaning) and turns solutions into :mod:`kgcite.kg.model`
objects; subclasses only say how a query is executed (:class:`HttpSparqlStore` over the SPARQL
1.1 protocol, :class:`kgcite.kg.embedded.EmbeddedSparqlStore` in-process).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Self

from pyoxigraph import (
    BlankNode,
    Literal,
    NamedNode,
    Quad,
    QueryBoolean,
    QueryResultsFormat,
    QuerySolution,
    QuerySolutions,
    parse_query_results,
)

from kgcite.errors import KGError
from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.kg.rdf import ntriple, with_label_keys
from kgcite.kg.scheme import LABEL_KEY, RDFS_LABEL, SKOS_ALT_LABEL, IriScheme, label_key

Term = NamedNode | Literal | BlankNode
#: The named graph kgcite writes into on a remote store (queries read the union of all graphs).
KGCITE_GRAPH = "urn:kgcite:graph"
#: Entities read in one query by the batched reads.
BATCH = 100
#: Triples of one relation a :meth:`SparqlStore.common_values` count reads at most (MetaQA's
#: largest relation has 33k: 0.12 s embedded).
COMMON_SCAN = 200_000


def in_order(triples: list[Triple]) -> list[Triple]:
    """Triples by relation, then subject, then object (labels, then ids): the order every store
    gives alike. An engine returns rows in its own index order, and that order had decided which
    of equal answers came first and which triple was cited, differently over Virtuoso."""
    return sorted(
        triples,
        key=lambda t: (
            t.relation,
            t.subject_label.casefold(),
            t.subject_label,
            t.subject_id,
            t.object_value.casefold(),
            t.object_value,
            t.object_id or "",
        ),
    )


def _chunks(items: list[str], n: int) -> list[list[str]]:
    return [items[i : i + n] for i in range(0, len(items), n)]


def iri(value: str) -> str:
    """A SPARQL IRI token; raises ValueError for a string that is no valid IRI."""
    return str(NamedNode(value))


def values(var: str, terms: Iterable[Term]) -> str:
    """An inline ``VALUES`` block: the safe way to put outside text into a query."""
    return f"VALUES {var} {{ {' '.join(str(t) for t in terms)} }}"


class SparqlStore:
    """:class:`~kgcite.kg.store.KGStore` over any SPARQL 1.1 query engine."""

    def __init__(self, scheme: IriScheme | None = None) -> None:
        self.scheme = scheme or IriScheme()
        self._relation_label_cache: dict[str, str] = {}
        self._relation_iri_cache: dict[str, tuple[str, ...]] = {}
        self._label_keys: bool | None = None
        self._relations: list[str] | None = None

    # -- what a subclass provides -------------------------------------------------------------
    def _select(self, query: str) -> Iterable[QuerySolution]:
        raise NotImplementedError

    def _ask(self, query: str) -> bool:
        raise NotImplementedError

    def close(self) -> None:
        """Release connections or files; the base holds none."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- small helpers ------------------------------------------------------------------------
    def _lang_ok(self, term: Term | None) -> bool:
        if not isinstance(term, Literal):
            return False
        lang = term.language
        return lang is None or lang == self.scheme.language or lang.startswith(self.scheme.language + "-")

    def _usable_labels(self, terms: Iterable[Term]) -> list[Literal]:
        """Non-empty labels in the scheme's language (or none), tagged ones first, then by text."""
        ok = [t for t in terms if isinstance(t, Literal) and self._lang_ok(t) and t.value]
        return sorted(ok, key=lambda t: (t.language is None, t.value))

    def _lang_filter(self, var: str) -> str:
        lang = str(Literal(self.scheme.language))
        return f'FILTER(LANG({var}) = "" || LANGMATCHES(LANG({var}), {lang}))'

    def _literal_variants(self, text: str) -> list[Literal]:
        """A value as the plain literal kgcite writes and as WikiData's language-tagged one."""
        return [Literal(text), Literal(text, language=self.scheme.language)]

    def _node_text(self, term: Term) -> str:
        return term.value if isinstance(term, Literal) else self.scheme.entity_id(term.value)

    def invalidate(self) -> None:
        """Forget cached facts about the data (call after the data changed)."""
        self._label_keys = None
        self._relations = None
        self._relation_label_cache.clear()
        self._relation_iri_cache.clear()

    # -- relations ----------------------------------------------------------------------------
    def _relation_labels(self, predicates: Iterable[str]) -> dict[str, str]:
        """Labels of predicate IRIs, read off the IRI or looked up once and cached."""
        missing = []
        for p in set(predicates):
            if p in self._relation_label_cache:
                continue
            label = self.scheme.relation_label(p)
            if label is None:
                missing.append(p)
            else:
                self._relation_label_cache[p] = label
        if missing:
            nodes = {self.scheme.relation_label_node(p): p for p in missing}
            q = (
                f"SELECT ?n ?l WHERE {{ {values('?n', map(NamedNode, nodes))} "
                f"?n <{RDFS_LABEL}> ?l . {self._lang_filter('?l')} }}"
            )
            for row in self._select(q):
                self._relation_label_cache.setdefault(nodes[row["n"].value], row["l"].value)
            for p in missing:  # no label in the data: fall back to the IRI's local name
                self._relation_label_cache.setdefault(p, p.rstrip("/#").rsplit("/", 1)[-1].rsplit("#", 1)[-1])
        return self._relation_label_cache

    def _relation_iris(self, label: str) -> tuple[str, ...]:
        """Predicate IRIs carrying a relation label (several when the data has synonyms)."""
        if label in self._relation_iri_cache:
            return self._relation_iri_cache[label]
        direct = self.scheme.relation_iri(label)
        if direct is not None:
            found: tuple[str, ...] = (direct,)
        else:
            q = f"SELECT DISTINCT ?n WHERE {{ {values('?l', self._literal_variants(label))} ?n <{RDFS_LABEL}> ?l }}"
            found = tuple(
                sorted(p for row in self._select(q) if (p := self.scheme.relation_from_label_node(row["n"].value)))
            )
        self._relation_iri_cache[label] = found
        return found

    def relations(self) -> list[str]:
        if self._relations is None:
            ns = str(Literal(self.scheme.relation_ns))
            q = f"SELECT DISTINCT ?p WHERE {{ ?s ?p ?o . FILTER(STRSTARTS(STR(?p), {ns})) }}"
            preds = [row["p"].value for row in self._select(q)]
            labels = self._relation_labels(preds)
            self._relations = sorted({labels[p] for p in preds})
        return list(self._relations)

    def common_values(
        self, relation: str, *, inverse: bool = False, limit: int = 10, scan: int = COMMON_SCAN
    ) -> list[tuple[str, int]]:
        """:meth:`~kgcite.kg.store.KGStore.common_values`, counted over at most ``scan`` triples of
        the relation (all of them below that; above it, the engine's first ``scan`` rows decide,
        and a graph that large is read the same way by one engine only)."""
        predicates = self._relation_iris(relation)
        if not predicates:
            return []
        rows = sorted(self._value_counts(predicates, inverse, limit, scan), key=lambda r: (-r[1], r[0].value))[:limit]
        named = self._entities([x.value for x, _ in rows if isinstance(x, NamedNode)])
        return [
            (x.value if isinstance(x, Literal) else (e.label if (e := named.get(x.value)) else self._node_text(x)), n)
            for x, n in rows
        ]

    def _value_counts(
        self, predicates: Sequence[str], inverse: bool, limit: int, scan: int
    ) -> list[tuple[NamedNode | Literal, int]]:
        """The ``limit`` commonest far ends of ``predicates``' triples, with counts, ties by IRI or
        text, counted in the engine: over the distinct triples the walk reads (no blank node at
        either end), as the embedded store counts them."""
        end = "?s" if inverse else "?o"
        q = (
            f"SELECT ?x (COUNT(*) AS ?n) WHERE {{ {{ SELECT DISTINCT ?s ?p ?o WHERE {{ "
            f"{values('?p', map(NamedNode, predicates))} ?s ?p ?o FILTER(!isBlank(?s) && !isBlank(?o)) }} "
            f"LIMIT {int(scan)} }} BIND({end} AS ?x) }} GROUP BY ?x ORDER BY DESC(?n) STR(?x) LIMIT {int(limit)}"
        )
        return [(r["x"], int(r["n"].value)) for r in self._select(q)]

    # -- entities -----------------------------------------------------------------------------
    def _entities(self, iris: Sequence[str]) -> dict[str, Entity]:
        """Label, aliases and types of several entities in one query."""
        if not iris:
            return {}
        preds = [NamedNode(RDFS_LABEL), NamedNode(SKOS_ALT_LABEL)]
        type_iri = self.scheme.type_relation_iri
        if type_iri:
            preds.append(NamedNode(type_iri))
        q = (
            f"SELECT ?e ?p ?v ?vl WHERE {{ {values('?e', map(NamedNode, iris))} {values('?p', preds)} "
            f"?e ?p ?v . OPTIONAL {{ ?v <{RDFS_LABEL}> ?vl . {self._lang_filter('?vl')} }} }}"
        )
        parts: dict[str, dict[str, list[Term]]] = {i: {"label": [], "alias": [], "type": []} for i in iris}
        for row in self._select(q):
            p = row["p"].value
            slot = "label" if p == RDFS_LABEL else "alias" if p == SKOS_ALT_LABEL else "type"
            v = row["v"]
            if slot == "type" and not isinstance(v, Literal):
                v = row["vl"] or v
            parts[row["e"].value][slot].append(v)
        out: dict[str, Entity] = {}
        for i, p in parts.items():
            entity = self._entity_from_parts(i, p["label"], p["alias"], p["type"])
            if entity is not None:
                out[i] = entity
        missing = [i for i in iris if i not in out]
        if missing:  # entities with neither label nor type still exist if they have any triple
            q = f"SELECT DISTINCT ?e WHERE {{ {values('?e', map(NamedNode, missing))} {{ ?e ?p ?o }} UNION {{ ?s ?p ?e }} }}"
            for row in self._select(q):
                out[row["e"].value] = Entity(
                    self.scheme.entity_id(row["e"].value), self.scheme.entity_id(row["e"].value)
                )
        return out

    def _entity_from_parts(
        self, entity_iri: str, labels: Sequence[Term], aliases: Sequence[Term], types: Sequence[Term]
    ) -> Entity | None:
        if not (labels or aliases or types):
            return None
        entity_id = self.scheme.entity_id(entity_iri)
        ok_labels = self._usable_labels(labels)
        label = ok_labels[0].value if ok_labels else entity_id
        alias_set = dict.fromkeys(t.value for t in ok_labels[1:] if t.value != label)
        alias_set.update(dict.fromkeys(t.value for t in aliases if self._lang_ok(t) and t.value != label))
        type_set = dict.fromkeys(self._node_text(t) for t in types if not isinstance(t, Literal) or self._lang_ok(t))
        return Entity(entity_id, label, tuple(sorted(alias_set)), tuple(sorted(type_set)))

    def _node(self, entity_id: str) -> NamedNode | None:
        """The entity's IRI node, or None for an id no IRI can spell (``http://evil>x``): such an
        entity is not in the graph, which is no error."""
        try:
            return NamedNode(self.scheme.entity_iri(entity_id))
        except ValueError:
            return None

    def entity(self, entity_id: str) -> Entity | None:
        node = self._node(entity_id)
        return self._entities([node.value]).get(node.value) if node is not None else None

    def _has_label_keys(self) -> bool:
        if self._label_keys is None:
            self._label_keys = self._ask(f"ASK {{ ?s <{LABEL_KEY}> ?o }}")
        return self._label_keys

    def entities_by_label(self, text: str, *, prefix: bool = False, limit: int = 50) -> list[Entity]:
        key = label_key(text)
        if not key:
            return []
        k = str(Literal(key))
        if self._has_label_keys():
            cond = (
                f"?e <{LABEL_KEY}> ?k . FILTER(STRSTARTS(?k, {k}))"
                if prefix
                else f"?e <{LABEL_KEY}> {k} . BIND({k} AS ?k)"
            )
        else:  # foreign data without kgcite's key index: compare lower-cased labels
            test = f"STRSTARTS(LCASE(STR(?l)), {k})" if prefix else f"LCASE(STR(?l)) = {k}"
            cond = (
                f"?e <{RDFS_LABEL}>|<{SKOS_ALT_LABEL}> ?l . {self._lang_filter('?l')} "
                f"FILTER({test}) BIND(LCASE(STR(?l)) AS ?k)"
            )
        q = (
            f"SELECT ?e (MIN(STRLEN(?k)) AS ?n) WHERE {{ {cond} FILTER(isIRI(?e)) }} "
            f"GROUP BY ?e ORDER BY ?n STR(?e) LIMIT {int(limit)}"
        )
        hits = [row["e"].value for row in self._select(q)]
        found = self._entities(hits)
        return [found[h] for h in hits if h in found]

    # -- triples ------------------------------------------------------------------------------
    def _triples(
        self,
        subjects: Sequence[Term] | None = None,
        predicates: Sequence[str] | None = None,
        objects: Sequence[Term] | None = None,
        limit: int | None = None,
    ) -> list[Triple]:
        """Relation triples matching the given candidate terms (None: any), with labels."""
        blocks = []
        if subjects is not None:
            blocks.append(values("?s", subjects))
        if predicates is not None:
            blocks.append(values("?p", map(NamedNode, predicates)))
        if objects is not None:
            blocks.append(values("?o", objects))
        pred_filter = (
            "" if predicates is not None else (f"FILTER(STRSTARTS(STR(?p), {Literal(self.scheme.relation_ns)}))")
        )
        # the triples first (with their LIMIT), then their labels: Virtuoso's cost estimate of the
        # flat form with a LIMIT outside the OPTIONALs once came out at 1,181 s and it refused the query
        q = (
            f"SELECT ?s ?sl ?p ?o ?ol WHERE {{ {{ SELECT ?s ?p ?o WHERE {{ {' '.join(blocks)} ?s ?p ?o . "
            f"{pred_filter} }}{f' LIMIT {int(limit)}' if limit else ''} }} "
            f"OPTIONAL {{ ?s <{RDFS_LABEL}> ?sl . {self._lang_filter('?sl')} }} "
            f"OPTIONAL {{ ?o <{RDFS_LABEL}> ?ol . {self._lang_filter('?ol')} }} }}"
        )
        rows = [(r["s"], r["sl"], r["p"].value, r["o"], r["ol"]) for r in self._select(q)]
        labels = self._relation_labels(p for _, _, p, _, _ in rows)
        return self._dedupe(
            (self._triple(s, sl, labels[p], o, ol) for s, sl, p, o, ol in rows if not isinstance(o, BlankNode)),
            limit,
        )

    def _triple(self, s: Term, s_label: Term | None, relation: str, o: Term, o_label: Term | None) -> Triple:
        subject_id = self.scheme.entity_id(s.value)
        if isinstance(o, Literal):
            return Triple(subject_id, s_label.value if s_label else subject_id, relation, o.value)
        object_id = self.scheme.entity_id(o.value)
        return Triple(
            subject_id,
            s_label.value if s_label else subject_id,
            relation,
            o_label.value if o_label else object_id,
            object_id,
        )

    @staticmethod
    def _dedupe(triples: Iterable[Triple], limit: int | None) -> list[Triple]:
        """One triple per (subject, relation, object) although labels may come in several rows."""
        out: dict[tuple[str, str, str | None, str], Triple] = {}
        for t in triples:
            out.setdefault((t.subject_id, t.relation, t.object_id, t.object_value if t.object_id is None else ""), t)
            if limit is not None and len(out) >= limit:
                break
        return list(out.values())

    def outgoing(self, entity_id: str) -> list[Triple]:
        node = self._node(entity_id)
        return in_order(self._triples(subjects=[node])) if node is not None else []

    def incoming(self, entity_id: str) -> list[Triple]:
        node = self._node(entity_id)
        return in_order(self._triples(objects=[node])) if node is not None else []

    def relation_degrees(self, entity_id: str) -> list[tuple[str, bool, int]]:
        node = self._node(entity_id)
        if node is None:
            return []
        ns = Literal(self.scheme.relation_ns)
        q = (
            f"SELECT ?p ?inv (COUNT(*) AS ?n) WHERE {{ "
            f'{{ {node} ?p ?o . BIND("out" AS ?inv) }} UNION {{ ?s ?p {node} . BIND("in" AS ?inv) }} '
            f"FILTER(STRSTARTS(STR(?p), {ns})) }} GROUP BY ?p ?inv"
        )  # strings, not booleans: Virtuoso returns a bound true as 1
        rows = [(r["p"].value, r["inv"].value == "in", int(r["n"].value)) for r in self._select(q)]
        labels = self._relation_labels(p for p, _, _ in rows)
        return sorted((labels[p], inv, n) for p, inv, n in rows)

    def one_hop(self, entity_id: str) -> Subgraph:
        entity = self.entity(entity_id)
        if entity is None:
            return Subgraph()
        return Subgraph((entity,), tuple(self.outgoing(entity_id)) + tuple(self.incoming(entity_id)))

    def _value_terms(self, value: str) -> list[Term]:
        """Objects a readable value can stand for: the literal, or entities with that label."""
        q = f"SELECT DISTINCT ?o WHERE {{ {values('?l', self._literal_variants(value))} ?o <{RDFS_LABEL}> ?l }}"
        return [*self._literal_variants(value), *(row["o"] for row in self._select(q))]

    def match(
        self,
        subject_id: str | None = None,
        relation: str | None = None,
        value: str | None = None,
        object_id: str | None = None,
        *,
        limit: int | None = None,
    ) -> list[Triple]:
        subjects = None
        if subject_id is not None:
            if (subject := self._node(subject_id)) is None:
                return []
            subjects = [subject]
        predicates = list(self._relation_iris(relation)) if relation is not None else None
        if predicates == []:
            return []
        objects: list[Term] | None = None
        if object_id is not None:
            if (obj := self._node(object_id)) is None:
                return []
            objects = [obj]
        if value is not None:
            candidates = self._value_terms(value)
            objects = candidates if objects is None else [o for o in objects if o in candidates]
            if not objects:
                return []
        return in_order(self._triples(subjects, predicates, objects, limit))


class HttpSparqlStore(SparqlStore):
    """A remote SPARQL 1.1 endpoint (Oxigraph, Virtuoso, QLever, WikiData Query Service...)."""

    def __init__(
        self,
        endpoint: str,
        scheme: IriScheme | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 2,
        headers: dict[str, str] | None = None,
        update_endpoint: str | None = None,
    ) -> None:
        super().__init__(scheme)
        self.endpoint = endpoint
        # where SPARQL updates go: the same URL (Virtuoso), or /update beside /query (Oxigraph, Fuseki)
        self.update_endpoint = update_endpoint or (
            endpoint.removesuffix("/query") + "/update" if endpoint.endswith("/query") else endpoint
        )
        self.retries = retries
        self.requests = 0  # HTTP requests made: what a question costs a remote store
        import httpx  # here: most runs query an embedded store, and httpx takes 60 ms to import

        self._client = httpx.Client(
            timeout=timeout,
            headers={"Accept": "application/sparql-results+json", "User-Agent": "kgcite", **(headers or {})},
        )

    def close(self) -> None:
        self._client.close()

    def _post(self, query: str, *, field: str = "query") -> bytes:
        """One request (``field``: ``query`` or ``update``), retried on a server error or a refused
        connection. A server that takes the connection and never answers (a stopped process) is
        not asked again: each retry waited the whole timeout, 92 s in all."""
        url = self.endpoint if field == "query" else self.update_endpoint
        import httpx

        delay = 0.5
        for attempt in range(self.retries + 1):
            self.requests += 1
            try:
                resp = self._client.post(url, data={field: query})
            except httpx.TimeoutException as exc:
                timeout = self._client.timeout.read
                raise KGError(f"SPARQL endpoint {url} did not answer within {timeout:g} s ({exc!r})") from exc
            except httpx.HTTPError as exc:
                if attempt == self.retries:
                    raise KGError(f"SPARQL endpoint {url} unreachable: {exc}") from exc
            else:
                if resp.status_code < 500 or attempt == self.retries:
                    if resp.status_code >= 400:
                        raise KGError(f"SPARQL endpoint {url} answered HTTP {resp.status_code}: {resp.text[:300]}")
                    return resp.content
            time.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")

    def relation_degrees_many(self, entity_ids: Sequence[str]) -> dict[str, list[tuple[str, bool, int]]]:
        """:meth:`relation_degrees` of many entities, :data:`BATCH` to a query."""
        out: dict[str, list[tuple[str, bool, int]]] = {e: [] for e in entity_ids}
        ns = Literal(self.scheme.relation_ns)
        for chunk in _chunks(list(out), BATCH):
            nodes = {self.scheme.entity_iri(e): e for e in chunk}
            q = (
                f"SELECT ?e ?p ?inv (COUNT(*) AS ?n) WHERE {{ {values('?e', map(NamedNode, nodes))} "
                f'{{ ?e ?p ?o . BIND("out" AS ?inv) }} UNION {{ ?s ?p ?e . BIND("in" AS ?inv) }} '
                f"FILTER(STRSTARTS(STR(?p), {ns})) }} GROUP BY ?e ?p ?inv"
            )
            rows = [
                (nodes[r["e"].value], r["p"].value, r["inv"].value == "in", int(r["n"].value)) for r in self._select(q)
            ]
            labels = self._relation_labels(p for _, p, _, _ in rows)
            for e, p, inv, n in rows:
                out[e].append((labels[p], inv, n))
        return {e: sorted(d) for e, d in out.items()}

    def match_many(
        self, entity_ids: Sequence[str], relation: str, *, inverse: bool, limit: int
    ) -> dict[str, list[Triple]]:
        """At most ``limit`` triples of ``relation`` from (``inverse``: to) each entity, :data:`BATCH`
        entities to a query; a batch whose rows reach its bound (a hub among them) is read entity
        by entity, each with its own ``LIMIT``."""
        out: dict[str, list[Triple]] = {e: [] for e in entity_ids}
        predicates = list(self._relation_iris(relation))
        if not predicates:
            return out
        for chunk in _chunks(list(out), BATCH):
            nodes = [NamedNode(self.scheme.entity_iri(e)) for e in chunk]
            bound = len(chunk) * limit
            found = (
                self._triples(None, predicates, nodes, bound + 1)
                if inverse
                else self._triples(nodes, predicates, None, bound + 1)
            )
            if len(found) > bound:
                for e in chunk:
                    out[e] = self.match(**{"object_id" if inverse else "subject_id": e}, relation=relation, limit=limit)
                continue
            for t in in_order(found):
                key = t.object_id if inverse else t.subject_id
                if key in out and len(out[key]) < limit:
                    out[key].append(t)
        return out

    def add_quads(
        self,
        quads: Iterable[Quad],
        *,
        graph: str = KGCITE_GRAPH,
        batch: int = 250,
        progress: bool = False,
        label_keys: bool = True,
    ) -> int:
        """Insert quads (with label keys, unless told not to) into ``graph`` by SPARQL ``INSERT
        DATA``, ``batch`` triples a request (Virtuoso refuses a request that compiles to over 10,000
        lines of SQL; 250 was also the fastest measured); returns how many were sent. Terms are
        written in N-Triples syntax by pyoxigraph, so no text is ever spliced into the request.
        Loading is idempotent (RDF is a set)."""
        sent = 0
        chunk: list[str] = []
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(desc=f"insert into {self.update_endpoint}", unit=" quads", unit_scale=True)
        for quad in with_label_keys(quads) if label_keys else quads:
            chunk.append(ntriple(quad))
            if len(chunk) >= batch:
                sent += self._insert(chunk, graph)
                chunk = []
                if bar is not None:
                    bar.update(batch)
        if chunk:
            sent += self._insert(chunk, graph)
            if bar is not None:
                bar.update(len(chunk))
        if bar is not None:
            bar.close()
        self.invalidate()
        return sent

    def sees_graph(self, graph: str = KGCITE_GRAPH) -> bool:
        """Whether queries, which name no graph, see a triple written into ``graph``: an endpoint
        whose default graph is not the union of its graphs (Oxigraph unless started with
        ``--union-default-graph``) loads without a complaint and then finds nothing."""
        rows = self._select(f"SELECT ?s ?p ?o WHERE {{ GRAPH <{NamedNode(graph).value}> {{ ?s ?p ?o }} }} LIMIT 1")
        if not rows:
            return True
        row = rows[0]
        return self._ask(f"ASK {{ {row['s']} {row['p']} {row['o']} }}")

    def _insert(self, triples: list[str], graph: str) -> int:
        self._post(
            f"INSERT DATA {{ GRAPH <{NamedNode(graph).value}> {{\n" + "\n".join(triples) + "\n} }", field="update"
        )
        return len(triples)

    def _results(self, query: str) -> QuerySolutions | QueryBoolean:
        body = self._post(query)
        try:
            return parse_query_results(body, format=QueryResultsFormat.JSON)
        except (SyntaxError, ValueError) as exc:
            raise KGError(f"SPARQL endpoint {self.endpoint} sent unreadable results: {exc}") from exc

    def _select(self, query: str) -> list[QuerySolution]:
        res = self._results(query)
        if not isinstance(res, QuerySolutions):
            raise KGError(f"SPARQL endpoint {self.endpoint} answered a SELECT with a boolean")
        return list(res)

    def _ask(self, query: str) -> bool:
        return bool(self._results(query))
