"""Attribution evaluators on graphs they never saw: leave-one-graph-out, in CAQA Table 6's layout.

Two kinds of evaluator. The **structured** one (``--evaluator struct``) reads claim and evidence
as names and links and reasons over them; its combiner trains in seconds, so for each source G a
combiner trained on the other two sources is made in this run and scored on G (the held-out
cell), beside the shipped combiner and the rules alone. The **text** cross-encoder (the shipped
MetaQA-only model is the baseline) and, with ``--models``, text models trained leave-one-out.

Training sources (``kgcite.train.evaluator_data``): MetaQA (movies), BioKaLMA (biographies,
linked by name, path and single-triple questions) and synthetic graphs with invented names and
relations. Every evaluator is also scored on graphs no model trains on: the synthetic test graphs
101 and 102, five small graphs written by hand (``benchmarks/data``: lab, port, family, and the
observatory and river-trade graphs written after the structured evaluator was frozen), whose
questions are generated from them, and twelve attribution cases written by hand about the family
graph (``benchmarks/data/attribution/ordinary.jsonl``: two parts, typos, namesakes, missing facts).

    python benchmarks/evaluator_graphs.py [--models runs/evaluator-graphs [--train]] [--limit N]

Every test split is scored whole unless ``--limit`` samples a part (the structured evaluator
judges about 2,000 samples/s; a 1,000-sample draw of MetaQA moved a held-out F1 by 0.016).

``--models DIR`` holds ``without-metaqa``, ``without-biokalma``, ``without-synthetic`` and ``all``
(each a ``kgcite train evaluator`` run folder with ``onnx/``); ``--train`` trains the missing
ones (``--samples`` per model, ``--epochs``; about 25 minutes each on 2 cores).
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path
from typing import Any

from kgcite.evaluate.judges.evaluators import judge_rows
from kgcite.evaluate.judges.structured import StructuredEvaluator, load_structured
from kgcite.evaluate.metrics.attribution import TABLE6_HEAD, evaluator_report, table6_row
from kgcite.evaluate.records.report import format_table
from kgcite.kg.embedded import EmbeddedStore
from kgcite.models.evaluator import TrainedEvaluator
from kgcite.train.evaluator import read_bench
from kgcite.train.evaluator_data import GRAPHS, Row, graph_rows, rows_from_triples
from kgcite.train.structured import train_combiner

DATA = Path(__file__).parent / "data"
OWN_GRAPHS = {
    "lab (hand-written)": DATA / "kgqa" / "lab_graph.tsv",
    "port (hand-written)": DATA / "kgqa" / "port_graph.tsv",
    "family (hand-written)": DATA / "faithfulness" / "own_graph.json",
    # written after the structured evaluator was frozen: graphs that played no part in making it
    "observatory (written after)": DATA / "evaluator" / "observatory_graph.tsv",
    "river trade (written after)": DATA / "evaluator" / "river_trade_graph.tsv",
}


def test_sets(built: dict[str, list[Row]], limit: int | None) -> tuple[dict[str, list[Row]], dict[str, list[Row]]]:
    """(test split of each training source, test rows of graphs no model trains on), ``limit`` each
    (None: all)."""
    rng = random.Random(0)

    def cut(rows: list[Row]) -> list[Row]:
        rows = [r for r in rows if r["split"] == "test"]
        rng.shuffle(rows)
        return rows[:limit]

    sources = {g: cut(rows) for g, rows in built.items()}
    unseen = {}
    for name, path in OWN_GRAPHS.items():
        store = EmbeddedStore()
        store.load(path)
        unseen[name] = cut(rows_from_triples(name, list(store.match()), 400))
    unseen["12 cases written by hand"] = read_bench(DATA / "attribution" / "ordinary.jsonl")
    return sources, unseen


def train_missing(
    models: Path,
    built: dict[str, list[Row]],
    samples: int,
    epochs: int,
    max_steps: int | None,
    leave_out: tuple[str | None, ...] = (*GRAPHS, None),
) -> None:
    from kgcite.train.cross_encoder import TrainConfig
    from kgcite.train.evaluator import train_evaluator

    rows = {g: [r for r in built[g] if r["split"] == "train"] for g in GRAPHS}
    for left in leave_out:
        out = models / (f"without-{left}" if left else "all")
        if (out / "onnx" / "model.onnx").exists():
            continue
        train = [r for g in GRAPHS if g != left for r in rows[g]]
        config = TrainConfig(epochs=epochs, max_length=160, max_steps=max_steps)
        train_evaluator(train, out, config, n=samples, described=f"graphs except {left}" if left else "all graphs")


def score(evaluator: Any, rows: list[Row]) -> dict[str, Any]:
    predicted, seconds = judge_rows(evaluator, rows)
    return evaluator_report(rows, predicted) | {"per_s": len(rows) / seconds if seconds else 0.0}


def struct_without(built: dict[str, list[Row]], left: str | None) -> StructuredEvaluator:
    """A combiner trained in this run (seconds) on the train rows of every source but ``left``."""
    rows = [r for g in GRAPHS if g != left for r in built[g] if r["split"] == "train"]
    with tempfile.TemporaryDirectory() as tmp:
        train_combiner(rows, tmp, described=f"graphs except {left}" if left else "all graphs")
        return load_structured(tmp)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=Path, help="folder of leave-one-graph-out text-model runs (see above)")
    ap.add_argument("--train", action="store_true", help="train the text models missing from --models")
    ap.add_argument("--limit", type=int, help="test samples per graph, drawn at random (default: the whole split)")
    ap.add_argument("--per-graph", type=int, help="source questions per graph (default: the training recipe's)")
    ap.add_argument("--samples", type=int, default=6000, help="training samples per text model (default 6000)")
    ap.add_argument("--epochs", type=int, default=2, help="training epochs per text model (default 2)")
    ap.add_argument("--quick", action="store_true", help="tiny data and a 1-step training run: a smoke run")
    args = ap.parse_args()
    max_steps = None
    tmp = None
    if args.quick:
        args.limit, args.per_graph, args.samples, max_steps = 20, 30, 64, 1
        if args.models is None:
            tmp = tempfile.TemporaryDirectory()
            args.models, args.train = Path(tmp.name), True
    built = {g: graph_rows(g, args.per_graph) for g in GRAPHS}  # built once: train and test splits
    if args.train and args.models:
        leave_out = ("metaqa", None) if args.quick else (*GRAPHS, None)
        train_missing(args.models, built, args.samples, args.epochs, max_steps, leave_out)
    held_out = {g: struct_without(built, g) for g in GRAPHS}  # the combiners never shown graph g
    built["synthetic"] = graph_rows("synthetic", args.per_graph, test=True)  # graphs no model trains on
    sources, unseen = test_sets(built, args.limit)
    shipped = TrainedEvaluator().load()
    struct, rules = load_structured(), load_structured("rules")
    runs: dict[str, Path] = {}
    if args.models:
        runs = {p.name: p / "onnx" for p in sorted(args.models.iterdir()) if (p / "onnx" / "model.onnx").exists()}
    models = {name: TrainedEvaluator(path).load() for name, path in runs.items()}
    table = []
    for graph, rows in sources.items():
        table.append(table6_row(graph, "text: shipped (baseline)", score(shipped, rows)))
        table.append(table6_row(graph, "struct: rules alone", score(rules, rows)))
        table.append(table6_row(graph, "struct: held out, trained without it", score(held_out[graph], rows)))
        kind = "struct: shipped, other synthetic graphs" if graph == "synthetic" else "struct: shipped, in domain"
        table.append(table6_row(graph, kind, score(struct, rows)))
        if f"without-{graph}" in models:
            table.append(
                table6_row(graph, "text: held out, trained without it", score(models[f"without-{graph}"], rows))
            )
        if "all" in models:
            kind = "text: held out, test graphs" if graph == "synthetic" else "text: in domain, trained on all"
            table.append(table6_row(graph, kind, score(models["all"], rows)))
    for graph, rows in unseen.items():
        table.append(table6_row(graph, "text: shipped (baseline)", score(shipped, rows)))
        table.append(table6_row(graph, "struct: rules alone", score(rules, rows)))
        table.append(table6_row(graph, "struct: shipped", score(struct, rows)))
        for left, model in held_out.items():
            table.append(table6_row(graph, f"struct: trained without {left}", score(model, rows)))
        for name, model in models.items():
            table.append(table6_row(graph, f"text: {name}", score(model, rows)))
    print(format_table(["graph", *TABLE6_HEAD[1:]], table))
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
