"""``kgcite build caqa``: CAQA-style attribution benchmarks from a KG and KGQA samples."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kgcite.cli.common import kg_option, llm_options, open_kg, positive_int, store_options
from kgcite.errors import InputError, UsageError
from kgcite.kg.loaders import file_kind, read_named
from kgcite.kg.model import Triple


def graph_triples(location: str) -> Iterable[Triple]:
    """Every triple of a graph file (TSV and CSV read directly; other formats through the embedded
    store) or store folder."""

    path = Path(location)
    if path.is_file() and file_kind(path) in ("tsv", "csv"):
        return read_named(path)
    return open_kg(location).match()


def metaqa_questions(path: Path) -> list:  # type: ignore[type-arg]
    """``…/N-hop/qa_SPLIT.txt`` with its ``qa_SPLIT_qtype.txt`` beside it."""
    from kgcite.bench.metaqa import read_questions

    hop_dir, name = path.parent.name, path.name
    if not (hop_dir.endswith("-hop") and hop_dir[0].isdigit() and name.startswith("qa_") and name.endswith(".txt")):
        raise InputError(
            str(path), None, None, "MetaQA questions are N-hop/qa_SPLIT.txt (with qa_SPLIT_qtype.txt beside it)"
        )
    return read_questions(int(hop_dir.split("-")[0]), name[3:-4], path.parent.parent)


def cmd_build_caqa(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from kgcite.bench.caqa import CaqaBuilder, jsonl_samples, metaqa_samples
    from kgcite.bench.caqa_files import BuildInfo, write_caqa
    from kgcite.bench.caqa_paths import link_by_name
    from kgcite.bench.caqa_query import TripleIndex

    t0 = time.perf_counter()
    index = TripleIndex(link_by_name(graph_triples(args.kg)))
    print(
        f"graph: {len(index.labels):,} entities, {sum(len(v) for v in index.by_relation.values()):,} triples "
        f"({time.perf_counter() - t0:.1f} s)",
        file=sys.stderr,
    )
    kind = args.format
    qa_files = [Path(p) for p in args.qa or ()]
    if not qa_files and not args.generate:
        raise UsageError.of("--qa", "give KGQA samples (--qa FILE) or let kgcite make questions (--generate N)")
    for p in qa_files:
        if not p.exists():
            raise InputError(str(p), None, None, "no such KGQA file")
    if kind == "metaqa":
        samples = list(metaqa_samples(q for p in qa_files for q in metaqa_questions(p)))
    else:
        samples = [s for p in qa_files for s in jsonl_samples(p, index)]
    if args.limit:
        samples = samples[: args.limit]
    if args.generate:
        from kgcite.bench.caqa_paths import path_samples

        generated = path_samples(index, args.generate, args.seed)
        print(f"generated {len(generated):,} path questions of 1-3 hops from the graph", file=sys.stderr)
        if len(generated) < args.generate:
            print(
                f"kgcite: warning: --generate {args.generate} asked for more questions than the graph gave "
                f"({len(generated):,}): a question starts at a distinct entity and needs a walk of 1-3 hops "
                "that ends in 1-5 answers",
                file=sys.stderr,
            )
        samples += generated
    builder = CaqaBuilder(index, seed=args.seed)
    built = list(builder.build_all(tqdm(samples, desc="build caqa", unit=" q", disable=None)))
    t_build = time.perf_counter() - t0
    if args.verbaliser == "llm":
        from kgcite.bench.caqa_llm import LLMVerbaliser
        from kgcite.cli.common import runtime_from_args

        verbaliser = LLMVerbaliser(runtime_from_args(args, graph=False).llm, index)
        built = verbaliser.rewrite(built)
        print(
            f"LLM verbaliser: {verbaliser.kept} rewrites kept, {verbaliser.rejected} fell back to templates",
            file=sys.stderr,
        )
    stats = write_caqa(
        Path(args.out),
        built,
        BuildInfo(
            graph=args.kg,
            questions=len(samples),
            question_format=args.format if qa_files else "generated from the graph",
            seed=args.seed,
            verbaliser=args.verbaliser,
            seconds=t_build,
            skipped=builder.skipped,
            skipped_ids=builder.skipped_ids,
            rules=builder.rules,
        ),
    )
    print(stats)
    print(f"wrote {args.out}/train.jsonl, dev.jsonl, test.jsonl, stats.md, skipped.jsonl", file=sys.stderr)
    empty = [name for name in ("train", "dev", "test") if not (Path(args.out) / f"{name}.jsonl").stat().st_size]
    if empty:
        print(
            f"kgcite: warning: {' and '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty: "
            f"{len(samples):,} questions are too few for an 80/10/10 split by question (give more questions)",
            file=sys.stderr,
        )
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    build = sub.add_parser("build", help="build benchmarks from a knowledge graph").add_subparsers(
        dest="build_command", required=True, metavar="BENCHMARK"
    )
    c = build.add_parser(
        "caqa",
        help="CAQA-style attribution samples (4 categories x 4 complexities) from a KG and KGQA samples",
        description="Extends each reproducible KGQA query (CAQA Table 4), grounds it in the graph and edits the "
        "subgraph into supportive / partially supportive / contradictory / irrelevant citations. "
        "Deterministic for a seed. Writes OUT/train.jsonl, dev.jsonl, test.jsonl and stats.md.",
    )
    kg_option(c, required=True)
    c.add_argument(
        "--qa",
        action="append",
        metavar="FILE",
        help="KGQA samples (repeatable): MetaQA N-hop/qa_SPLIT.txt, or JSONL with --format jsonl",
    )
    c.add_argument(
        "--generate",
        type=int,
        default=0,
        metavar="N",
        help="also make N path questions of 1-3 hops from the graph itself (for a graph with no question set)",
    )
    c.add_argument(
        "--format",
        choices=["metaqa", "jsonl"],
        default="metaqa",
        help='metaqa (qtype file beside it) or jsonl: {"question", "answers": [..], "query": [[s, r, o], ..]}, answer variable ?a (default metaqa)',
    )
    c.add_argument(
        "--out", required=True, metavar="DIR", help="folder for train/dev/test.jsonl, stats.md and skipped.jsonl"
    )
    c.add_argument("--seed", type=int, default=0, help="the same seed rebuilds byte-identical files (default 0)")
    c.add_argument("--limit", type=positive_int, help="only the first N KGQA samples")
    c.add_argument(
        "--verbaliser",
        choices=["template", "llm"],
        default="template",
        help="template (fast, default) or llm: the paper's prompts, kept only when they keep every entity",
    )
    llm_options(c)  # for --verbaliser llm
    c.set_defaults(func=cmd_build_caqa)
    register_kalma(build)


def _kalma_seeds(args: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    """Seeds the user named (``--entity``, ``--seeds``), and BioKaLMA candidates (``--from-biokalma``)."""
    from kgcite.bench.kalma import Seed
    from kgcite.jsonl import read_jsonl
    from kgcite.kg.loaders import read_biokalma, shipped_biokalma

    named = [
        Seed(f"seed-{i}", tuple(x.strip() for x in group.split(",") if x.strip()))
        for i, group in enumerate(args.entity or ())
    ]
    if args.seeds:
        for lineno, d in read_jsonl(args.seeds):
            try:
                ents = tuple(str(x) for x in d["entities"])
            except (KeyError, TypeError) as exc:
                raise InputError(
                    args.seeds, lineno, "entities", f'expected {{"entities": [qid, ...], "paragraph": "..."}}: {exc!r}'
                ) from exc
            named.append(Seed(str(d.get("id", f"line{lineno}")), ents, str(d.get("paragraph") or "")))
    candidates = (
        [
            Seed(f"biokalma-{it.index}", tuple(e.id for e in it.graph.entities))
            for p in shipped_biokalma("specific")
            for it in read_biokalma(p)
            if it.graph.entities
        ]
        if args.from_biokalma
        else []
    )
    if not named and not candidates:
        raise UsageError.of("--entity/--seeds/--from-biokalma", "no seeds given")
    return named, candidates


def cmd_build_kalma(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from kgcite.bench.kalma import EvolutionaryBuilder, relation_counts
    from kgcite.cli.common import runtime_from_args
    from kgcite.jsonl import appending
    from kgcite.kg.model import Subgraph

    runtime = runtime_from_args(args)
    named, candidates = _kalma_seeds(args)

    def pool(seed: Any) -> Subgraph:
        """The seeds' own facts (their one-hop subgraph without incoming triples)."""
        g = Subgraph.merge(runtime.kg.one_hop(e) for e in seed.entities)
        return Subgraph(g.entities, tuple(t for t in g.triples if t.subject_id in seed.entities))

    for s in named:
        for e in s.entities:
            if runtime.kg.entity(e) is None:
                raise InputError("seed", None, "entities", f"{e!r} is not an entity of the graph")
    seeds, pools = list(named), [pool(s) for s in named]
    for s in candidates:  # BioKaLMA seeds: the first N whose pool holds a fact per round
        if len(seeds) - len(named) >= args.from_biokalma:
            break
        if len(p := pool(s)) >= args.rounds:
            seeds.append(s)
            pools.append(p)
    builder = EvolutionaryBuilder(
        None if args.no_llm else runtime.llm,
        relation_counts(pools),
        len(pools),
        rounds=args.rounds,
        alpha=args.alpha,
        shortlist=args.shortlist,
    )
    out = Path(args.out)
    with appending(out, "rounds") as (rows, fh):
        done = {str(o.get("id")) for o in rows}
        todo = [(s, p) for s, p in zip(seeds, pools, strict=True) if s.id not in done]
        for s, p in tqdm(todo, desc="build kalma", unit=" entry", disable=None):
            entry = builder.build(s.id, s, p)
            fh.write(json.dumps(entry.to_dict(), ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
    print(f"{out}: {len(todo)} entries built, {len(seeds) - len(todo)} already there")
    print(
        f"answer them: kgcite run --dataset {out} --out answers.jsonl; then kgcite eval citations --answers answers.jsonl"
    )
    return 0


def register_kalma(build: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    k = build.add_parser(
        "kalma",
        help="BioKaLMA-style questions with minimum knowledge sets, by evolutionary generation",
        description="Seeds: --entity Q1[,Q2] (repeatable), --seeds FILE (JSONL: entities, optional paragraph), "
        "--from-biokalma N (the entities of the first N shipped BioKaLMA questions whose pool has a fact per round). Resumable: entries already "
        "in --out are kept.",
    )
    k.add_argument("--entity", action="append", metavar="QID[,QID]", help="a seed entity or pair (repeatable)")
    k.add_argument(
        "--seeds",
        metavar="FILE.jsonl",
        help='seed entities with a paragraph: {"entities": [qid, ...], "paragraph": "..."} per line',
    )
    k.add_argument(
        "--from-biokalma", type=int, metavar="N", help="take N seed entity sets from the shipped BioKaLMA questions"
    )
    k.add_argument("--out", required=True, metavar="FILE.jsonl", help="where the questions go (resumable)")
    k.add_argument("--rounds", type=int, default=5, help="rounds of evolutionary generation (default 5)")
    k.add_argument("--alpha", type=float, default=0.5, help="weight of specificity against coherence (default 0.5)")
    k.add_argument(
        "--shortlist", type=int, default=8, help="facts scored for coherence per round (the most specific; default 8)"
    )
    k.add_argument(
        "--no-llm", action="store_true", help="templates only: no coherence score, template sentences and questions"
    )
    llm_options(k)
    store_options(k)
    k.set_defaults(func=cmd_build_kalma)
