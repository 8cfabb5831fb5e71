"""Commands of the evaluation side: ``nli``, ``train nli``, ``eval all``, ``experiment removal|retrieval``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kgcite.cli.common import (
    json_option,
    llm_options,
    model_options,
    nli_option,
    open_kg,
    positive_int,
    runtime_from_args,
    unit_option,
)
from kgcite.errors import InputError, UsageError
from kgcite.evaluate.judges.quality import GEval
from kgcite.evaluate.metrics.alignment import AttributionScorer
from kgcite.evaluate.records.answer_file import read_records
from kgcite.evaluate.records.plots import bar_chart, line_chart
from kgcite.evaluate.records.report import QUALITY_ASPECTS, eval_report_markdown, experiment_markdown, format_table
from kgcite.evaluate.records.suite import FullEvaluation
from kgcite.experiments import items_with_minimum, removal_conditions, retrieval_conditions, run_experiment
from kgcite.models.nli import load_nli


def _bar(total: int, desc: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=" answers", disable=None, file=sys.stderr)


# -- nli ----------------------------------------------------------------------------------------


def cmd_nli(args: argparse.Namespace) -> int:
    for option, text in (("--premise", args.premise), ("--hypothesis", args.hypothesis)):
        if not text.strip():  # the model reads an empty text as entailed (0.856): no verdict to give
            raise UsageError.of(option, "an empty text entails and contradicts nothing")
    result = load_nli(args.model)(args.premise, args.hypothesis)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(result.label)
        ranked: list[tuple[object, ...]] = [(k, v) for k, v in sorted(result.probs.items(), key=lambda kv: -kv[1])]
        print(format_table(["label", "probability"], ranked))
    return 0


def cmd_train_nli(args: argparse.Namespace) -> int:
    from kgcite.train.cross_encoder import TrainConfig
    from kgcite.train.nli import train_nli

    config = TrainConfig(
        epochs=args.epochs, lr=args.lr, batch_size=args.batch_size, max_steps=args.max_steps, seed=args.seed
    )
    llm = runtime_from_args(args).llm if args.llm_premises else None
    summary = train_nli(
        args.out, config, n_kg=args.kg_premises, n_llm=args.llm_premises, llm=llm, inflect_rate=args.inflect_rate
    )
    rows = [(name, s["n"], s["accuracy"], s["entailment_binary_accuracy"]) for name, s in summary["scores"].items()]
    print(format_table(["held-out set", "n", "3-way accuracy", "entailed-or-not accuracy"], rows))
    print(
        f"\nmodel: {Path(args.out) / 'onnx'} (use it with --nli {Path(args.out) / 'onnx'}); card: MODEL_CARD.md there"
    )
    return 0


def _train_config(args: argparse.Namespace) -> Any:
    """The TrainConfig of a ``kgcite train`` command's options (``_train_options`` plus --max-length)."""
    from kgcite.train.cross_encoder import TrainConfig

    return TrainConfig(
        epochs=args.epochs,
        lr=args.lr,
        batch_size=args.batch_size,
        max_steps=args.max_steps,
        seed=args.seed,
        max_length=args.max_length,
    )


def cmd_train_rerank(args: argparse.Namespace) -> int:
    from kgcite.models.embed import OnnxMiniLM
    from kgcite.train.rerank import train_rerank

    config = _train_config(args)
    summary = train_rerank(
        args.out, config, OnnxMiniLM().load(), n_biokalma=args.biokalma_queries, n_metaqa=args.metaqa_queries
    )
    test = summary["test"]
    rows = [
        (name, test[name]["n"], test[name]["p_at_1"], test[name]["mrr"]) for name in ("cross_encoder", "bi_encoder")
    ]
    print(f"{test['set']}\n" + format_table(["ranker", "queries", "P@1", "MRR"], rows))
    print(
        f"\nmodel: {Path(args.out) / 'onnx'} (use it with --reranker {Path(args.out) / 'onnx'}); card: MODEL_CARD.md there"
    )
    return 0


