"""The everyday commands: ask, run, demo, kg load/show, eval citations/answers."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kgcite.cli.common import (
    format_attributed,
    graph_options,
    json_option,
    model_options,
    open_graph,
    open_kg,
    positive_int,
    runtime_from_args,
    scheme_option,
    shipped_biokalma_store,
    store_options,
    unit_option,
)
from kgcite.cli.quotes import add_quote_options
from kgcite.errors import InputError, KGError, LLMError, TopicError, UsageError
from kgcite.evaluate.metrics.citation import CitationReport
from kgcite.evaluate.records.answer_file import AnswerRecord, read_records
from kgcite.evaluate.records.report import citation_report, format_citation_report, format_table, format_timings
from kgcite.generate.pipeline import GroundedGenerator
from kgcite.jsonl import free_name, move_aside
from kgcite.kg import EmbeddedStore, Entity, HttpSparqlStore, SparqlStore, Subgraph, scheme_named
from kgcite.kg.hubs import Neighbourhood, capped_one_hop
from kgcite.kg.loaders import file_kind, graph_quads, read_named, shipped_data
from kgcite.kg.model import named
from kgcite.kg.namesakes import likely_namesakes, qualified, qualified_names
from kgcite.kg.rdf import write_ntriples
from kgcite.kg.sparql import KGCITE_GRAPH
from kgcite.runs import append_answers, dataset, finished_ids, qa_record, run
from kgcite.runtime import Runtime


def _sample_answers() -> Path:
    return shipped_data("samples", "biokalma_sample_answers.jsonl")


def _load_endpoint(args: argparse.Namespace) -> int:
    """Insert the files into a SPARQL endpoint by SPARQL updates, file by file."""
    scheme = scheme_named(args.scheme)
    with HttpSparqlStore(args.endpoint, scheme, update_endpoint=args.update_endpoint) as store:
        for path in args.files:
            t0 = time.perf_counter()
            quads = list(graph_quads(path, scheme))  # a bad line is found before anything is sent
            n = store.add_quads(quads, progress=sys.stderr.isatty())
            print(
                f"{path}: {len(quads):,} quads read, {n:,} sent (with label keys) to {store.update_endpoint} "
                f"in {time.perf_counter() - t0:.2f} s"
            )
        if not store.sees_graph():
            raise KGError(
                f"{args.endpoint} does not show in its queries the named graph kgcite loaded into "
                f"(<{KGCITE_GRAPH}>): its default graph is not the union of its graphs, so every question would "
                "find no entity; start Oxigraph with --union-default-graph (or make the endpoint's default graph "
                "the union of all graphs) and ask again: the data is loaded"
            )
    return 0


def _note_namesakes(path: str) -> None:
    """In a TSV or CSV graph an entity's text is its id: say where two entities seem merged."""
    if file_kind(path) not in ("tsv", "csv"):
        return
    triples = list(read_named(path))
    alike = qualified_names(n for t in triples for n in (t.subject_label, t.object_value))
    for name, labels in list(alike.items())[:3]:
        print(
            f"note: {path}: {len(labels)} entities are named {name!r} with a qualifier ({'; '.join(labels)}): "
            f"a question naming {name!r} is answered for each",
            file=sys.stderr,
        )
    found = likely_namesakes(triples)
    for f in found[:3]:
        print(f"note: {path}: {f.describe()}", file=sys.stderr)
    if found:
        print(
            "note: each entity of a TSV or CSV graph is named by its text, so namesakes are one entity; "
            "to keep them apart, write distinct names or use RDF or BioKaLMA JSON with ids (docs/graphs.md, Ids)",
            file=sys.stderr,
        )


