"""Resumable runs: answer a dataset into an append-only JSONL file, one line per item.

Each finished item is written and fsync'ed before the next batch starts, so a run killed at any
moment (kill -9 included) loses at most the batch in flight; a rerun reads the file, cuts a torn
last line, skips every item already answered and retries the failed ones.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from kgcite.generate.pipeline import AttributedAnswer, Generator
from kgcite.jsonl import appending, read_jsonl, read_trimmed
from kgcite.kg.loaders import InputError, read_biokalma, shipped_biokalma, subgraph_to_biokalma
from kgcite.models.llm import LLMError


@dataclass(frozen=True)
class DatasetItem:
    id: str
    question: str
    minimum_knowledge: tuple[tuple[str, str, str], ...] = ()
    reference_entities: tuple[str, ...] = ()  # QIDs of the graph the dataset authors retrieved


def dataset_file(path: Path) -> list[DatasetItem]:
    """A JSONL dataset (what ``kgcite build kalma`` writes): ``id``, ``question``, optional
    ``minimum_knowledge`` ([qid, property, value] lists) and ``kg`` (BioKaLMA entity dicts)."""
    items = []
    for lineno, obj in read_jsonl(path):
        try:
            mk = tuple((str(a), str(b), str(c)) for a, b, c in obj.get("minimum_knowledge") or ())
            refs = tuple(str(e["qid"]) for e in obj.get("kg") or ())
            items.append(DatasetItem(str(obj["id"]), str(obj["question"]), mk, refs))
        except KeyError as exc:
            raise InputError(path, lineno, str(exc.args[0]), "missing field") from exc
        except (TypeError, ValueError) as exc:
            raise InputError(path, lineno, "minimum_knowledge", f"expected [qid, property, value] lists: {exc}") from exc
    return items


def dataset(name: str) -> list[DatasetItem]:
    """``biokalma`` (both splits), ``biokalma:specific``, ``biokalma:general``, or a JSONL file."""
    if name.endswith(".jsonl"):
        if not Path(name).exists():
            raise InputError(name, None, None, "no such dataset file")
        return dataset_file(Path(name))
    base, _, split = name.partition(":")
    if base != "biokalma":
        raise ValueError(f"unknown dataset {name!r}; available: biokalma, biokalma:specific, biokalma:general")
    splits = [split] if split else ["specific", "general"]
    items = []
    for sp in splits:
        for path in shipped_biokalma(sp):
            for it in read_biokalma(path):
                items.append(DatasetItem(f"{sp}-{it.index}", it.question, (), tuple(e.id for e in it.graph.entities)))
    return items


def answer_record(item: DatasetItem, result: AttributedAnswer | LLMError) -> dict[str, Any]:
    """The JSONL line: what ``kgcite eval citations`` reads, plus the answer's provenance."""
    base: dict[str, Any] = {"id": item.id, "question": item.question, "minimum_knowledge": [list(k) for k in item.minimum_knowledge]}
    if isinstance(result, LLMError):
        return {**base, "status": "failed", "error": str(result), "answer": "", "kg": []}
    d = result.to_dict()
    return {
        **base,
        "status": "ok",
        "answer": d["answer"],
        "kg": subgraph_to_biokalma(result.retrieved),
        "citations": d["citations"],
        "mode": d["mode"],
        "model": d["model"],
        "linked": d["linked"],
        "reference_entities": list(item.reference_entities),
        "repairs": d["repairs"],
        "rewritten": d["rewritten"],
        "raw_output": d["raw_output"],
        "timings": d["timings"],
    }


def finished_ids(path: Path) -> set[str]:
    """Ids answered (status ok) in an existing output; a torn last line is cut off the file."""
    return {str(obj.get("id")) for obj in read_trimmed(path) if obj.get("status") == "ok"}


class Identified(Protocol):
    @property
    def id(self) -> str: ...


ItemT = TypeVar("ItemT", bound=Identified)
Answered = AttributedAnswer | LLMError


def append_answers(
    items: Sequence[ItemT],
    out: Path,
    answer_batch: Callable[[Sequence[ItemT]], Sequence[Answered]],
    to_record: Callable[[ItemT, Answered], dict[str, Any]],
    *,
    batch_size: int = 8,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[int, int, int]:
    """Answer, batch by batch, the items not yet answered in ``out``: every batch's lines are
    written and fsync'ed before the next starts. Returns (skipped as done, answered, failed)."""
    answered = failed = 0
    with appending(out) as (rows, fh):
        done = {str(obj.get("id")) for obj in rows if obj.get("status") == "ok"}
        todo = [it for it in items if it.id not in done]
        for i in range(0, len(todo), batch_size):
            batch = todo[i : i + batch_size]
            results = answer_batch(batch)
            for item, result in zip(batch, results, strict=True):
                fh.write(json.dumps(to_record(item, result), ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
            n_failed = sum(isinstance(r, LLMError) for r in results)
            failed += n_failed
            answered += len(batch) - n_failed
            if on_progress:
                on_progress(len(batch), n_failed)
    return len(items) - len(todo), answered, failed


def run(
    generator: Generator,
    items: Sequence[DatasetItem],
    out: Path,
    *,
    batch_size: int = 8,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[int, int, int]:
    """Answer the dataset items not yet in ``out``; returns (skipped as done, answered, failed)."""
    return append_answers(
        items, out, lambda batch: generator.answer_many([it.question for it in batch]), answer_record,
        batch_size=batch_size, on_progress=on_progress,
    )
