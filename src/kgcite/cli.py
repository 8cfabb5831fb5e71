"""The ``kgcite`` command line."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from kgcite.evaluate.citation import CitationReport
from kgcite.evaluate.records import AnswerRecord, read_records
from kgcite.evaluate.report import citation_report, format_citation_report, format_table
from kgcite.kg import EmbeddedStore, Entity, InputError, KGError, SparqlStore, Subgraph, open_store, scheme_named
from kgcite.kg.loaders import shipped_biokalma


def _sample_answers() -> Path:
    return Path(str(resources.files("kgcite") / "data" / "samples" / "biokalma_sample_answers.jsonl"))


def _biokalma_store(location: str | None, *, quiet: bool = False) -> EmbeddedStore:
    """The shipped BioKaLMA graph: reopened from ``location`` if loaded there before, else loaded."""
    store = EmbeddedStore(location)
    if len(store):
        if not quiet:
            print(f"reopened {location}: {len(store):,} quads, nothing reloaded", file=sys.stderr)
        return store
    t0 = time.perf_counter()
    n = sum(store.load(p) for p in shipped_biokalma())
    if not quiet:
        where = location or "memory"
        print(
            f"loaded BioKaLMA into {where}: {n:,} quads read, {len(store):,} stored, {time.perf_counter() - t0:.2f} s",
            file=sys.stderr,
        )
    return store


def _open(args: argparse.Namespace) -> SparqlStore:
    if getattr(args, "endpoint", None):
        return open_store(args.endpoint, args.scheme)
    if getattr(args, "store", None):
        if not Path(args.store).exists():
            raise InputError(
                args.store, None, None, "no such store folder (create one with `kgcite kg load FILE --store DIR`)"
            )
        return open_store(args.store, args.scheme)
    return _biokalma_store(None, quiet=True)


# -- kg ---------------------------------------------------------------------------------------


def cmd_kg_load(args: argparse.Namespace) -> int:
    """Load files one by one: each file goes in whole or not at all, earlier files stay."""
    store = EmbeddedStore(args.store, scheme_named(args.scheme))
    before = len(store)
    try:
        for path in args.files:
            t0 = time.perf_counter()
            try:
                n = store.load(path, progress=sys.stderr.isatty())
            except InputError:
                print(f"kgcite: nothing of {path} was loaded; files before it stay in {args.store}", file=sys.stderr)
                raise
            print(f"{path}: {n:,} quads read in {time.perf_counter() - t0:.2f} s")
    finally:
        print(f"store {args.store}: {len(store):,} quads ({len(store) - before:+,})")
        store.close()
    return 0


def _entity_json(entity: Entity, graph: Subgraph) -> dict[str, object]:
    return {
        "id": entity.id,
        "label": entity.label,
        "aliases": list(entity.aliases),
        "types": list(entity.types),
        "outgoing": [[t.relation, t.object_value, t.object_id] for t in graph.triples if t.subject_id == entity.id],
        "incoming": [[t.subject_id, t.subject_label, t.relation] for t in graph.triples if t.subject_id != entity.id],
    }


def _entity_text(entity: Entity, graph: Subgraph) -> str:
    head = f"{entity.label} [{entity.id}]" + (f"  ({', '.join(entity.types)})" if entity.types else "")
    lines = [head]
    if entity.aliases:
        lines.append(f"aliases: {'; '.join(entity.aliases)}")
    out = [
        (t.relation, t.object_value + (f" [{t.object_id}]" if t.object_id and t.object_id != t.object_value else ""))
        for t in graph.triples
        if t.subject_id == entity.id
    ]
    inc = [(f"{t.subject_label} [{t.subject_id}]", t.relation) for t in graph.triples if t.subject_id != entity.id]
    if out:
        lines.append(format_table(["relation", "value"], sorted(out)))
    if inc:
        lines.append(f"\nincoming ({len(inc)}):")
        lines.append(format_table(["subject", "relation"], sorted(inc)))
    return "\n".join(lines)


def cmd_kg_show(args: argparse.Namespace) -> int:
    with _open(args) as store:
        found = store.entity(args.entity)
        entities = [found] if found else store.entities_by_label(args.entity, prefix=args.prefix, limit=args.limit)
        if not entities:
            print(
                f"kgcite: no entity with id or {'label prefix' if args.prefix else 'label'} {args.entity!r}",
                file=sys.stderr,
            )
            return 1
        shown = [(e, store.one_hop(e.id)) for e in entities]
    if args.json:
        print(json.dumps([_entity_json(e, g) for e, g in shown], ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(_entity_text(e, g) for e, g in shown))
    return 0


# -- eval -------------------------------------------------------------------------------------


def _print_report(result: tuple[CitationReport, list[InputError]], args: argparse.Namespace) -> None:
    report, skipped = result
    for err in skipped:
        print(f"kgcite: skipped {err}", file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(format_citation_report(report, args.precision_unit))


def cmd_eval_citations(args: argparse.Namespace) -> int:
    records = read_records(args.answers, skip_bad=args.skip_bad)
    _print_report(citation_report(records, args.precision_unit), args)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Load the shipped BioKaLMA graph and score the shipped sample answers against it."""
    store = _biokalma_store(args.store)

    def graph_from_store(rec: AnswerRecord) -> Subgraph:
        return Subgraph.merge(store.one_hop(e.id) for e in rec.graph.entities)

    crane = store.one_hop("Q206534")
    info = sys.stderr if args.json else sys.stdout
    print(
        f"{len(store.relations())} relations; e.g. Q206534 has {len(crane)} triples, "
        f"father = {next(t.object_value for t in crane if t.relation == 'father')}",
        file=info,
    )
    print(f"\nCitation quality of the sample answers ({_sample_answers().name}), G read from the store:\n", file=info)
    _print_report(citation_report(read_records(_sample_answers()), args.precision_unit, graph_from_store), args)
    store.close()
    return 0


