"""What the HTTP API accepts: typed, bounded request bodies (FastAPI answers 422 otherwise)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

MAX_QUESTION_CHARS = 1_000
MAX_ANSWERS = 5_000


def _encodable(text: str) -> str:
    """A lone surrogate ("\\ud800" in JSON) is no text: refused with 422, not a 500 deep in spaCy."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"not valid Unicode text at character {exc.start} (a lone surrogate)") from exc
    return text


Question = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_QUESTION_CHARS),
    AfterValidator(_encodable),
]


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: Question
    mode: Literal["grounded", "free"] = "grounded"
    source: Literal["kg", "docs", "both"] = Field(
        "kg", description="kg: KaLMA triple citations; docs/both: EWEK-QA quotes"
    )


class EvalCitationsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answers: list[dict[str, Any]] = Field(
        min_length=1, max_length=MAX_ANSWERS, description="answer objects, as the lines `kgcite run` writes"
    )
    precision_unit: Literal["citation", "distinct"] = "citation"
