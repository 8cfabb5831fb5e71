"""Few-shot adaptation: Hits@1 of the grounding model adapted to a graph from 0, 20, 50 and 200
of its questions (``kgcite train paths --qa``), on that graph's other questions.

Graphs outside training: synthetic graphs of seeds no training run draws (their questions in the
held-out phrasings; the first seed's curve in full, the others at 0 and 50 examples, so a rule
found on one graph is seen on graphs it was not found on), and the football graph written after
the model was frozen (44 questions: the curve stops at 20 there). The held-out questions are
fixed per graph before any example is drawn; every point adapts the shipped model afresh, twice:
the adapter alone (``--keep-mix``) and with the mix of model and relation words chosen on the
examples (``kgcite.train.mix``, the default). Answers go through the ``Answerer`` (``Runtime.generator("grounded").answer_many``), as
``kgcite run`` answers a dataset; the baseline, same run, is the zero-shot scorer.

    python benchmarks/few_shot.py [--test 100] [--seeds 7001 7002 7003] [--quick]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kgcite.bench.synthetic import synthetic_graph
from kgcite.errors import TopicError
from kgcite.evaluate.metrics.answers import answer_metrics, held_by
from kgcite.evaluate.records.report import format_table
from kgcite.kg.store import KGStore
from kgcite.retrieve.path_scorers import shipped_grounding
from kgcite.retrieve.topics import resolve_topic
from kgcite.runs import DatasetItem, dataset_file, qa_record
from kgcite.runtime import Runtime, RuntimeConfig, export_answerer, path_scorer_spec
from kgcite.train.grounding import adapt_grounding
from kgcite.train.grounding_examples import examples_for, store_of
from kgcite.train.mix import choose_mix
from kgcite.train.paths import QAItem, graph_questions, walker_for, with_gold

DATA = Path(__file__).resolve().parent / "data" / "kgqa"


def hits(store: KGStore, spec: str, items: Sequence[DatasetItem]) -> dict[str, Any]:
    generator = Runtime(RuntimeConfig(cache=None, path_scorer=path_scorer_spec(spec)), store=store).generator(
        "grounded"
    )
    rows = [
        qa_record(it, generator.answer_many([it.question], [list(it.topic) or None], strict=False)[0]) for it in items
    ]
    return answer_metrics(rows, held_by(store))


def train_items(store: KGStore, items: Sequence[DatasetItem]) -> list[QAItem]:
    """The examples as ``kgcite train paths --qa`` reads them: gold chains recovered from answers."""
    walker, out = walker_for(store, 300), []
    for it in items:
        try:
            topic = resolve_topic(store, it.topic[0])
        except TopicError:
            continue
        if (item := with_gold(walker, it.question, topic, it.answers)) is not None:
            out.append(item)
    return out


def synthetic_set(n: int, seed: int = 7001) -> tuple[KGStore, list[DatasetItem]]:
    store = store_of(synthetic_graph(seed))
    two_hop = [it for it in graph_questions(store, 3 * n, 5, style="test") if it.chain and len(it.chain) == 2][:n]
    return store, [
        DatasetItem(f"s{k}", it.question, answers=it.answers, topic=(it.topic.id,)) for k, it in enumerate(two_hop)
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--test", type=int, default=100, help="held-out questions of the synthetic graph (default 100)")
    ap.add_argument(
        "--seeds",
        type=int,
        nargs="+",
        default=[7001, 7002, 7003],
        help="synthetic graphs (seeds no training run draws); the first gets the whole curve, the others 0 and 50",
    )
    ap.add_argument("--quick", action="store_true", help="0 and 20 examples, 20 held-out questions: a smoke run")
    args = ap.parse_args()
    sizes = (0, 20) if args.quick else (0, 20, 50, 200)
    test = 20 if args.quick else args.test
    seeds = args.seeds[:1] if args.quick else args.seeds
    sets = []
    for k, seed in enumerate(seeds):
        store, items = synthetic_set(test + max(sizes), seed)
        sets.append((f"synthetic graph {seed}", store, items[:test], items[test:], sizes if k == 0 else (0, 50)))
    football = store_of_file(DATA / "football_graph.tsv")
    football_items = list(dataset_file(DATA / "football_questions.jsonl"))
    sets.append(("football graph", football, football_items[20:], football_items[:20], sizes))
    table = []
    base = shipped_grounding()
    for name, kg, held, pool, curve in sets:
        t0 = time.perf_counter()
        m = hits(kg, "zero-shot", held)
        table.append(
            (name, "zero-shot (baseline)", len(held), f"{m['hits_at_1']:.3f}", f"{m['na_rate']:.3f}", "-", "-")
        )
        for k in curve:
            if k > len(pool):
                continue
            with tempfile.TemporaryDirectory() as tmp:
                t1 = time.perf_counter()
                examples = train_items(kg, pool[:k]) if k else []
                rows: list[tuple[str, str, float | None]] = [("grounding", str(base), None)]
                if k:
                    made = examples_for(kg, examples, negatives=5, seed=0, source=name)
                    rows = [("grounding, adapter only", str(adapt_grounding(made, base, Path(tmp) / "adapted")), None)]
                    mix = choose_mix([(kg, examples)], base, export_answerer, progress=False)
                    tuned = adapt_grounding(made, base, Path(tmp) / "mixed", lexical_weight=mix.weight)
                    rows.append(("grounding, adapter + mix chosen", str(tuned), mix.weight))
                seconds = time.perf_counter() - t1
                for label, spec, weight in rows:
                    m = hits(kg, spec, held)
                    table.append(
                        (
                            name,
                            f"{label}, {k} examples",
                            len(held),
                            f"{m['hits_at_1']:.3f}",
                            f"{m['na_rate']:.3f}",
                            "-" if weight is None else f"{weight:g}",
                            f"{seconds:.1f}",
                        )
                    )
        print(f"{name}: {time.perf_counter() - t0:.0f} s", flush=True)
    print(format_table(("graph", "scorer", "n", "Hits@1", "[NA]", "lexical weight", "adapt s"), table))
    print("\ntarget: 50 examples reach Hits@1 >= 0.90 on the graph's other 2-hop questions")


def store_of_file(path: Path) -> KGStore:
    from kgcite.cli.common import open_kg

    return open_kg(str(path))


if __name__ == "__main__":
    main()
