"""A built CAQA benchmark on disk: train/dev/test JSONL, ``skipped.jsonl`` and ``stats.md``.

Each file is written whole and then renamed into place, so an interrupted build never leaves a
half-written split beside complete ones.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kgcite.bench.caqa import CaqaSample, split_of, stats_table

SPLITS = ("train", "dev", "test")


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


@dataclass(frozen=True)
class BuildInfo:
    """What ``stats.md`` says about how the benchmark was made."""

    graph: str
    questions: int
    question_format: str  # the --format of the question files, or how the questions were made
    seed: int
    verbaliser: str
    seconds: float
    skipped: Counter[str]
    skipped_ids: Sequence[tuple[str, str]]
    rules: Counter[str]


def write_caqa(out: Path, samples: Sequence[CaqaSample], info: BuildInfo) -> str:
    """Split ``samples`` by :func:`split_of` and write the benchmark; returns the ``stats.md`` text."""
    out.mkdir(parents=True, exist_ok=True)
    lines: dict[str, list[str]] = defaultdict(list)
    counts: dict[str, Counter[str]] = {s: Counter() for s in SPLITS}
    for sample in samples:
        split = split_of(sample.source, sample.complexity, info.seed)
        lines[split].append(json.dumps(sample.to_dict() | {"split": split}, ensure_ascii=False) + "\n")
        counts[split].update([sample.category, sample.complexity])
    for split in SPLITS:
        write_atomic(out / f"{split}.jsonl", "".join(lines[split]))
    write_atomic(out / "skipped.jsonl", "".join(json.dumps({"id": i, "reason": r}) + "\n" for i, r in info.skipped_ids))
    skipped = ", ".join(f"{k}: {v:,}" for k, v in sorted(info.skipped.items()))
    rules = ", ".join(f"{k}: {v:,}" for k, v in info.rules.most_common())
    stats = (
        f"# CAQA-style benchmark\n\nBuilt by `kgcite build caqa` from `{info.graph}` and {info.questions:,} KGQA samples "
        f"(`{info.question_format}`), seed {info.seed}, `{info.verbaliser}` verbaliser; "
        f"{len(samples):,} samples in {info.seconds:.1f} s.\n\n"
        f"{stats_table(counts)}\n\nNot emitted: {skipped or 'nothing'} (each sample and reason in skipped.jsonl).\n\n"
        f"Answer statements by rule (per source question): {rules or 'none'}.\n"
    )
    write_atomic(out / "stats.md", stats)
    return stats
