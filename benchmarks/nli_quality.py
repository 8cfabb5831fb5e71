"""Quality of an NLI model on kgcite's held-out sets: SICK (pair_ID % 5 == 0) and attribution
pairs generated from MetaQA's movie graph (never trained on). Baseline in the same run: the
value-occurs rule (entailment iff the hypothesis' value is in the premise, else neutral).

    python benchmarks/nli_quality.py [--model SPEC]     # default: the shipped kgcite model
"""

from __future__ import annotations

import argparse
import time

from kgcite.evaluate.classification import binary_accuracy, classification_report, false_acceptance
from kgcite.evaluate.report import format_table
from kgcite.evaluate.support import states_value
from kgcite.models.nli import LABELS, load_nli
from kgcite.train.nli import score, test_sets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", help="kgcite (default), hf:PATH, t5:PATH or an ONNX export folder")
    args = ap.parse_args()
    model = load_nli(args.model)
    rows = []
    for name, pairs in test_sets().items():
        t0 = time.perf_counter()
        s = score(model, pairs)
        secs = time.perf_counter() - t0
        rows.append((name, model.name, s["n"], s["accuracy"], s["entailment_binary_accuracy"], s["false_acceptance"], *(s["f1"][l] for l in LABELS), f"{s['n'] / secs:.0f}"))
        gold = [p.label for p in pairs]
        pred = ["entailment" if states_value(p.premise, p.hypothesis.split(": ", 1)[-1]) else "neutral" for p in pairs]
        b = classification_report(gold, pred, LABELS)
        rows.append((name, "value-occurs rule (baseline)", b.n, b.accuracy, binary_accuracy(gold, pred), false_acceptance(gold, pred), *(b.f1[l] for l in LABELS), "-"))
        model_ent = [r.label == "entailment" for r in model.predict([p.premise for p in pairs], [p.hypothesis for p in pairs])]
        judged = ["entailment" if v == "entailment" or m else "neutral" for v, m in zip(pred, model_ent, strict=True)]
        rows.append((name, "value or model (alignment judge)", len(gold), None, binary_accuracy(gold, judged), false_acceptance(gold, judged), None, None, None, "-"))
    print(format_table(["test set", "model", "n", "3-way acc", "entailed-or-not acc", "false accept", "F1 ent", "F1 neu", "F1 con", "pairs/s"], rows))
    print("\ntargets: SICK held-out 3-way accuracy >= 0.80; MetaQA attribution pairs >= 0.90")


if __name__ == "__main__":
    main()
