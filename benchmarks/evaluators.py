"""Attribution evaluators on CAQA-style test splits, in the layout of CAQA Table 6.

Two benches, built in this run with `kgcite.bench.caqa` (the builder's varied phrasings, seed 0):
- MetaQA: the test split of the build from the MetaQA test questions (the trained evaluator's
  training data is the train split of the same build: same graph, disjoint questions);
- BioKaLMA: single-triple questions over the BioKaLMA graph ("What is the {relation} of
  {person}?"), a graph the trained evaluator never saw.

    python benchmarks/evaluators.py [--limit 1000] [--llm-limit 100]

The LLM evaluators (SmolLM2-135M through llama.cpp) are slow on 2 cores: they run on the
first --llm-limit samples only.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from kgcite.bench.caqa import CATEGORIES, CaqaBuilder, metaqa_samples, single_triple_samples, split_of
from kgcite.bench.caqa_query import TripleIndex
from kgcite.bench.metaqa import read_questions
from kgcite.evaluate.judges.evaluators import LLMEvaluator, NLIEvaluator, judge_rows
from kgcite.evaluate.metrics.attribution import TABLE6_HEAD, evaluator_report, table6_row
from kgcite.evaluate.records.report import format_table
from kgcite.kg.loaders import read_biokalma, read_tsv, shipped_biokalma, shipped_data
from kgcite.models.evaluator import AttributionItem, TrainedEvaluator
from kgcite.models.llamacpp import LlamaCppLLM
from kgcite.models.nli import OnnxNLI


def metaqa_test(per_hop: int | None = None) -> list[dict[str, Any]]:
    """The CAQA samples of MetaQA's test questions in the test split (of the first ``per_hop`` a hop)."""
    index = TripleIndex(read_tsv(shipped_data("metaqa", "kb.txt")))
    qs = [q for h in (1, 2, 3) for q in read_questions(h)[:per_hop]]
    rows = [s.to_dict() for s in CaqaBuilder(index, seed=0).build_all(metaqa_samples(qs))]
    return [r for r in rows if split_of(r["source"], r["complexity"], 0) == "test"]


def biokalma_test(n: int) -> list[dict[str, Any]]:
    triples = {t.key: t for p in shipped_biokalma("all") for it in read_biokalma(p) for t in it.graph.triples}
    index = TripleIndex(triples.values())
    return [s.to_dict() for s in CaqaBuilder(index, seed=0).build_all(single_triple_samples(index, n, 0))]


def score(evaluator: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    predicted, seconds = judge_rows(evaluator, rows, batch_size=32)
    return evaluator_report(rows, predicted) | {"per_s": len(rows) / seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=1000)
    ap.add_argument("--llm-limit", type=int, default=100)
    ap.add_argument("--trained", metavar="DIR", help="an exported evaluator (default: the shipped one)")
    ap.add_argument("--quick", action="store_true", help="30 samples, 2 for the LLM: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.limit, args.llm_limit = 30, 2
    rng = random.Random(0)
    benches = {"MetaQA": metaqa_test(300 if args.quick else None), "BioKaLMA": biokalma_test(args.limit)}
    for k, data in benches.items():
        rng.shuffle(data)
        benches[k] = data[: args.limit]
    trained, nli = TrainedEvaluator(args.trained).load(), NLIEvaluator(OnnxNLI().load())
    llm = LlamaCppLLM().load()
    # few-shot demonstrations from the far end of the BioKaLMA sample, never among the scored ones
    shots = [next(r for r in reversed(benches["BioKaLMA"]) if r["category"] == c) for c in CATEGORIES]
    shot_ids = {id(r) for r in shots}
    few = LLMEvaluator(llm, [(AttributionItem.of(r), r["category"]) for r in shots])
    rows = []
    for bench, data in benches.items():
        rows.append(table6_row(bench, "nli (AutoIS-style, binary)", score(nli, data)))
        rows.append(table6_row(bench, "trained (kgcite, 4-way)", score(trained, data)))
        rows.append(
            table6_row(
                bench,
                f"llm-zero SmolLM2-135M (first {args.llm_limit})",
                score(LLMEvaluator(llm), data[: args.llm_limit]),
            )
        )
        unseen = [r for r in data[: args.llm_limit] if id(r) not in shot_ids]
        rows.append(table6_row(bench, f"llm-few SmolLM2-135M (first {args.llm_limit})", score(few, unseen)))
    print(format_table(TABLE6_HEAD, rows))


if __name__ == "__main__":
    main()
