"""``kgcite retrieve tog-e``: LLM-free graph beam search from the command line."""

from __future__ import annotations

import argparse
import json

from kgcite.cli.common import json_option, kg_option, open_kg, positive_int, scheme_option
from kgcite.errors import UsageError
from kgcite.kg import open_store


def cmd_retrieve_tog_e(args: argparse.Namespace) -> int:
    from kgcite.retrieve.scoring import BM25Scorer, EmbeddingScorer, HybridScorer, TextScorer
    from kgcite.retrieve.tog_e import ToGE, ToGEConfig
    from kgcite.retrieve.topics import bracketed_topics
    from kgcite.runtime import Runtime, RuntimeConfig

    if bool(args.kg) == bool(args.endpoint):
        raise UsageError("give one graph: --kg FILE|DIR or --endpoint URL")
    store = open_store(args.endpoint, args.scheme) if args.endpoint else open_kg(args.kg)
    runtime = Runtime(RuntimeConfig(cache=None), store=store)  # loads each model once, on first use
    scorer: TextScorer = BM25Scorer() if args.scorer == "bm25" else HybridScorer(EmbeddingScorer(runtime.embedder))
    needs_linking = not args.topic and not bracketed_topics(args.question)
    search = ToGE(
        runtime.kg,
        scorer,
        ToGEConfig(width=args.width, depth=args.depth, max_neighbours=args.max_neighbours),
        linker=runtime.retriever.linker if needs_linking else None,
    )
    try:
        result = search.search(args.question, args.topic or None)
    except ValueError as exc:
        raise UsageError.of("--topic" if args.topic else "QUESTION", str(exc)) from exc
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return 0
    print(f"topics: {', '.join(t.named('[]') for t in result.topics) or '(none linked)'}")
    print(f"{len(result.paths)} paths, {len(result.graph)} triples, {result.llm_calls} LLM calls, {result.ms:.1f} ms\n")
    for i, p in enumerate(result.paths, 1):
        print(f"{i}. ({p.score:.3f}) " + " → ".join(p.labels()))
    print("\ntriples:")
    for t in result.graph:
        print(f"  ({t.subject_label}, {t.relation}, {t.object_value})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rt = sub.add_parser("retrieve", help="retrieve evidence without generating").add_subparsers(
        dest="retrieve_command", required=True, metavar="METHOD"
    )
    tg = rt.add_parser(
        "tog-e",
        help="ToG-E: beam search over the graph pruned by text similarity, no LLM call",
        description="From the topic entities, keep the WIDTH relations most similar to the question at each "
        "entity, walk them (at most --max-neighbours entities each), keep the WIDTH best paths, to DEPTH hops. "
        "Topics: --topic, else [bracketed] names in the question (MetaQA style), else entity linking.",
    )
    kg_option(tg)
    tg.add_argument("--endpoint", metavar="URL", help="a SPARQL 1.1 query endpoint instead of --kg")
    scheme_option(tg, "with --endpoint: IRI spelling of entities and relations")
    tg.add_argument(
        "--question",
        required=True,
        metavar="TEXT",
        help="the question; [brackets] mark topic entities as MetaQA writes them",
    )
    tg.add_argument("--topic", action="append", metavar="ENTITY", help="topic entity id or label (repeatable)")
    tg.add_argument("--width", type=positive_int, default=3, help="beam width W (default 3)")
    tg.add_argument("--depth", type=positive_int, default=3, help="maximum depth D (default 3)")
    tg.add_argument(
        "--max-neighbours", type=positive_int, default=20, help="entities taken per relation from a hub (default 20)"
    )
    tg.add_argument(
        "--scorer",
        choices=["embedding", "bm25"],
        default="embedding",
        help="embedding: MiniLM cosine + word-form overlap (default); bm25: no model",
    )
    json_option(tg, '{"triples", "paths", "llm_calls", "ms"}')
    tg.set_defaults(func=cmd_retrieve_tog_e)
