"""A built CAQA benchmark on disk: train/dev/test JSONL, ``skipped.jsonl`` and ``stats.md``.

The files are written whole into a new folder beside ``OUT``, which then takes the old one's
place by renaming folders, not files: an interrupted build leaves the previous benchmark or the
new one, never new train/dev splits beside an old test split (the same questions on both sides).
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kgcite.bench.caqa import CaqaSample, split_of, stats_table

SPLITS = ("train", "dev", "test")


def write_together(out: Path, files: dict[str, str]) -> None:
    """Write ``files`` (name → text) as the folder ``out``: into ``.OUT.new`` first, synced, then
    ``out`` becomes ``.OUT.old`` and ``.OUT.new`` becomes ``out``. Other files a user keeps in
    ``out`` move to the new folder first. A build killed between the two renames leaves no
    ``out`` and two whole folders; the next build (or read of :func:`settle`) finishes the swap."""
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(20, "Not a directory", str(out))
    stage, old = settle(out)
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    try:
        for name, text in files.items():
            with open(stage / name, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
    except BaseException:  # a full disk: the old benchmark stays, and no half-written folder beside it
        shutil.rmtree(stage, ignore_errors=True)
        raise
    if out.exists():
        for entry in out.iterdir():
            if entry.name not in files:
                entry.rename(stage / entry.name)
        out.rename(old)
    stage.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def settle(out: Path) -> tuple[Path, Path]:
    """Finish a swap a killed build left half done, and return the new and old folders' paths."""
    stage, old = out.with_name(f".{out.name}.new"), out.with_name(f".{out.name}.old")
    if not out.exists() and stage.is_dir() and old.is_dir():
        stage.rename(out)  # the new folder is whole: the old one was moved aside only after it was written
    if out.exists():
        shutil.rmtree(old, ignore_errors=True)
    return stage, old


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
    lines: dict[str, list[str]] = defaultdict(list)
    counts: dict[str, Counter[str]] = {s: Counter() for s in SPLITS}
    for sample in samples:
        split = split_of(sample.source, sample.complexity, info.seed)
        lines[split].append(json.dumps(sample.to_dict() | {"split": split}, ensure_ascii=False) + "\n")
        counts[split].update([sample.category, sample.complexity])
    files = {f"{split}.jsonl": "".join(lines[split]) for split in SPLITS}
    files["skipped.jsonl"] = "".join(json.dumps({"id": i, "reason": r}) + "\n" for i, r in info.skipped_ids)
    skipped = ", ".join(f"{k}: {v:,}" for k, v in sorted(info.skipped.items()))
    rules = ", ".join(f"{k}: {v:,}" for k, v in info.rules.most_common())
    stats = (
        f"# CAQA-style benchmark\n\nBuilt by `kgcite build caqa` from `{info.graph}` and {info.questions:,} KGQA samples "
        f"(`{info.question_format}`), seed {info.seed}, `{info.verbaliser}` verbaliser; "
        f"{len(samples):,} samples in {info.seconds:.1f} s.\n\n"
        f"{stats_table(counts)}\n\nNot emitted: {skipped or 'nothing'} (each sample and reason in skipped.jsonl).\n\n"
        f"Answer statements by rule (per source question): {rules or 'none'}.\n"
    )
    files["stats.md"] = stats
    write_together(out, files)
    return stats
