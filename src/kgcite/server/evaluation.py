"""A ``/eval/citations`` body parsed, checked and scored in a worker process.

Parsing holds the interpreter lock for its whole length (3.6 MB of ``[]``: 0.6–0.9 s on this
2-core machine, one body after another), so in a thread it still kept ``/health`` and every
other request waiting for seconds; a process shares no lock with the server's loop. The outcome
is plain data, read back by the server: a report, or the errors to answer with.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ValidationError

from kgcite.errors import InputError
from kgcite.evaluate.metrics.citation import CitationReport
from kgcite.evaluate.records.answer_file import record_from_obj
from kgcite.evaluate.records.report import citation_report
from kgcite.jsonl import loads
from kgcite.schema import MAX_ANSWERS, EvalCitationsRequest

#: ("report", the report) | ("invalid", a request validation error's list) | ("item", a 422 detail)
Outcome = tuple[Literal["report", "invalid", "item"], Any]


def score_body(body: bytes) -> Outcome:
    """The citation report of a request body, or why it is refused."""
    try:
        data = loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        msg = "JSON nested too deep" if "nested too deep" in str(exc) else str(exc)[:200]
        return "invalid", [{"type": "json_invalid", "loc": ("body",), "msg": msg}]
    answers = data.get("answers") if isinstance(data, dict) else None
    if isinstance(answers, list) and len(answers) > MAX_ANSWERS:  # before item by item: it is refused anyway
        msg = f"at most {MAX_ANSWERS:,} answers a request"
        return "invalid", [{"type": "too_long", "loc": ("body", "answers"), "msg": msg}]
    try:
        req = EvalCitationsRequest.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        return "invalid", [{**e, "loc": ("body", *e["loc"])} for e in errors]
    try:
        records = [record_from_obj(obj, f"answers[{i}]", i) for i, obj in enumerate(req.answers)]
    except InputError as err:  # names the item and its bad field
        return "item", {"msg": str(err).replace(f":{err.line}:", ":", 1), "index": err.line, "field": err.field}
    report: CitationReport
    report, _ = citation_report(records, req.precision_unit)
    return "report", report
