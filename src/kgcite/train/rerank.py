"""``kgcite train rerank``: the relevance cross-encoder that re-ranks document quotes.

Trained on BioKaLMA paragraphs with template questions plus MetaQA's 2-hop test questions
(their first hop); tested on MetaQA's 1-hop *test* questions, where it must put the one relevant
paragraph first among four, against the bi-encoder the pipeline filters with (same run).
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Sequence
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from kgcite.bench.metaqa import MetaQAQuestion, read_questions
from kgcite.generate.verbalize import verbalize
from kgcite.kg.loaders import read_tsv, shipped_data
from kgcite.kg.model import Triple
from kgcite.models.embed import Embedder
from kgcite.models.rerank import OnnxReranker, Reranker
from kgcite.retrieve.documents.rank import FUSION_WEIGHT, fuse
from kgcite.train.cross_encoder import ProgressPrinter, TrainConfig, export_onnx, train_cross_encoder
from kgcite.train.nli_data import LabelledPair, biokalma_triples, metaqa_template
from kgcite.train.rerank_data import LABELS, Query, relevance_pairs

GROUP = 4  # one relevant paragraph and three irrelevant ones per query


def metaqa_queries(questions: Sequence[MetaQAQuestion]) -> list[Query]:
    """The question (brackets removed) asks its topic for the first relation of its path."""
    out = []
    for q in questions:
        path = q.path()
        if path:
            relation, inverse = path[0]
            out.append(
                Query(q.question.replace("[", "").replace("]", ""), q.topic, ("^" if inverse else "") + relation)
            )
    return out


@cache
def _metaqa_graph() -> tuple[Triple, ...]:
    """The movie graph, parsed once for the train, dev and held-out sets."""
    return tuple(read_tsv(shipped_data("metaqa", "kb.txt")))


def _metaqa(hops: int, n: int, seed: int, source: str) -> list[LabelledPair]:
    """Test-split questions (only they carry the qtype that names the asked relation)."""
    triples = list(_metaqa_graph())
    questions = read_questions(hops, "test")
    return relevance_pairs(
        triples, metaqa_template, n_queries=n, seed=seed, questions=metaqa_queries(questions), source=source
    )


def training_pairs(n_biokalma: int = 2000, n_metaqa: int = 1500, seed: int = 0) -> list[LabelledPair]:
    pairs = relevance_pairs(biokalma_triples(), verbalize, n_queries=n_biokalma, seed=seed, source="biokalma")
    return pairs + _metaqa(2, n_metaqa, seed, "metaqa-2hop")


def heldout_pairs(n: int = 1000, seed: int = 7) -> list[LabelledPair]:
    return _metaqa(1, n, seed, "metaqa-1hop")


def ranking_scores(scores: Sequence[float], group: int = GROUP) -> dict[str, float]:
    """P@1 and MRR when each run of ``group`` scores has the relevant item first."""
    s = np.asarray(scores, dtype=np.float64).reshape(-1, group)
    rank = 1 + (s[:, 1:] >= s[:, :1]).sum(axis=1)  # ties count against the model
    return {"n": len(s), "p_at_1": float((rank == 1).mean()), "mrr": float((1.0 / rank).mean())}


def evaluate(reranker: Reranker, embedder: Embedder, pairs: Sequence[LabelledPair]) -> dict[str, Any]:
    """Cross-encoder vs bi-encoder cosine on the same groups (the filter stage's ranking)."""
    full = [pairs[i : i + GROUP] for i in range(0, len(pairs), GROUP)]
    groups = [g for g in full if len(g) == GROUP]
    flat = [p for g in groups for p in g]
    t0 = time.perf_counter()
    cross = [s for g in groups for s in reranker.score(g[0].premise, [p.hypothesis for p in g])]
    t_cross = time.perf_counter() - t0
    q = embedder.encode([g[0].premise for g in groups])
    d = embedder.encode([p.hypothesis for p in flat]).reshape(len(groups), GROUP, -1)
    bi = np.einsum("gd,gkd->gk", q, d).ravel().tolist()
    return {
        "cross_encoder": ranking_scores(cross) | {"ms_per_passage": 1000 * t_cross / max(1, len(flat))},
        "bi_encoder": ranking_scores(bi),
        "fused": ranking_scores(fuse(cross, bi, FUSION_WEIGHT)) | {"weight": FUSION_WEIGHT},
    }


def dev_pairs(n: int = 500, seed: int = 3) -> list[LabelledPair]:
    """MetaQA 3-hop questions' first hop: in neither training nor test; where the fusion weight was chosen."""
    return _metaqa(3, n, seed, "metaqa-3hop")


def train_rerank(
    out_dir: str | Path, config: TrainConfig, embedder: Embedder, *, n_biokalma: int = 2000, n_metaqa: int = 1500
) -> dict[str, Any]:
    out = Path(out_dir)
    t0 = time.perf_counter()
    pairs = training_pairs(n_biokalma, n_metaqa, config.seed)
    t_data = time.perf_counter() - t0
    hf_dir = train_cross_encoder(pairs, LABELS, out, config, progress=ProgressPrinter("train rerank"))
    t_train = time.perf_counter() - t0 - t_data
    onnx_dir = out / "onnx"
    export_onnx(hf_dir, onnx_dir, max_length=config.max_length)
    model = OnnxReranker(onnx_dir).load()
    scores = evaluate(model, embedder, heldout_pairs())
    dev = evaluate(model, embedder, dev_pairs())
    sources: dict[str, int] = {}
    for p in pairs:
        sources[p.source] = sources.get(p.source, 0) + 1
    summary = {
        "train": {"n": len(pairs), "sources": sources, "config": asdict(config)},
        "seconds": {"data": round(t_data, 1), "train": round(t_train, 1)},
        "machine": f"{platform.machine()}, {config.threads} threads",
        "test": {"set": "MetaQA 1-hop test questions, 1 relevant + 3 irrelevant paragraphs each"} | scores,
        "dev": {"set": "MetaQA 3-hop test questions' first hop (chooses the fusion weight)"} | dev,
    }
    (onnx_dir / "scores.json").write_text(json.dumps(summary, indent=1) + "\n")
    (onnx_dir / "MODEL_CARD.md").write_text(model_card(summary))
    return summary


def model_card(summary: dict[str, Any]) -> str:
    tr, te = summary["train"], summary["test"]
    src = ", ".join(f"{k}: {v}" for k, v in tr["sources"].items())
    rows = "\n".join(
        f"| {name} | {te[name]['n']} | {te[name]['p_at_1']:.3f} | {te[name]['mrr']:.3f} |"
        for name in ("cross_encoder", "bi_encoder", "fused")
    )
    return f"""# kgcite re-ranker (relevance cross-encoder, int8 ONNX)

Scores how relevant a passage is to a question (P(relevant)); kgcite's document retriever uses
it after the bi-encoder filter. Made by `kgcite train rerank`.

- **Base**: all-MiniLM-L6-v2 (MIT), fine-tuned as a cross-encoder (`[CLS] question [SEP] passage [SEP]`),
  exported to ONNX and quantised to int8.
- **Training data** ({tr["n"]} pairs; {src}): paragraphs stating 1–5 facts of an entity;
  the question asks the entity for one property. Relevant: that entity's paragraph stating the
  property; irrelevant: the same entity without it, another entity with it, an unrelated entity.
  BioKaLMA questions come from templates; MetaQA questions are the 2-hop **test** questions'
  first hop (kept apart from the 1-hop test questions below).
- **Training**: {tr["config"]["epochs"]} epoch(s), batch {tr["config"]["batch_size"]}, lr {tr["config"]["lr"]},
  max length {tr["config"]["max_length"]}; {summary["seconds"]["train"]:.0f} s on {summary["machine"]}.

## Scores: {te["set"]}

| ranker | queries | P@1 | MRR |
| --- | --- | --- | --- |
{rows}

`fused` is what the document retriever uses: logit(P(relevant)) + {te["fused"]["weight"]:g} × bi-encoder cosine; the
weight was chosen on the dev set ({summary["dev"]["set"]}: P@1 {summary["dev"]["fused"]["p_at_1"]:.3f} fused,
{summary["dev"]["cross_encoder"]["p_at_1"]:.3f} cross-encoder alone, {summary["dev"]["bi_encoder"]["p_at_1"]:.3f} bi-encoder).

## License and limits

BioKaLMA is S-Lab License 1.0 (non-commercial); MetaQA is under a Creative Commons license whose
variant our copy does not state (see `kgcite/data/metaqa/README.md`): check it before commercial use.
Trained on fact-stating paragraphs only, not on web pages: it knows entity-and-property
relevance, not general topical relevance. For web-scale use load an MS MARCO cross-encoder
with `--reranker hf:PATH`.
"""