def cmd_train_paths(args: argparse.Namespace) -> int:
    from kgcite.retrieve.path_scorers import shipped_grounding
    from kgcite.retrieve.topics import find_topics
    from kgcite.runs import dataset_file
    from kgcite.runtime import export_answerer
    from kgcite.train.grounding import GroundingConfig, adapt_grounding, run_recipe
    from kgcite.train.grounding_examples import examples_for
    from kgcite.train.mix import choose_mix
    from kgcite.train.paths import walker_for, with_gold

    if not args.qa:
        config = GroundingConfig(
            epochs=args.epochs, lr=args.lr, batch_size=args.batch_size, max_steps=args.max_steps, seed=args.seed
        )
        onnx = run_recipe(
            args.out,
            args.graphs,
            export_answerer,
            config,
            metaqa_per_hop=args.metaqa_dev,
            generated=args.generated,
        )
        print(f"model: {onnx} (use it with --path-scorer {onnx}); card: MODEL_CARD.md there")
        return 0
    if len(args.qa) != len(args.kg or []):
        raise UsageError.of("--kg", "give one --kg for each --qa (the graph its questions are about)")
    base = Path(args.base) if args.base else shipped_grounding()
    examples, sets = [], []
    for qa, kg in zip(args.qa, args.kg, strict=True):
        store = open_kg(kg)
        walker, items, skipped = walker_for(store, 300), [], []
        for it in dataset_file(Path(qa)):
            if not it.answers:
                raise InputError(
                    qa, None, "answers", f"item {it.id} has no answers: a gold path is recovered from them"
                )
            try:
                topic = find_topics(store, it.question, list(it.topic))[0]
            except (ValueError, IndexError) as exc:
                raise InputError(qa, None, "topic", f"item {it.id}: no topic entity found ({exc})") from exc
            item = with_gold(walker, it.question, topic, it.answers, args.depth)
            if item is None:
                skipped.append(it.id)
                continue
            items.append(item)
        got = examples_for(store, items, negatives=5, seed=args.seed, source=Path(qa).name)
        examples += got
        sets.append((store, items))
        print(f"{qa}: {len(got)} examples", file=sys.stderr)
        if skipped:
            print(
                f"  skipped {len(skipped)} (no single chain of at most {args.depth} hops from the topic reaches "
                f"exactly their answers; --depth {args.depth + 1} looks further): {', '.join(skipped)}",
                file=sys.stderr,
            )
    weight = None
    if not args.keep_mix and examples:
        mix = choose_mix(sets, base, export_answerer, seed=args.seed)
        print(mix.table(), file=sys.stderr)
        weight = mix.weight
    out = adapt_grounding(examples, base, args.out, seed=args.seed, lexical_weight=weight)
    print(f"model: {out} (use it with --path-scorer {out})")
    return 0


def _training_graphs(args: argparse.Namespace) -> list[str] | None:
    """The graphs an attribution evaluator trains on (``--graphs`` less ``--without``); None with ``--bench``."""
    if args.without and not args.graphs:
        raise UsageError("--without leaves a graph out of --graphs; give --graphs too")
    return [g for g in args.graphs if g != args.without] if args.graphs else None


def cmd_train_struct(args: argparse.Namespace) -> int:
    from kgcite.train.structured import train_combiner

    graphs = _training_graphs(args)
    text, spec = None, None
    if args.text != "none":
        if not (args.text == "trained" or args.text.startswith("trained:")):
            raise UsageError(f"--text {args.text!r}: choose none, trained or trained:DIR")
        from kgcite.models.evaluator import load_evaluator

        spec = args.text.partition(":")[2] or None
        text = load_evaluator(spec)
    if graphs is None:
        from kgcite.train.evaluator import read_bench

        rows, described = read_bench(args.bench), str(args.bench)
    else:
        from kgcite.train.evaluator_data import train_rows

        rows, described = train_rows(graphs, args.per_graph, args.seed), "graphs: " + ", ".join(graphs)
    if not rows:
        raise InputError(args.bench or "--graphs", None, None, "no training rows")
    card = train_combiner(rows, args.out, text=text, text_spec=spec, described=described, seed=args.seed)
    print(json.dumps(card))
    print(
        f"model: {Path(args.out) / 'combiner.json'}; score it with kgcite evaluate-evaluator --evaluator struct:{args.out}"
    )
    return 0


