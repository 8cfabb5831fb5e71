"""Every JSON format kgcite writes or reads, in one place: answers, run lines, CAQA samples, reports.

Writers build these models and dump them, so a file never holds a field its reader does not
know; readers validate with them (:func:`validated`), so a bad line is refused with the file,
the line and the field; the server declares them as its typed responses, so ``/docs`` shows
them. Field order is the order written.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_serializer,
)

from kgcite.errors import InputError

#: ``[subject id, property, value]``
Triple = Annotated[list[str], Field(min_length=3, max_length=3)]


class _Written(BaseModel):
    """A format kgcite writes: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class _Read(BaseModel):
    """A format users also write by hand: fields kgcite does not use are kept, not refused."""

    model_config = ConfigDict(extra="allow")


# -- answers citing triples (KaLMA) ---------------------------------------------------------------


class TripleCitation(_Written):
    qid: str
    property: str
    value: str
    subject: str | None  # the subject's label, when the triple was retrieved


class TripleSentence(_Written):
    text: str
    na: bool
    citations: list[TripleCitation]


class KGAnswer(_Written):
    """``kgcite ask --json`` and every KaLMA answer: sentences with triple citations or ``[NA]``."""

    question: str
    answer: str  # the text with its [qid, property, value] and [NA] marks
    citations: list[Triple]
    sentences: list[TripleSentence]
    mode: str
    model: str
    linked: list[str]
    evidence: list[Triple]
    absent: list[list[str]]
    asked: dict[str, Any] | None
    repairs: list[str]
    rewritten: bool
    raw_output: str
    timings: dict[str, float]
    predicted: list[str]
    answer_paths: dict[str, list[list[str]]]
    path: dict[str, Any] | None
    form: str = "lookup"  # lookup, yesno, count, comparison, superlative, intersection


# -- answers citing numbered quotes (EWEK-QA) ----------------------------------------------------


class EvidenceQuoteRecord(_Written):
    index: int
    kind: Literal["kg", "document"]
    text: str
    source: str
    triples: list[Triple] | None = None  # the KG quote's triples; absent on document quotes

    @model_serializer(mode="wrap")
    def _without_empty_triples(self, handler: Any) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if out.get("triples") is None:
            out.pop("triples", None)
        return out


class QuoteSentence(_Written):
    text: str
    na: bool
    quotes: list[int]


class QuotedAnswerRecord(_Written):
    """An answer citing ``[n]`` quotes, and the quotes it was given."""

    question: str
    answer: str = ""  # the text with its [n] marks (rebuilt from the sentences when read)
    sentences: list[QuoteSentence]
    quotes: list[EvidenceQuoteRecord]
    model: str = ""
    extractive: bool = False
    written_citations: int = 0
    invalid_citations: int = 0
    repairs: list[str] = []
    raw_output: str = ""
    timings: dict[str, float] = {}


# -- what the server accepts: typed, bounded request bodies (FastAPI answers 422 otherwise) -------

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


# -- what the server answers ---------------------------------------------------------------------


class RetrievedTriple(_Written):
    subject_id: str
    subject: str
    property: str
    value: str
    object_id: str | None


class EntityRef(_Written):
    id: str
    label: str


class KGAnswerResponse(KGAnswer):
    """``POST /ask`` with ``source: kg``: the answer plus the retrieved graph it may cite."""

    kind: Literal["triples"]
    retrieved: list[RetrievedTriple]
    retrieved_total: int
    entities: list[EntityRef]
    #: each property as a reader says it (``designed_by`` → ``designed by``), for display only
    property_labels: dict[str, str] = {}


class QuotedAnswerResponse(QuotedAnswerRecord):
    """``POST /ask`` with ``source: docs`` or ``both``."""

    kind: Literal["quotes"]
    mode: Literal["quotes"]


# -- lines of an experiment run (``kgcite run``, ``kgcite experiment``) -------------------------


class RunRecord(_Written):
    """One dataset item answered, or failed (``status``, ``error``). Only the fields set are written:
    a failed line has no citations, a citation run no question-answering fields."""

    id: str
    question: str
    minimum_knowledge: list[Triple]
    status: Literal["ok", "failed"]
    error: str | None = None
    answer: str = ""
    kg: list[dict[str, Any]] = []  # the retrieved graph G, in BioKaLMA's entity format
    citations: list[Triple] = []
    mode: str = ""
    model: str = ""
    linked: list[str] = []
    reference_entities: list[str] = []
    repairs: list[str] = []
    rewritten: bool = False
    raw_output: str = ""
    timings: dict[str, float] = {}
    # question answering (``kgcite eval answers``)
    answers: list[str] = []
    graph: str = ""
    topic: list[str] = []
    form: str = ""  # the question's form (lookup, yesno, count, comparison, superlative, intersection)
    predicted: list[str] = []  # labels best first, a number (count), or yes/no
    answer_paths: dict[str, list[list[str]]] = {}
    sentences: list[TripleSentence] = []
    path: dict[str, Any] | None = None
    llm_calls: int = 0
    ms: float = 0.0

    def line(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


# -- CAQA-style benchmark samples ----------------------------------------------------------------


class CaqaSampleRecord(_Read):
    """A line of ``kgcite build caqa``'s splits. Hand-written benches need only the first four fields."""

    question: str
    answer_statement: str
    citation: str  # "[1] … [2] …": the evidence as the evaluator reads it
    category: Literal["supportive", "partially_supportive", "contradictory", "irrelevant"]
    id: str | None = None
    source: str | None = None
    original_question: str | None = None
    answers: list[str] = []
    citations: list[str] = []
    subgraph: list[Triple] = []
    complexity: str = ""
    n_subfacts: int = 0
    n_supported_subfacts: int = 0
    query: list[list[list[str]]] | None = None
    extension: str = ""
    split: str | None = None


# -- reports -------------------------------------------------------------------------------------


class FactScoreRecord(_Written):
    n: int
    factscore: float
    known: float
    error_rate: float


class EvaluatorReport(_Written):
    """``kgcite evaluate-evaluator``'s ``metrics.json`` (CAQA Tables 6–7)."""

    n: int
    overall_micro_f1: float | None
    f1: dict[str, float | None]
    complexity_micro_f1: dict[str, float | None]
    labels: list[str]
    predicted_labels: list[str]
    confusion: list[list[int]]
    evaluator: str = ""
    samples_per_s: float | None = None
    factscore: FactScoreRecord | None = None


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], obj: Any, path: Any, line: int | None) -> M:
    """``obj`` as ``model``, or an :class:`InputError` naming the file, the line and the first bad field."""
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        raise InputError(path, line, field, first["msg"]) from None
