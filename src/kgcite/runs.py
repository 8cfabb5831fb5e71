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

from kgcite.errors import InputError, LLMError, UsageError
from kgcite.generate.pipeline import AttributedAnswer, Generator
from kgcite.jsonl import appending, read_jsonl, read_trimmed
from kgcite.kg.loaders import read_biokalma, shipped_biokalma, subgraph_to_biokalma


@dataclass(frozen=True)
class DatasetItem:
    id: str
    question: str
    minimum_knowledge: tuple[tuple[str, str, str], ...] = ()
    reference_entities: tuple[str, ...] = ()  # QIDs of the graph the dataset authors retrieved
    answers: tuple[str, ...] = ()  # gold answer labels (question-answering datasets)
    topic: tuple[str, ...] = ()  # topic entity ids or labels, when the dataset names them


def dataset_file(path: Path) -> list[DatasetItem]:
    """A JSONL dataset: ``question``, and optionally ``id`` (default: the line number), ``answers``
    and ``topic`` (label lists: question answering), ``minimum_knowledge`` ([qid, property, value]
    lists) and ``kg`` (BioKaLMA entity dicts; what ``kgcite build kalma`` writes)."""
    items = []
    for lineno, obj in read_jsonl(path):
        try:
            mk = tuple((str(a), str(b), str(c)) for a, b, c in obj.get("minimum_knowledge") or ())
            refs = tuple(str(e["qid"]) for e in obj.get("kg") or ())
            answers, topic = _labels(obj.get("answers")), _labels(obj.get("topic"), "topic")
            if not str(obj["question"]).strip():
                raise InputError(path, lineno, "question", "empty question")
            item_id = str(obj.get("id", lineno))  # a run resumes by id: the line's number where none is given
            items.append(DatasetItem(item_id, str(obj["question"]), mk, refs, answers, topic))
        except KeyError as exc:
            raise InputError(path, lineno, str(exc.args[0]), "missing field") from exc
        except _LabelsError as exc:
            raise InputError(path, lineno, exc.field, "expected a label or a list of labels") from exc
        except (TypeError, ValueError) as exc:
            raise InputError(
                path, lineno, "minimum_knowledge", f"expected [qid, property, value] lists: {exc}"
            ) from exc
    return items


class _LabelsError(ValueError):
    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


def _labels(value: Any, field: str = "answers") -> tuple[str, ...]:
    """A label or a list of labels (``answers``, ``topic``) as a tuple of strings."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return tuple(str(v) for v in value)
    raise _LabelsError(field)


def metaqa_dataset(spec: str) -> list[DatasetItem]:
    """``metaqa:2-hop`` (test split) or ``metaqa:2-hop:dev``: the shipped MetaQA questions."""
    from kgcite.bench.metaqa import read_questions

    parts = spec.split(":")
    hops_text = parts[1] if len(parts) > 1 else ""
    split = parts[2] if len(parts) > 2 else "test"
    if hops_text not in ("1-hop", "2-hop", "3-hop") or split not in ("test", "dev") or len(parts) > 3:
        raise UsageError(
            f"unknown dataset {spec!r}; use metaqa:1-hop, metaqa:2-hop or metaqa:3-hop (add :dev for the dev split)"
        )
    hops = int(hops_text[0])
    return [
        DatasetItem(f"metaqa-{hops}hop-{split}-{q.line}", q.question, answers=q.answers, topic=(q.topic,))
        for q in read_questions(hops, split)
    ]


def dataset(name: str) -> list[DatasetItem]:
    """``biokalma`` (both splits), ``biokalma:specific``, ``biokalma:general``,
    ``metaqa:N-hop[:dev]``, or a JSONL file."""
    if name.endswith(".jsonl"):
        if not Path(name).exists():
            raise InputError(name, None, None, "no such dataset file")
        return dataset_file(Path(name))
    base, _, split = name.partition(":")
    if base == "metaqa":
        return metaqa_dataset(name)
    if base != "biokalma" or split not in ("", "specific", "general"):
        raise UsageError(
            f"unknown dataset {name!r}; available: biokalma, biokalma:specific, biokalma:general, metaqa:1-hop|2-hop|3-hop[:dev], or a .jsonl file"
        )
    splits = [split] if split else ["specific", "general"]
    items = []
    for sp in splits:
        for path in shipped_biokalma(sp):
            for it in read_biokalma(path):
                items.append(DatasetItem(f"{sp}-{it.index}", it.question, (), tuple(e.id for e in it.graph.entities)))
    return items


def _fields(item: DatasetItem, result: AttributedAnswer | LLMError, d: dict[str, Any] | None) -> dict[str, Any]:
    """The fields every run line has; ``d`` is the answer's :meth:`~AttributedAnswer.to_dict` (None: failed)."""
    base: dict[str, Any] = {
        "id": item.id,
        "question": item.question,
        "minimum_knowledge": [list(k) for k in item.minimum_knowledge],
    }
    if isinstance(result, LLMError) or d is None:
        return base | {"status": "failed", "error": str(result), "answer": "", "kg": []}
    return base | {
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
        "form": d["form"],
        "predicted": d["predicted"],  # labels, a number (a count) or yes/no
    }


def answer_record(item: DatasetItem, result: AttributedAnswer | LLMError) -> dict[str, Any]:
    """The JSONL line: what ``kgcite eval citations`` reads, plus the answer's provenance."""
    from kgcite.schema import RunRecord  # here, not at import: pydantic costs every command ~130 ms

    d = None if isinstance(result, LLMError) else result.to_dict()
    return RunRecord(**_fields(item, result, d)).line()


def qa_record(item: DatasetItem, result: AttributedAnswer | LLMError, graph: str = "") -> dict[str, Any]:
    """A question-answering line: everything ``ask --json`` gives plus the gold ``answers``,
    the ``topic`` labels, ``predicted`` (best first), ``answer_paths``, ``llm_calls``, ``ms``
    and the ``graph`` it was answered on (what ``kgcite eval answers`` reads)."""
    from kgcite.schema import RunRecord

    if isinstance(result, LLMError):
        fields = _fields(item, result, None)
        return RunRecord(**fields, answers=list(item.answers), graph=graph, topic=list(item.topic), predicted=[]).line()
    d = result.to_dict()  # once: it builds the whole answer record
    return RunRecord(
        **_fields(item, result, d),
        answers=list(item.answers),
        graph=graph,
        topic=[e.label for e in result.retrieved.entities] or list(item.topic),
        answer_paths=d["answer_paths"],
        sentences=d["sentences"],
        path=d["path"],
        llm_calls=result.timings.llm_calls,
        ms=round(1000 * result.timings.get("total", result.timings.get("paths", 0.0)), 2),
    ).line()


def finished_ids(path: Path) -> set[str]:
    """Ids answered (status ok) in an existing output, read without changing it: another run may
    be writing it (the lock is taken, and a torn line cut, only when answering starts)."""
    return {str(obj.get("id")) for obj in read_trimmed(path, "status", cut=False) if obj.get("status") == "ok"}


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
    with appending(out, "status") as (rows, fh):
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
        items,
        out,
        lambda batch: generator.answer_many([it.question for it in batch]),
        answer_record,
        batch_size=batch_size,
        on_progress=on_progress,
    )