def cmd_train_evaluator(args: argparse.Namespace) -> int:
    from kgcite.train.evaluator import train_evaluator

    config = _train_config(args)
    graphs = _training_graphs(args)
    if graphs is None:
        summary = train_evaluator(args.bench, args.out, config, n=args.samples)
    else:
        from kgcite.train.evaluator_data import train_rows

        rows = train_rows(graphs, args.per_graph, args.seed)
        print(f"training rows: {len(rows):,} from {', '.join(graphs)}", file=sys.stderr)
        summary = train_evaluator(rows, args.out, config, n=args.samples, described="graphs: " + ", ".join(graphs))
    print(json.dumps({"graphs": summary["train"]["graphs"], "categories": summary["train"]["categories"]}))
    print(
        f"model: {Path(args.out) / 'onnx'}; score it with kgcite evaluate-evaluator --evaluator trained:{Path(args.out) / 'onnx'}"
    )
    return 0


# -- eval all ---------------------------------------------------------------------------------


def _evaluation(args: argparse.Namespace) -> FullEvaluation:
    runtime = runtime_from_args(args)  # models load lazily: the LLM only with --quality
    geval = GEval(runtime.llm) if args.quality else None
    return FullEvaluation(AttributionScorer(runtime.judge), geval, args.precision_unit, batch_size=args.batch_size)


def cmd_eval_all(args: argparse.Namespace) -> int:
    out = Path(args.out)
    records = list(read_records(args.answers, skip_bad=args.skip_bad))
    evaluation = _evaluation(args)
    bar = _bar(sum(1 for r in records if not isinstance(r, InputError)), "eval all")
    metrics, skipped = evaluation.run(records, out, bar.update)
    bar.close()
    for err in skipped:
        print(f"kgcite: skipped {err}", file=sys.stderr)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    shown = {
        k: metrics.get(v)
        for k, v in (
            ("Align.", "alignment"),
            ("Corr.", "correctness"),
            ("Prec.", "precision_micro"),
            ("Rec.", "recall_micro"),
            ("F1.", "f1_micro"),
            ("[NA] P", "na_precision"),
            ("[NA] R", "na_recall"),
        )
    }
    bar_chart(shown, f"Citation evaluation ({metrics['n_answers']} answers)", out / "metrics.png")
    (out / "report.md").write_text(
        eval_report_markdown(metrics, Path(args.answers).name)
    )  # no server paths on a served page
    if args.json:
        print(json.dumps(metrics))
    else:
        rows = [(k, v) for k, v in metrics.items() if isinstance(v, (int, float)) or v is None]
        print(format_table(["metric", "value"], rows))
        print(f"\nwrote {out / 'report.md'}, {out / 'metrics.json'}, {out / 'metrics.png'}", file=sys.stderr)
    return 0


# -- experiments --------------------------------------------------------------------------------


def cmd_experiment(args: argparse.Namespace) -> int:
    items = items_with_minimum(args.dataset)[: args.limit or None]
    if not items:
        raise InputError(
            args.dataset, None, "minimum_knowledge", "no item has a minimum knowledge set; nothing to remove or miss"
        )
    # each item brings its own graph (KaLMA's one-hop retrieval): no path search over the store
    runtime = runtime_from_args(args, path_scorer="off")
    generator = runtime.generator(args.mode)
    evaluation = FullEvaluation(AttributionScorer(runtime.judge), None, "citation", batch_size=args.batch_size * 8)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.experiment == "removal":
        ks = list(range(args.max_removed + 1))
        conds, n_cond = removal_conditions(items, ks, args.seed), len(ks)
        labels = ["0 (gold)"] + [str(k) for k in ks[1:]]
    else:
        accs = [100, 80, 60, 40, 20]
        conds, n_cond = retrieval_conditions(items, accs, args.seed), len(accs)
        labels = ["gold (100)"] + [str(a) for a in accs[1:]]
    bar = _bar(len(items) * n_cond, f"experiment {args.experiment}")
    rows = run_experiment(conds, generator, evaluation, out, batch_size=args.batch_size, on_progress=bar.update)
    bar.close()
    _experiment_outputs(args.experiment, rows, labels, out)
    print((out / "report.md").read_text())
    return 0