def cmd_kg_load(args: argparse.Namespace) -> int:
    """Load files one by one: each file goes in whole or not at all, earlier files stay; a store
    that the first file failed to make is not left behind as an empty folder."""
    if args.endpoint:
        return _load_endpoint(args)
    made = not Path(args.store).exists()
    store = EmbeddedStore(args.store, scheme_named(args.scheme))
    before, said = len(store), False
    try:
        for path in args.files:
            t0 = time.perf_counter()
            try:
                n = store.load(path, progress=sys.stderr.isatty())
            except InputError:
                kept = "no store was made" if made and not len(store) else f"files before it stay in {args.store}"
                print(f"kgcite: nothing of {path} was loaded; {kept}", file=sys.stderr)
                raise
            print(
                f"{path}: {n:,} quads read in {time.perf_counter() - t0:.2f} s "
                "(a quad is one RDF statement: each fact is one, and so are an entity's label and kind, "
                "read again on every line that names it)"
            )
            _note_namesakes(path)
        _remember_label_tags(store)
        _say_store(args.store, store, before)
        said = True
        if not args.no_prepare and len(store):
            _prepare_search(store)  # after the store's line: the load is done, this is for later asks
    finally:
        total = len(store)
        if not said and not (made and not total):
            _say_store(args.store, store, before)
        store.close()
        if made and not total:
            shutil.rmtree(args.store, ignore_errors=True)
    return 0


def _say_store(folder: str, store: EmbeddedStore, before: int) -> None:
    total = len(store)
    print(
        f"store {folder}: {total:,} quads, {total - before:+,} by this load (a quad read twice, or already "
        "there, is stored once; the store adds a label quad per relation)"
    )


def _prepare_search(store: SparqlStore) -> None:
    """Encode the graph's relation chains now, into the vector cache: a later `ask` then spends
    its time on the question, not on chains it meets for the first time."""
    from kgcite.runtime import Runtime, RuntimeConfig, default_cache_path

    paths = Runtime(RuntimeConfig(cache=default_cache_path()), store=store).paths
    if paths is None:
        return
    bar: Any = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(desc="preparing the graph search", unit=" chains", mininterval=0.5)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    prepared = paths.prepare(progress if bar is not None else None)
    if bar is not None:
        bar.close()
    print(
        f"graph search prepared: {prepared.chains:,} relation chains, {prepared.new:,} encoded now in "
        f"{prepared.seconds:.1f} s (kept in {default_cache_path('vectors.sqlite')}; --no-prepare skips this)"
    )


def _remember_label_tags(store: SparqlStore) -> None:
    """Tag the store's relation labels now, once: a later `ask` then verbalises without spaCy."""
    from kgcite.generate.verbalize import learn_relations

    learn_relations(store.relations())


def cmd_kg_export(args: argparse.Namespace) -> int:
    """The store's triples (every named graph merged) as one N-Triples file, written whole then renamed."""
    out = Path(args.out)
    t0 = time.perf_counter()
    with open_kg(args.store) as store:
        if not isinstance(store, EmbeddedStore):
            raise InputError(args.store, None, None, "is not an embedded store folder")
        n = write_ntriples(store.store.quads_for_pattern(None, None, None), out)
    print(f"{out}: {n:,} triples (N-Triples) in {time.perf_counter() - t0:.1f} s")
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
    head = entity.named("[]") + (f"  ({', '.join(entity.types)})" if entity.types else "")
    lines = [head]
    if entity.aliases:
        lines.append(f"aliases: {'; '.join(entity.aliases)}")
    out = [
        (t.relation, t.object_value + (f" [{t.object_id}]" if t.object_id and t.object_id != t.object_value else ""))
        for t in graph.triples
        if t.subject_id == entity.id
    ]
    inc = [(named(t.subject_label, t.subject_id, "[]"), t.relation) for t in graph.triples if t.subject_id != entity.id]
    if out:
        lines.append(format_table(["relation", "value"], sorted(out)))
    if inc:
        lines.append(f"\nincoming ({len(inc)}):")
        lines.append(format_table(["subject", "relation"], sorted(inc)))
    return "\n".join(lines)


