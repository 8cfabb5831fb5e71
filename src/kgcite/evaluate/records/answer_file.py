"""Answer files: the JSONL that ``kgcite run`` writes and ``kgcite eval`` reads.

One line per answer: ``{"id", "question", "answer", "kg", "minimum_knowledge"}``, ``kg`` a list
of BioKaLMA-style entity dicts, ``minimum_knowledge`` a list of ``[qid, property, value]``;
optional ``absent_knowledge`` (same shape): the knowledge removed from ``kg`` before answering,
which ``[NA]`` precision and recall are scored against.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgcite.errors import InputError
from kgcite.generate.citations import ParsedAnswer, parse_answer
from kgcite.jsonl import loads, text_lines
from kgcite.kg.loaders import biokalma_subgraph
from kgcite.kg.model import Subgraph, TripleKey


@dataclass(frozen=True)
class AnswerRecord:
    id: str
    question: str
    answer: str
    graph: Subgraph
    minimum: tuple[TripleKey, ...]
    line: int
    status: str = "ok"
    absent: tuple[TripleKey, ...] | None = None  # "failed": the run could not answer; the answer is not scored

    def parsed(self) -> ParsedAnswer:
        """The answer's citations, values resolved against this question's graph."""
        return parse_answer(self.answer, self.graph)


def _field(obj: dict[str, Any], name: str, kind: type, path: Path, line: int) -> Any:
    if name not in obj:
        raise InputError(path, line, name, "missing")
    value = obj[name]
    if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool) and name == "id":
        return str(value)
    if not isinstance(value, kind):
        raise InputError(path, line, name, f"expected {kind.__name__}, got {type(value).__name__}")
    return value


def parse_record(text: str, path: Path, line: int, answer_field: str | None = "answer") -> AnswerRecord:
    """One JSONL line to a record; an :class:`InputError` names the line and the bad field."""
    try:
        obj = loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(path, line, None, f"invalid JSON: {exc.msg} (column {exc.colno})") from exc
    return record_from_obj(obj, path, line, answer_field)


def record_from_obj(obj: Any, path: str | Path, line: int, answer_field: str | None = "answer") -> AnswerRecord:
    """An already-decoded answer object (a file line, or an item of an HTTP request) to a record."""
    path = Path(path)
    if not isinstance(obj, dict):
        raise InputError(path, line, None, f"expected a JSON object, got {type(obj).__name__}")
    status = obj.get("status", "ok")
    if status not in ("ok", "failed"):
        raise InputError(path, line, "status", f"expected 'ok' or 'failed', got {status!r}")
    minimum = _knowledge(_field(obj, "minimum_knowledge", list, path, line), "minimum_knowledge", path, line)
    absent = None
    if obj.get("absent_knowledge") is not None:
        absent = _knowledge(_field(obj, "absent_knowledge", list, path, line), "absent_knowledge", path, line)
    return AnswerRecord(
        id=_field(obj, "id", str, path, line),
        question=_field(obj, "question", str, path, line),
        answer=(
            ""
            if answer_field is None  # a dataset item, not an answer yet
            else _field(obj, answer_field, str, path, line)
            if status == "ok"
            else str(obj.get(answer_field) or "")
        ),
        graph=biokalma_subgraph(_field(obj, "kg", list, path, line), where=(path, line), field="kg"),
        minimum=minimum,
        line=line,
        status=status,
        absent=absent,
    )


def _knowledge(items: list[Any], name: str, path: Path, line: int) -> tuple[TripleKey, ...]:
    out = []
    for i, item in enumerate(items):
        if not (isinstance(item, list) and len(item) == 3 and all(isinstance(x, str) for x in item)):
            raise InputError(path, line, f"{name}[{i}]", "expected [qid, property, value] strings")
        out.append((item[0].strip(), item[1].strip(), item[2].strip()))
    return tuple(out)


def read_records(
    path: str | Path, *, skip_bad: bool = False, answer_field: str | None = "answer"
) -> Iterator[AnswerRecord | InputError]:
    """Records of an answer file; with ``skip_bad`` a bad line yields its error instead of raising.
    ``answer_field`` scores another text of the line (e.g. ``raw_output``: a model's unrepaired answer);
    ``None`` reads dataset items, which have no answer yet."""
    path = Path(path)
    for line_no, text in text_lines(path):
        try:
            if isinstance(text, InputError):
                raise text
            if not text.strip():
                continue
            yield parse_record(text, path, line_no, answer_field)
        except InputError as err:
            if not skip_bad:
                raise
            yield err