def _experiment_outputs(kind: str, rows: list[dict[str, Any]], labels: list[str], out: Path) -> None:
    def series(keys: dict[str, str]) -> dict[str, list[float | None]]:
        return {name: [r.get(k) for r in rows] for name, k in keys.items()}

    cite = {
        "Precision": "precision_micro",
        "Recall": "recall_micro",
        "F1-Score": "f1_micro",
        "Correctness": "correctness",
    }
    if kind == "removal":
        na = {
            name: ys[1:]
            for name, ys in series({"Precision": "na_precision", "Recall": "na_recall", "F1-Score": "na_f1"}).items()
        }
        line_chart(
            labels[1:], na, "Experiment result on conscious incompetence", "knowledge removed", out / "figure4_na.png"
        )
        md = experiment_markdown(
            "Removal of minimum knowledge (KaLMA Table 5, Figure 4)", rows, "removed", labels, "figure4_na.png", na=True
        )
        line_chart(
            labels,
            series(cite),
            "Citation quality with knowledge removed",
            "knowledge removed",
            out / "table5_citations.png",
        )
        md += "\n![citations](table5_citations.png)\n"
    else:
        line_chart(labels, series(cite), "Retrieval analysis", "retrieval accuracy", out / "figure5_retrieval.png")
        md = experiment_markdown(
            "Retrieval accuracy (KaLMA Figure 5)", rows, "retrieval accuracy", labels, "figure5_retrieval.png", na=False
        )
    (out / "report.md").write_text(md)


# -- parser -------------------------------------------------------------------------------------


#: ``--no-nli`` where the judge decides support.
RULES_ALONE = "judge support by the rules alone (no NLI model; what they cannot decide counts as unsupported)"


def _attribution_data_options(p: argparse.ArgumentParser) -> None:
    """Where an attribution evaluator's training rows come from: a CAQA split, or graphs (one left out)."""
    data = p.add_mutually_exclusive_group(required=True)
    data.add_argument("--bench", metavar="TRAIN.jsonl", help="a CAQA-style train split (`kgcite build caqa`)")
    data.add_argument(
        "--graphs",
        nargs="+",
        choices=["metaqa", "biokalma", "synthetic"],
        help="build the training data from these graphs (the train split of each; synthetic: graphs 1-6)",
    )
    p.add_argument("--without", metavar="GRAPH", help="with --graphs: leave this graph out (leave-one-graph-out)")
    p.add_argument(
        "--per-graph",
        type=int,
        metavar="N",
        help="with --graphs: source questions per graph (default: MetaQA 2500 per hop count, BioKaLMA 1200 "
        "per kind, 500 per synthetic graph)",
    )


def _train_options(p: argparse.ArgumentParser, *, epochs: int, lr: float, batch_size: int = 32) -> None:
    p.add_argument(
        "--out", required=True, metavar="DIR", help="run folder: checkpoints per epoch, then onnx/ with the model card"
    )
    p.add_argument("--epochs", type=int, default=epochs, help=f"default {epochs}")
    p.add_argument("--lr", type=float, default=lr, help=f"default {lr:g}")
    p.add_argument(
        "--batch-size", type=positive_int, default=batch_size, help=f"examples per training step (default {batch_size})"
    )
    p.add_argument("--seed", type=int, default=0, help="data draw and training order (default 0)")
    p.add_argument("--max-steps", type=int, help="stop after this many steps (smoke runs)")


