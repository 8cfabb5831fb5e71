"""EWEK-QA's composer: validity and alignment checks on what a model wrote, the extractive floor,
and the real SmolLM2 under the citation grammar."""

from __future__ import annotations

import pytest

from kgcite.errors import InputError
from kgcite.generate.compose import (
    EvidenceQuote,
    QuoteComposer,
    cited_indices,
    evidence_quotes,
    quoted_answer_from_dict,
)
from kgcite.judge.quotes import NLIQuoteVerifier
from kgcite.kg.model import Triple
from kgcite.models.embed import OnnxMiniLM
from kgcite.models.llamacpp import LlamaCppLLM
from kgcite.models.llm import ChatRequest, ChatResult
from kgcite.models.nli import OnnxNLI
from kgcite.retrieve.documents.model import Passage, Quote

QUESTION = "Where did Stephen Crane die?"
TRIPLES = [
    Triple("Q206534", "Stephen Crane", "place of death", "Badenweiler", "Q57755"),
    Triple("Q206534", "Stephen Crane", "date of death", "1900-06-05"),
]
DOC = "Crane died of tuberculosis at a health spa in Badenweiler, Germany. He was buried in Evergreen Cemetery in Hillside, New Jersey."


def quotes() -> list[EvidenceQuote]:
    doc = Quote(Passage("crane.html", DOC, 0, len(DOC), "splitter"), 0.9, 0.7)
    return evidence_quotes(TRIPLES, [doc])


class _Says:
    """A deterministic stand-in model that writes the given answer."""

    name = "scripted"

    def __init__(self, text: str) -> None:
        self.text = text

    def chat_many(self, requests: list[ChatRequest]) -> list[ChatResult]:
        return [ChatResult(self.text, self.name) for _ in requests]


def composer(text: str | None, embedder: OnnxMiniLM, nli: OnnxNLI | None) -> QuoteComposer:
    return QuoteComposer(_Says(text) if text is not None else None, embedder, NLIQuoteVerifier(nli))  # type: ignore[arg-type]


def test_kg_triples_are_quote_one() -> None:
    q = quotes()
    assert [x.index for x in q] == [1, 2] and q[0].kind == "kg" and q[1].kind == "document"
    assert q[0].text == "Stephen Crane died in Badenweiler. Stephen Crane died on June 5, 1900."
    assert q[0].triples == tuple(t.key for t in TRIPLES)
    assert evidence_quotes([], [])[:1] == []


def test_invalid_numbers_are_counted_and_dropped(embedder: OnnxMiniLM, nli: OnnxNLI) -> None:
    a = composer(
        "Stephen Crane died in Badenweiler [1][7]. He was buried in Evergreen Cemetery [9].", embedder, nli
    ).compose(QUESTION, quotes())
    assert (a.written_citations, a.invalid_citations) == (3, 2)
    assert cited_indices(a.sentences[0]) == [1] and not a.sentences[0].na
    assert a.sentences[1].na and not cited_indices(a.sentences[1])  # its only citation named no quote
    assert not a.extractive and a.model == "scripted"
    assert any("[9] names no quote" in r for r in a.repairs)


def test_unsupported_and_invented_citations_are_dropped(embedder: OnnxMiniLM, nli: OnnxNLI) -> None:
    text = "Stephen Crane died in Badenweiler [2]. Crane was buried in Evergreen Cemetery [1]. Crane died in Badenweiler in 1871 [1]."
    a = composer(text, embedder, nli).compose(QUESTION, quotes())
    assert cited_indices(a.sentences[0]) == [2]  # the document says so: verbatim words or NLI
    assert a.sentences[1].na  # the KG quote says nothing of a burial
    assert a.sentences[2].na  # 1871 is in no cited quote


class _Credulous:
    """A verifier that supports everything: isolates the names-and-numbers check."""

    def supported(self, pairs: list[tuple[str, str]]) -> list[bool]:
        return [True] * len(pairs)


