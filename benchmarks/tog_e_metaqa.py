"""ToG-E on MetaQA: answer recall and Hits@1 per hop count, with the k-hop neighbourhood cut
to the same number of triples as the baseline, measured in the same run.

Questions: the test questions whose relation path reproduces their gold answers over the
shipped kb.txt (a random sample of --limit per hop count, seed 0). Recall: some gold answer is
among the retrieved entities; Hits@1: the top path ends in a gold answer (the baseline ranks
nothing: no Hits@1). Times: per question on the embedded in-memory store, models
loaded and the store warmed by --warmup questions first.

    python benchmarks/tog_e_metaqa.py [--limit 300] [--hops 1 2 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from kgcite.bench.metaqa import MetaQAGraph, MetaQAQuestion, read_questions
from kgcite.evaluate.records.report import format_table
from kgcite.kg import EmbeddedStore
from kgcite.kg.loaders import shipped_data
from kgcite.models.embed import OnnxMiniLM
from kgcite.retrieve.neighbourhood import khop_neighbourhood
from kgcite.retrieve.scoring import BM25Scorer, EmbeddingScorer, HybridScorer, TextScorer
from kgcite.retrieve.tog_e import ToGE, ToGEConfig, reached_entities


def evaluate(search: ToGE, questions: list[MetaQAQuestion]) -> tuple[dict[str, float], list[int]]:
    recall = hits = 0
    ms, sizes = [], []
    for q in questions:
        r = search.search(q.question)
        gold = set(q.answers)
        recall += bool(r.entity_ids() & gold)
        hits += bool(r.paths and r.paths[0].end_label in gold)
        ms.append(r.ms)
        sizes.append(len(r.graph))
    n = len(questions)
    return {
        "recall": recall / n,
        "hits1": hits / n,
        "p50": statistics.median(ms),
        "triples": sum(sizes) / n,
        "llm": 0,
    }, sizes


def baseline(store: EmbeddedStore, search: ToGE, questions: list[MetaQAQuestion], sizes: list[int]) -> dict[str, float]:
    recall = 0
    ms = []
    for q, size in zip(questions, sizes, strict=True):
        t0 = time.perf_counter()
        topics = search.topics_for(q.question)
        g = khop_neighbourhood(store, topics, q.hops, size)
        ms.append((time.perf_counter() - t0) * 1000)
        recall += bool(reached_entities(g, topics) & set(q.answers))
    n = len(questions)
    return {"recall": recall / n, "hits1": None, "p50": statistics.median(ms), "triples": sum(sizes) / n, "llm": 0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=300, help="questions per hop count (default 300)")
    ap.add_argument("--hops", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="10 questions per hop count: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.limit, args.warmup = 10, 2
    t0 = time.perf_counter()
    store = EmbeddedStore()
    store.load(shipped_data("metaqa", "kb.txt"))
    graph = MetaQAGraph.shipped()
    print(f"store loaded in {time.perf_counter() - t0:.1f} s")
    embedding: TextScorer = HybridScorer(EmbeddingScorer(OnnxMiniLM().load()))
    rows = []
    for hops in args.hops:
        pool = [q for q in read_questions(hops) if graph.reproducible(q)]
        questions = random.Random(0).sample(pool, min(args.limit, len(pool)))
        default = ToGE(store, embedding, ToGEConfig())
        for q in pool[: args.warmup]:
            default.search(q.question)
        configs = [
            ("ToG-E W=3 D=3 (default)", default),
            (f"ToG-E W=3 D={hops} (depth = hops)", ToGE(store, embedding, ToGEConfig(depth=hops))),
            ("ToG-E W=3 D=3, BM25", ToGE(store, BM25Scorer(), ToGEConfig())),
        ]
        sizes: list[int] = []
        for name, search in configs:
            m, s = evaluate(search, questions)
            sizes = sizes or s
            rows.append(
                (
                    hops,
                    name,
                    len(questions),
                    m["recall"],
                    m["hits1"],
                    f"{m['p50']:.1f}",
                    f"{m['triples']:.1f}",
                    m["llm"],
                )
            )
        b = baseline(store, default, questions, sizes)
        rows.append(
            (
                hops,
                f"{hops}-hop neighbourhood, same #triples",
                len(questions),
                b["recall"],
                b["hits1"],
                f"{b['p50']:.1f}",
                f"{b['triples']:.1f}",
                0,
            )
        )
    print(format_table(["hops", "method", "n", "recall", "Hits@1", "p50 ms", "triples", "LLM calls"], rows))
    print("\ntargets: 2-hop recall >= 0.90, 3-hop >= 0.75, p50 <= 30 ms")


if __name__ == "__main__":
    main()
