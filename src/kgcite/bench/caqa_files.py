"""A built CAQA benchmark on disk: train/dev/test JSONL, ``skipped.jsonl`` and ``stats.md``.

Every file is written whole under a temporary name first, and only then are they all renamed
into place: an interrupted build leaves the previous benchmark as it was, never new train/dev
splits beside an old test split (the same questions on both sides).
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


def write_together(files: dict[Path, str]) -> None:
    """Write every file to ``NAME.tmp``, then rename them all into place."""
    for path, text in files.items():
        path.with_suffix(path.suffix + ".tmp").write_text(text, encoding="utf-8")
    for path in files:
        os.replace(path.with_suffix(path.suffix + ".tmp"), path)


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
    files = {out / f"{split}.jsonl": "".join(lines[split]) for split in SPLITS}
    files[out / "skipped.jsonl"] = "".join(json.dumps({"id": i, "reason": r}) + "\n" for i, r in info.skipped_ids)
    skipped = ", ".join(f"{k}: {v:,}" for k, v in sorted(info.skipped.items()))
    rules = ", ".join(f"{k}: {v:,}" for k, v in info.rules.most_common())
    stats = (
        f"# CAQA-style benchmark\n\nBuilt by `kgcite build caqa` from `{info.graph}` and {info.questions:,} KGQA samples "
        f"(`{info.question_format}`), seed {info.seed}, `{info.verbaliser}` verbaliser; "
        f"{len(samples):,} samples in {info.seconds:.1f} s.\n\n"
        f"{stats_table(counts)}\n\nNot emitted: {skipped or 'nothing'} (each sample and reason in skipped.jsonl).\n\n"
        f"Answer statements by rule (per source question): {rules or 'none'}.\n"
    )
    files[out / "stats.md"] = stats
    write_together(files)
    return stats