def cmd_kg_show(args: argparse.Namespace) -> int:
    with open_graph(args) as store:
        found = store.entity(args.entity)
        entities = [found] if found else store.entities_by_label(args.entity, prefix=args.prefix, limit=args.limit)
        if not entities and not args.prefix:  # namesakes written "Samuel Idris (editor)": each is shown
            alike = store.entities_by_label(args.entity + " (", prefix=True, limit=args.limit)
            entities = [e for e in alike if qualified(e.label, args.entity)]
            if entities:
                names = "; ".join(e.label for e in entities)
                print(f"kgcite: {args.entity!r} names {len(entities)} entities: {names}", file=sys.stderr)
        if not entities:
            print(
                f"kgcite: no entity with id or {'label prefix' if args.prefix else 'label'} {args.entity!r}",
                file=sys.stderr,
            )
            _note_unseen_graph(store)
            return 1
        shown = [(e, capped_one_hop(store, e.id, SHOWN_PER_RELATION)) for e in entities]
    if args.json:
        print(json.dumps([_entity_json(e, h.graph) | _cut_json(h) for e, h in shown], ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(_entity_text(e, h.graph) + _cut_text(h) for e, h in shown))
    return 0


#: Triples of one relation ``kg show`` prints; a hub's others are counted.
SHOWN_PER_RELATION = 1_000


def _cut_json(around: Neighbourhood) -> dict[str, object]:
    return {"not_shown": [[r, inverse, n - SHOWN_PER_RELATION] for (r, inverse), n in sorted(around.cut.items())]}


def _cut_text(around: Neighbourhood) -> str:
    return "".join(
        f"\n(… and {n - SHOWN_PER_RELATION:,} more {'incoming ' if inverse else ''}{r} triples not shown)"
        for (r, inverse), n in sorted(around.cut.items())
    )


def _print_report(result: tuple[CitationReport, list[InputError]], args: argparse.Namespace) -> None:
    report, skipped = result
    for err in skipped:
        print(f"kgcite: skipped {err}", file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(format_citation_report(report, args.precision_unit))


def cmd_eval_citations(args: argparse.Namespace) -> int:
    records = read_records(args.answers, skip_bad=args.skip_bad, answer_field=args.answer_field)
    _print_report(citation_report(records, args.precision_unit), args)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Load the shipped BioKaLMA graph and score the shipped sample answers against it."""
    store = shipped_biokalma_store(args.store)

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


def _note_unused_model(args: argparse.Namespace) -> None:
    """A model or grammar named without --rewrite would silently go unused: say so."""
    if args.mode != "grounded" or args.rewrite:
        return
    quoted = getattr(args, "source", "kg") != "kg"
    chooses = getattr(args, "choose", "score") == "llm" and not quoted  # the model picks the chain
    if (args.model or args.base_url or (quoted and args.constrained)) and not chooses:
        what = "document answers are extractive" if quoted else "grounded answers are template text"
        print(f"kgcite: note: {what}; add --rewrite to let the model phrase them", file=sys.stderr)


def cmd_ask(args: argparse.Namespace) -> int:
    if not args.question.strip():
        raise UsageError.of(
            "QUESTION", 'empty question: ask something, e.g. kgcite ask "Who was Stephen Crane\'s father?"'
        )
    try:
        args.question.encode("utf-8")
    except UnicodeEncodeError as exc:  # invalid UTF-8 on the command line, or a lone surrogate
        raise UsageError.of(
            "QUESTION", f"not valid text at character {exc.start} (invalid UTF-8 or a lone surrogate)"
        ) from exc
    runtime = runtime_from_args(args)
    _note_unused_model(args)
    if runtime.store is None and args.source == "kg":  # an answer about the wrong graph looks like a missing fact
        print(
            "kgcite: note: no --kg, --store or --endpoint: answering over the shipped BioKaLMA graph", file=sys.stderr
        )
    if args.source != "kg" or args.docs or args.search_url:
        from kgcite.cli.quotes import cmd_ask_quotes

        if args.source == "kg":
            raise UsageError.of("--source", "--docs/--search-url need --source docs or both")
        return cmd_ask_quotes(args, runtime)
    generator = runtime.generator(args.mode)
    try:
        result = generator.answer_many([args.question], [args.topic] if args.topic else None)[0]
    except TopicError as exc:
        raise UsageError.of("--topic", str(exc)) from exc
    if isinstance(result, LLMError):
        raise result
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(format_attributed(result))
        print(f"\n{result.mode} · {result.model} · {format_timings(result.timings)}", file=sys.stderr)
    if not result.linked:
        _note_unseen_graph(runtime.kg)
    return 0


def _note_unseen_graph(store: object) -> None:
    """Nothing found over an endpoint whose queries cannot see the graph kgcite loaded: say why."""
    if isinstance(store, HttpSparqlStore) and not store.sees_graph():
        print(
            f"kgcite: note: {store.endpoint} does not show in its queries the graph `kg load` wrote "
            f"(<{KGCITE_GRAPH}>); start Oxigraph with --union-default-graph",
            file=sys.stderr,
        )


def _qa_runner(args: argparse.Namespace, runtime: Runtime) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """(answer a batch, its record) for a dataset with answers or topics: path reasoning."""
    generator = runtime.generator("grounded")
    if not isinstance(generator, GroundedGenerator) or generator.planner.paths is None:
        raise UsageError.of(
            "--path-scorer",
            "a dataset with answers is answered by relation paths: use zero-shot or a trained export",
        )
    graph = args.kg or args.store or args.endpoint or ("metaqa" if args.dataset.startswith("metaqa") else "biokalma")
    return (
        lambda batch: generator.answer_many(
            [it.question for it in batch], [it.topic or None for it in batch], strict=False
        ),
        lambda item, result: qa_record(item, result, graph),
    )


def cmd_eval_answers(args: argparse.Namespace) -> int:
    from kgcite.evaluate.metrics.answers import answer_metrics, held_by
    from kgcite.jsonl import read_jsonl

    rows = [obj for _, obj in read_jsonl(Path(args.answers))]
    for i, row in enumerate(rows, 1):
        if "predicted" not in row or "answers" not in row:
            raise InputError(
                args.answers,
                i,
                "predicted" if "predicted" not in row else "answers",
                "missing: eval answers reads `kgcite run` output of a dataset with answers",
            )
    graphs = {args.kg} if args.kg else {str(r.get("graph") or "") for r in rows}
    in_graph = None
    if len(graphs) == 1 and (where := graphs.pop()):
        in_graph = held_by(_open_graph_name(where))
    metrics = answer_metrics(rows, in_graph)
    if args.json:
        print(json.dumps(metrics, indent=1))
    else:
        print(
            format_table(
                ["measure", "value"],
                [[k, "n/a" if v is None else (f"{v:.3f}" if isinstance(v, float) else v)] for k, v in metrics.items()],
            )
        )
    return 0


def _open_graph_name(where: str) -> SparqlStore:
    """A run's ``graph``: metaqa / biokalma (shipped), a graph file or a store folder."""
    if where == "metaqa":
        return open_kg(str(shipped_data("metaqa", "kb.txt")))
    if where == "biokalma":
        return shipped_biokalma_store(None, quiet=True)
    return open_kg(where)


def cmd_run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    items = dataset(args.dataset)[: args.limit or None]
    qa = any(it.answers or it.topic for it in items)
    if qa and args.dataset.startswith("metaqa") and not (args.kg or args.store or args.endpoint):
        args.kg = str(shipped_data("metaqa", "kb.txt"))
    runtime = runtime_from_args(args)
    _note_unused_model(args)
    out = Path(args.out)
    if args.dataset.endswith(".jsonl") and out.exists() and out.samefile(args.dataset):
        raise UsageError(f"--out {out} is the --dataset file; answers go to a file of their own")
    if args.force and out.is_file():
        backup = free_name(out.with_name(out.name + ".bak"))
        move_aside(out, backup)
        print(f"kgcite: {out} moved to {backup}", file=sys.stderr)
    done_before = len(finished_ids(out) & {it.id for it in items})
    bar = tqdm(total=len(items), initial=done_before, desc=f"{args.mode} {args.dataset}", unit=" q", disable=None)
    failures = 0

    def progress(n: int, failed: int) -> None:
        nonlocal failures
        failures += failed
        bar.update(n)
        bar.set_postfix(failed=failures)

    if qa:
        answer_batch, to_record = _qa_runner(args, runtime)
        skipped, answered, failed = append_answers(
            items, out, answer_batch, to_record, batch_size=args.batch_size, on_progress=progress
        )
    else:
        skipped, answered, failed = run(
            runtime.generator(args.mode), items, out, batch_size=args.batch_size, on_progress=progress
        )
    bar.close()
    print(f"{out}: {answered} answered, {failed} failed, {skipped} already done (of {len(items)})")
    if failed and not answered:
        print(f"kgcite: every item of this run failed (the errors are in {out}); a rerun retries them", file=sys.stderr)
        return 1
    print(f"score it: kgcite eval {'answers' if qa else 'citations'} --answers {out}")
    return 0


def register(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:  # type: ignore[type-arg]
    """Add these commands; returns ``kgcite eval``'s subcommands for the other modules' metrics."""
    demo = sub.add_parser("demo", help="load the shipped BioKaLMA graph and score the shipped sample answers")
    demo.add_argument(
        "--store", metavar="DIR", help="keep the store on disk here; a second run reopens it without reloading"
    )
    unit_option(demo)
    demo.set_defaults(func=cmd_demo)

    ask = sub.add_parser(
        "ask", help="answer a question with citations to knowledge-graph triples and/or document quotes"
    )
    ask.add_argument(
        "question", metavar="QUESTION", help='the question, quoted: kgcite ask "Who was Stephen Crane\'s father?"'
    )
    json_option(ask, "the answer as JSON")
    model_options(ask)
    graph_options(ask)
    add_quote_options(ask)
    ask.set_defaults(func=cmd_ask)

    rn = sub.add_parser(
        "run",
        help="answer a dataset into a resumable JSONL file",
        description="Killed runs resume: a rerun skips answered items and retries failed ones.",
    )
    rn.add_argument(
        "--dataset",
        default="biokalma",
        help="biokalma, biokalma:specific, biokalma:general, metaqa:1-hop|2-hop|3-hop[:dev] (over the shipped "
        "MetaQA graph unless --kg/--store says otherwise), or a JSONL file: "
        '{"id", "question", "answers": [labels], "topic": [labels or ids]} (answers and topic optional); default biokalma',
    )
    rn.add_argument(
        "--out",
        required=True,
        metavar="FILE.jsonl",
        help="answers are appended here; an existing file must be kgcite's own answers (a rerun resumes it)",
    )
    rn.add_argument(
        "--force",
        action="store_true",
        help="--out exists but is not kgcite's answers: move it to FILE.bak (FILE.bak.1… if that exists) and start afresh",
    )
    rn.add_argument("--limit", type=positive_int, help="only the first N items")
    rn.add_argument("--batch-size", type=positive_int, default=8, help="questions per batch (default 8)")
    model_options(rn)
    graph_options(rn)
    rn.set_defaults(func=cmd_run)

    kg = sub.add_parser("kg", help="load and inspect knowledge graphs").add_subparsers(
        dest="kg_command", required=True, metavar="ACTION"
    )
    load = kg.add_parser(
        "load",
        help="load graph files into an on-disk embedded store",
        description="Formats by extension: .json BioKaLMA, .txt/.tsv head<TAB>relation<TAB>tail or "
        "head|relation|tail (MetaQA kb.txt), .csv head,relation,tail, .nt/.ttl/.nq/.trig RDF; in TSV and CSV a "
        "header line and lines starting with # are skipped (docs/graphs.md). Loading is additive and idempotent.",
    )
    load.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="graph files: BioKaLMA JSON, TSV or CSV triples, N-Triples/Turtle/N-Quads/TriG",
    )
    into = load.add_mutually_exclusive_group(required=True)
    into.add_argument("--store", metavar="DIR", help="store folder (created if missing)")
    into.add_argument(
        "--endpoint",
        metavar="URL",
        help="a SPARQL 1.1 endpoint that accepts updates (Virtuoso: grant SPARQL_UPDATE; Oxigraph, Fuseki: "
        "their /update); triples go into the graph urn:kgcite:graph. For tens of millions of triples use "
        "the engine's own bulk loader on an N-Triples file (docs/scaling.md)",
    )
    load.add_argument(
        "--update-endpoint",
        metavar="URL",
        help="where updates go when not --endpoint itself (default: --endpoint, or its /query replaced by /update)",
    )
    scheme_option(load, "IRI spelling used for BioKaLMA/TSV input (RDF input is loaded as written)")
    load.add_argument(
        "--no-prepare",
        action="store_true",
        help="do not encode the graph's relation chains for the graph search now (by default a store load "
        "does, once per graph and model, so that questions after it do not pay for it; seconds for a "
        "graph of a few dozen relations, up to 10,000 chains)",
    )
    load.set_defaults(func=cmd_kg_load)

    export = kg.add_parser(
        "export",
        help="write a store as N-Triples, label keys included: the file a SPARQL engine's bulk loader reads",
        description="For tens of millions of triples, load a remote engine with its own bulk loader: kgcite kg "
        "export --store DIR --out graph.nt, then (Virtuoso) ld_dir('FOLDER', 'graph.nt', 'urn:kgcite:graph'); "
        "rdf_loader_run(); checkpoint; in isql-vt. See docs/scaling.md.",
    )
    export.add_argument("--store", metavar="DIR", required=True, help="an embedded store folder")
    export.add_argument("--out", metavar="FILE.nt", required=True, help="the N-Triples file to write (replaced)")
    export.set_defaults(func=cmd_kg_export)

    show = kg.add_parser("show", help="an entity (by id or label) with its one-hop triples")
    show.add_argument("entity", metavar="ENTITY", help="entity id (Q206534) or label (Stephen Crane, case-insensitive)")
    show.add_argument("--prefix", action="store_true", help="match labels and aliases by prefix")
    show.add_argument(
        "--limit", type=positive_int, default=5, help="at most this many entities for a label (default 5)"
    )
    json_option(show, "the entity and its triples as JSON")
    store_options(show)
    show.set_defaults(func=cmd_kg_show)

    ev: argparse._SubParsersAction = sub.add_parser("eval", help="evaluate answers").add_subparsers(  # type: ignore[type-arg]
        dest="eval_command", required=True, metavar="METRIC"
    )
    cit = ev.add_parser(
        "citations",
        help="KaLMA citation correctness, precision, recall, F1 (micro and macro)",
        description='Each JSONL line: {"id", "question", "answer", "kg": [BioKaLMA entity dicts], '
        '"minimum_knowledge": [[qid, property, value], ...]}.',
    )
    cit.add_argument("--answers", required=True, metavar="FILE.jsonl", help="answers written by `kgcite run`")
    cit.add_argument(
        "--skip-bad", action="store_true", help="skip (and count) bad lines instead of stopping at the first"
    )
    cit.add_argument(
        "--answer-field",
        default="answer",
        metavar="FIELD",
        help="score another text field of each line, e.g. raw_output (a model's answer before repair); default answer",
    )
    unit_option(cit)
    cit.set_defaults(func=cmd_eval_citations)
    ans = ev.add_parser(
        "answers",
        help="question answering: Hits@1, answer precision/recall/F1, citation correctness, path citation, [NA] rate, cost",
        description="Reads `kgcite run` output with gold answers. Names compare case-insensitively, '_' read as a space. "
        "citation_correctness checks every cited triple against the graph each line names (or --kg).",
    )
    ans.add_argument(
        "--answers",
        required=True,
        metavar="FILE.jsonl",
        help="a `kgcite run` output (lines with answers and predicted)",
    )
    ans.add_argument(
        "--kg", metavar="FILE|DIR", help="the graph to check citations against (default: each line's graph)"
    )
    json_option(ans)
    ans.set_defaults(func=cmd_eval_answers)
    return ev