def register(sub: Any, ev: Any) -> None:
    """Add this module's commands to the main parser (``sub``) and to ``kgcite eval`` (``ev``)."""
    nli = sub.add_parser("nli", help="does a premise entail a hypothesis? (kgcite's NLI model)")
    nli.add_argument("--premise", required=True, metavar="TEXT", help="the text that should entail the hypothesis")
    nli.add_argument("--hypothesis", required=True, metavar="TEXT", help='e.g. "place of birth: Newark"')
    nli.add_argument("--model", metavar="SPEC", help="kgcite (default), hf:PATH, t5:PATH, or an ONNX export folder")
    json_option(nli, '{"label": ..., "probs": {...}}')
    nli.set_defaults(func=cmd_nli)

    train = sub.add_parser("train", help="train kgcite's own models").add_subparsers(
        dest="train_command", required=True, metavar="MODEL"
    )
    tn = train.add_parser(
        "nli",
        help="train the NLI cross-encoder (SICK + KG attribution pairs) and export int8 ONNX",
        description='Needs the train extra: python -m pip install -e ".[train]". Resumes from the last finished epoch in --out.',
    )
    _train_options(tn, epochs=2, lr=6e-5)  # the defaults are the shipped model's recipe
    tn.add_argument(
        "--kg-premises", type=int, default=4000, help="template premises from the BioKaLMA graphs (default 4000)"
    )
    tn.add_argument(
        "--llm-premises", type=int, default=400, help="premises rewritten by the LLM (default 400; 0 for none)"
    )
    tn.add_argument(
        "--inflect-rate",
        type=float,
        default=0.0,
        metavar="P",
        help='share of KG hypotheses whose property is named in another inflection ("stars actors" for "starred actors"); default 0 (the shipped recipe); 0.3 is an experiment in docs/results.md',
    )
    llm_options(tn)
    tn.set_defaults(func=cmd_train_nli)

    tr = train.add_parser(
        "rerank",
        help="train the relevance cross-encoder that re-ranks document quotes, and export int8 ONNX",
        description='Needs the train extra: python -m pip install -e ".[train]". Resumes from the last finished epoch in --out. '
        "Scores it on MetaQA 1-hop test questions against the bi-encoder.",
    )
    _train_options(tr, epochs=1, lr=5e-5)
    tr.add_argument("--max-length", type=int, default=192, help="tokens of question + passage (default 192)")
    tr.add_argument(
        "--biokalma-queries",
        type=int,
        default=2000,
        help="template questions over BioKaLMA entities, 4 pairs each (default 2000)",
    )
    tr.add_argument(
        "--metaqa-queries",
        type=int,
        default=1500,
        help="MetaQA 2-hop questions' first hop, 4 pairs each (default 1500)",
    )
    tr.set_defaults(func=cmd_train_rerank)

    tp = train.add_parser(
        "paths",
        help="train the relation-grounding bi-encoder (question, relation chain), or adapt it to your graph",
        description='Needs the train extra: python -m pip install -e ".[train]". Without --qa: the shipped recipe '
        "(MetaQA dev questions of 1-3 hops; template questions generated from the MetaQA, BioKaLMA and "
        "synthetic graphs and from graphs over Wikidata's train-split properties; SimpleQuestions-Wikidata questions "
        "of those properties; MetaQA test splits are never read), about 70 minutes on 2 cores, resumable. With --qa "
        "and --kg: adapts the shipped model (or --base) to your graph from a few examples in seconds, and chooses on them "
        "how much the score leans on the words that name relations (--keep-mix: the base's); gold chains "
        "are recovered from the answers (the shortest chain from the topic that reaches exactly them; ambiguous "
        "questions are skipped and listed by id).",
    )
    tp.add_argument(
        "--qa",
        action="append",
        metavar="TRAIN.jsonl",
        help='{"question", "answers": [labels], "topic": [labels or ids]} lines (repeatable, each with its --kg)',
    )
    tp.add_argument("--kg", action="append", metavar="FILE|DIR", help="the graph of the --qa file in the same position")
    tp.add_argument("--base", metavar="DIR", help="with --qa: the export to adapt (default: the shipped model)")
    tp.add_argument("--depth", type=int, default=2, help="with --qa: longest gold chain looked for (default 2)")
    tp.add_argument(
        "--keep-mix",
        action="store_true",
        help="with --qa: keep the base's weight of the words that name relations against the model's likeness "
        "(default: choose it on your examples, each half answered by the model adapted on the other half)",
    )
    tp.add_argument(
        "--graphs",
        nargs="+",
        choices=["metaqa", "biokalma", "synthetic", "wikidata", "written"],
        default=["metaqa", "biokalma", "synthetic", "wikidata"],
        help="without --qa: the graphs to train on (default: all but written, the shipped model's; leave one out to "
        "measure it held out). wikidata: "
        "many relations, random graphs over Wikidata's train-split properties with questions in their labels and "
        "aliases, and SimpleQuestions-Wikidata questions of those properties; written: questions as people ask them, "
        "written for 310 relations of Wikidata and schema.org and, with metaqa, for MetaQA's nine (measured, not "
        "in the shipped model: docs/results.md)",
    )
    tp.add_argument(
        "--metaqa-dev",
        type=int,
        default=3000,
        metavar="N",
        help="without --qa: MetaQA dev questions per hop count (default 3000)",
    )
    tp.add_argument(
        "--generated",
        type=int,
        default=1500,
        metavar="N",
        help="without --qa: template questions per graph kind (default 1500)",
    )
    _train_options(tp, epochs=1, lr=5e-5, batch_size=16)
    tp.set_defaults(func=cmd_train_paths)

    te = train.add_parser(
        "evaluator",
        help="train the 4-way attribution evaluator (CAQA categories) on a `kgcite build caqa` train split",
        description='Needs the train extra: python -m pip install -e ".[train]". Resumes from the last finished epoch in --out.',
    )
    _attribution_data_options(te)
    _train_options(te, epochs=2, lr=5e-5)
    te.add_argument("--max-length", type=int, default=160, help="tokens of claim + evidence (default 160)")
    te.add_argument(
        "--samples",
        type=int,
        default=6_000,
        help="training samples, balanced by category (and by graph with --graphs) (default 6,000)",
    )
    te.set_defaults(func=cmd_train_evaluator)

    ts = train.add_parser(
        "struct",
        help="train the structured attribution evaluator's combiner (seconds on 2 cores, no torch needed)",
        description="The structured evaluator reads claim and evidence as names and links, on any graph; its "
        "combiner weighs those features (and, with --text, a text model's four scores). Writes DIR/combiner.json; "
        "score it with kgcite evaluate-evaluator --evaluator struct:DIR.",
    )
    _attribution_data_options(ts)
    ts.add_argument(
        "--text",
        default="none",
        metavar="none|trained[:DIR]",
        help="a text evaluator whose scores the combiner also reads (default none: the structure alone)",
    )
    ts.add_argument("--seed", type=int, default=0, help="data draw and initial weights (default 0)")
    ts.add_argument("--out", required=True, metavar="DIR", help="folder for combiner.json")
    ts.set_defaults(func=cmd_train_struct)

    al = ev.add_parser(
        "all",
        help="citations + alignment + [NA] (+ G-Eval text quality) with report.md, metrics.json and plots",
        description="Resumable: judged answers are kept in OUT/per_answer.jsonl. [NA] precision/recall need "
        "an absent_knowledge list on the answer lines (the removal experiment writes it).",
    )
    al.add_argument("--answers", required=True, metavar="FILE.jsonl", help="answers written by `kgcite run`")
    al.add_argument(
        "--out", required=True, metavar="DIR", help="report.md, metrics.json, metrics.png, per_answer.jsonl (resumable)"
    )
    al.add_argument("--skip-bad", action="store_true", help="skip (and count) bad lines instead of stopping")
    al.add_argument(
        "--quality", action="store_true", help=f"add G-Eval text quality ({', '.join(QUALITY_ASPECTS)}) with the LLM"
    )
    al.add_argument("--batch-size", type=positive_int, default=64, help="answers judged per batch (default 64)")
    nli_option(al, "NLI model", without=RULES_ALONE)
    llm_options(al)
    unit_option(al)
    al.set_defaults(func=cmd_eval_all)

    ex = sub.add_parser("experiment", help="KaLMA's ablations: knowledge removal and retrieval accuracy")
    ex.add_argument(
        "experiment",
        choices=["removal", "retrieval"],
        help="removal: take minimum knowledge out of the graph; retrieval: lower retrieval accuracy",
    )
    ex.add_argument(
        "--dataset",
        required=True,
        metavar="FILE.jsonl",
        help="items with id, question, kg and minimum_knowledge (the answer-file shape)",
    )
    ex.add_argument("--out", required=True, metavar="DIR", help="a report folder: table, plots, answers per condition")
    ex.add_argument("--limit", type=positive_int, help="only the first N items")
    ex.add_argument("--seed", type=int, default=0, help="which knowledge is removed (default 0)")
    ex.add_argument("--max-removed", type=int, default=3, help="removal: remove 1..N pieces (default 3)")
    ex.add_argument("--batch-size", type=positive_int, default=8, help="questions per batch (default 8)")
    nli_option(ex, "NLI model", without=RULES_ALONE)
    model_options(ex)
    ex.set_defaults(func=cmd_experiment)