def test_names_and_numbers_must_come_from_the_cited_quotes(embedder: OnnxMiniLM) -> None:
    text = (
        "Crane died in Badenweiler on June 5, 1900 [1]. Crane died in Badenweiler in 1871 [1]. He died in Berlin [2]."
    )
    a = QuoteComposer(_Says(text), embedder, _Credulous()).compose(QUESTION, quotes())  # type: ignore[arg-type]
    assert cited_indices(a.sentences[0]) == [1]  # the KG's 1900-06-05, spoken
    assert a.sentences[1].na and a.sentences[2].na
    assert sum("names something" in r for r in a.repairs) == 2


def test_no_model_or_no_kept_citation_gives_the_extractive_floor(embedder: OnnxMiniLM, nli: OnnxNLI) -> None:
    for text in (None, "Crane liked baseball [1].", "1: Crane died. 2: He was buried."):
        a = composer(text, embedder, nli).compose(QUESTION, quotes())
        assert a.extractive and a.model == "extractive"
        by_index = {q.index: q for q in a.quotes}
        for s in a.sentences:
            [i] = cited_indices(s)
            assert s.text in by_index[i].text  # verbatim from the quote it cites
        assert {cited_indices(s)[0] for s in a.sentences} == {1, 2}
        assert "Badenweiler" in a.sentences[0].text
        # the stages say what ran: no model, only the extract; a model, its call and the verify too
        assert a.timings.llm_calls == (0 if text is None else 1)
        assert list(a.timings) == (["extract"] if text is None else ["generate", "verify", "extract"])


def test_the_extractive_answer_picks_the_sentence_that_answers_what_was_asked(embedder: OnnxMiniLM) -> None:
    """MiniLM alone ranks "surname is Crane" above "father is Jonathan Townley Crane" for the
    father question; the asked word decides, and a "His …" sentence brings the one naming him."""
    triples = [
        Triple("Q206534", "Stephen Crane", "surname", "Crane"),
        Triple("Q206534", "Stephen Crane", "father", "Jonathan Townley Crane"),
    ]
    text = "Stephen Crane was an American writer. His father was a Methodist minister."
    doc = Quote(Passage("crane.txt", text, 0, len(text), "splitter"), 0.9, 0.7)
    a = composer(None, embedder, None).compose("Who was Stephen Crane's father?", evidence_quotes(triples, [doc]))
    assert [s.text for s in a.sentences] == [
        "Stephen Crane's father is Jonathan Townley Crane.",
        "Stephen Crane was an American writer.",
        "His father was a Methodist minister.",
    ]


def test_nothing_to_quote() -> None:
    a = QuoteComposer(None, OnnxMiniLM(), NLIQuoteVerifier(None)).compose(QUESTION, [])
    assert len(a.sentences) == 1 and a.sentences[0].na


def test_answer_round_trips_through_json(embedder: OnnxMiniLM, nli: OnnxNLI) -> None:
    a = composer("Stephen Crane died in Badenweiler [1][2].", embedder, nli).compose(QUESTION, quotes())
    assert quoted_answer_from_dict(a.to_dict()).to_dict() == a.to_dict()
    with pytest.raises(InputError, match=r"answers.jsonl:3: sentences: Field required"):
        quoted_answer_from_dict({"question": "q"}, "answers.jsonl", 3)
    broken = a.to_dict()
    broken["quotes"][0]["index"] = "first"
    with pytest.raises(InputError, match=r"quotes.0.index: Input should be a valid integer"):
        quoted_answer_from_dict(broken, "answers.jsonl", 3)


def test_smollm_under_the_grammar_cites_only_given_quotes(
    smollm: LlamaCppLLM, embedder: OnnxMiniLM, nli: OnnxNLI
) -> None:
    c = QuoteComposer(smollm, embedder, NLIQuoteVerifier(nli), constrained=True)
    a = c.compose(QUESTION, quotes())
    assert a.written_citations >= 1 and a.invalid_citations == 0
    assert a.raw_output.rstrip().endswith("].")
    # whatever it wrote, what comes back cites only quotes that support it
    by_index = {q.index: q for q in a.quotes}
    for s in a.sentences:
        assert s.na or all(i in by_index for i in cited_indices(s))
