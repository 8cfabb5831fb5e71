"""The JSON formats: readers name the file, line and field of a bad value; writers write only what
the schema knows; a run line holds only the fields that were set."""

from __future__ import annotations

import pytest

from kgcite.errors import InputError
from kgcite.schema import CaqaSampleRecord, EvidenceQuoteRecord, RunRecord, validated

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def test_a_bad_value_is_named_by_file_line_and_field() -> None:
    row = {"question": "q", "answer_statement": "a", "citation": "[1] c", "category": "supportive", "note": "mine"}
    assert validated(CaqaSampleRecord, row, "bench.jsonl", 4).model_dump(exclude_unset=True) == row  # extras kept
    with pytest.raises(InputError, match=r"^bench.jsonl:4: category: Input should be 'supportive'"):
        validated(CaqaSampleRecord, row | {"category": "maybe"}, "bench.jsonl", 4)
    with pytest.raises(InputError, match=r"^bench.jsonl:5: answer_statement: Field required"):
        validated(CaqaSampleRecord, {k: v for k, v in row.items() if k != "answer_statement"}, "bench.jsonl", 5)


def test_a_failed_run_line_has_no_answer_fields() -> None:
    line = RunRecord(id="1", question="q", minimum_knowledge=[], status="failed", error="boom", answer="", kg=[]).line()
    assert list(line) == ["id", "question", "minimum_knowledge", "status", "error", "answer", "kg"]
    with pytest.raises(ValueError, match="status"):
        RunRecord(id="1", question="q", minimum_knowledge=[], status="done")  # type: ignore[arg-type]


def test_document_quotes_are_written_without_triples() -> None:
    doc = EvidenceQuoteRecord(index=2, kind="document", text="t", source="a.html")
    assert doc.model_dump() == {"index": 2, "kind": "document", "text": "t", "source": "a.html"}
    kg = EvidenceQuoteRecord(index=1, kind="kg", text="t", source="knowledge graph", triples=[["Q1", "P1", "v"]])
    assert kg.model_dump()["triples"] == [["Q1", "P1", "v"]]


def test_a_triple_has_three_parts() -> None:
    with pytest.raises(InputError, match=r"^run.jsonl:2: minimum_knowledge.0: List should have at least 3 items"):
        validated(
            RunRecord, {"id": "1", "question": "q", "minimum_knowledge": [["Q1", "P1"]], "status": "ok"}, "run.jsonl", 2
        )