# -- parser -----------------------------------------------------------------------------------


def _store_options(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--store", metavar="DIR", help="embedded store folder (default: the shipped BioKaLMA graph, in memory)"
    )
    where.add_argument("--endpoint", metavar="URL", help="a SPARQL 1.1 query endpoint instead of an embedded store")
    p.add_argument(
        "--scheme",
        choices=["generic", "wikidata"],
        default="generic",
        help="IRI spelling of entities and relations (wikidata: wd:/wdt: with rdfs:label)",
    )


def _unit_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--precision-unit",
        choices=["citation", "distinct"],
        default="citation",
        help="count precision hits per citation (paper) or once per distinct knowledge (authors' scripts)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kgcite",
        description="Verifiable question answering over knowledge graphs: citations to KG triples, [NA], and their metrics.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = sub.add_parser("demo", help="load the shipped BioKaLMA graph and score the shipped sample answers")
    demo.add_argument(
        "--store", metavar="DIR", help="keep the store on disk here; a second run reopens it without reloading"
    )
    _unit_option(demo)
    demo.set_defaults(func=cmd_demo)

    kg = sub.add_parser("kg", help="load and inspect knowledge graphs").add_subparsers(
        dest="kg_command", required=True, metavar="ACTION"
    )
    load = kg.add_parser(
        "load",
        help="load graph files into an on-disk embedded store",
        description="Formats by extension: .json BioKaLMA, .txt/.tsv head|relation|tail (MetaQA kb.txt), "
        ".nt/.ttl/.nq/.trig RDF. Loading is additive and idempotent.",
    )
    load.add_argument("files", nargs="+", metavar="FILE")
    load.add_argument("--store", metavar="DIR", required=True, help="store folder (created if missing)")
    load.add_argument(
        "--scheme",
        choices=["generic", "wikidata"],
        default="generic",
        help="IRI spelling used for BioKaLMA/TSV input (RDF input is loaded as written)",
    )
    load.set_defaults(func=cmd_kg_load)

    show = kg.add_parser("show", help="an entity (by id or label) with its one-hop triples")
    show.add_argument("entity", metavar="ENTITY", help="entity id (Q206534) or label (Stephen Crane, case-insensitive)")
    show.add_argument("--prefix", action="store_true", help="match labels and aliases by prefix")
    show.add_argument("--limit", type=int, default=5, help="at most this many entities for a label (default 5)")
    show.add_argument("--json", action="store_true")
    _store_options(show)
    show.set_defaults(func=cmd_kg_show)

    ev = sub.add_parser("eval", help="evaluate answers").add_subparsers(
        dest="eval_command", required=True, metavar="METRIC"
    )
    cit = ev.add_parser(
        "citations",
        help="KaLMA citation correctness, precision, recall, F1 (micro and macro)",
        description='Each JSONL line: {"id", "question", "answer", "kg": [BioKaLMA entity dicts], '
        '"minimum_knowledge": [[qid, property, value], ...]}.',
    )
    cit.add_argument("--answers", required=True, metavar="FILE.jsonl")
    cit.add_argument(
        "--skip-bad", action="store_true", help="skip (and count) bad lines instead of stopping at the first"
    )
    _unit_option(cit)
    cit.set_defaults(func=cmd_eval_citations)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as exc:
        print(f"kgcite: error: {exc}", file=sys.stderr)
        return 2
    except KGError as exc:
        print(f"kgcite: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
