"""One answer contract: both answer pipelines are Answerers, both graph retrievers are
GraphRetrievers, and the quote composer answers from either retriever (real store and models)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgcite.generate.answerer import Answer, Answerer
from kgcite.generate.compose import QuoteAnswerer, QuoteComposer
from kgcite.judge.quotes import NLIQuoteVerifier
from kgcite.kg import EmbeddedStore
from kgcite.models.embed import OnnxMiniLM
from kgcite.models.nli import OnnxNLI
from kgcite.retrieve.base import GraphEvidence, GraphRetriever
from kgcite.retrieve.retriever import KGRetriever
from kgcite.runtime import Runtime, RuntimeConfig
from kgcite.schema import KGAnswer, QuotedAnswerRecord


@pytest.fixture(scope="module")
def runtime(books_store: EmbeddedStore) -> Runtime:
    return Runtime(RuntimeConfig(cache=None), store=books_store)


def retrievers(runtime: Runtime) -> dict[str, GraphRetriever]:
    assert runtime.paths is not None
    return {"one-hop": runtime.retriever, "paths": runtime.paths, "tog-e": runtime.tog_e}


@pytest.mark.parametrize("name", ["one-hop", "paths", "tog-e"])
def test_every_graph_retriever_starts_from_the_topic_given_or_linked(runtime: Runtime, name: str) -> None:
    retriever = retrievers(runtime)[name]
    assert isinstance(retriever, GraphRetriever)
    for topics in (None, ["Night Ferry"]):
        found = retriever.search("Who wrote Night Ferry?", topics)
        assert isinstance(found, GraphEvidence) and found.question == "Who wrote Night Ferry?"
        assert found.triples[0].subject_label == "Night Ferry", (name, topics, found.triples)
        assert found.timings and all(v >= 0 for v in found.timings.values())
        if name != "tog-e":  # ToG-E's beam walks on to depth 3 and drops the one-hop answer
            written = [t for t in found.triples if t.subject_label == "Night Ferry" and "written" in t.relation]
            assert [t.object_value for t in written] == ["Tomas Reyl"], (name, topics, found.triples)


@pytest.mark.parametrize("name", ["one-hop", "paths", "tog-e"])
def test_no_topic_no_evidence(runtime: Runtime, name: str) -> None:
    assert retrievers(runtime)[name].search("Who wrote the lost manuscript?").triples == ()


def test_a_topic_the_graph_lacks_is_named() -> None:
    store = EmbeddedStore()
    with pytest.raises(ValueError, match="'Nowhere' is not in the graph"):
        KGRetriever(store, linker=None).search("Who wrote it?", ["Nowhere"])  # type: ignore[arg-type]


def test_both_answer_pipelines_are_answerers(runtime: Runtime, embedder: OnnxMiniLM, nli: OnnxNLI) -> None:
    composer = QuoteComposer(None, embedder, NLIQuoteVerifier(nli))  # no LLM: the extractive answer
    pipelines: dict[str, Answerer] = {
        "grounded": runtime.generator("grounded"),
        "quotes over one-hop graphs": QuoteAnswerer(composer, runtime.retriever, None),
        "quotes over relation paths": QuoteAnswerer(composer, runtime.paths, None),
    }
    for name, pipeline in pipelines.items():
        assert isinstance(pipeline, Answerer), name
        answers = pipeline.answer_many(["Who wrote Night Ferry?", "Where was Ines Calder born?"])
        assert len(answers) == 2
        for a, expected in zip(answers, ("Tomas Reyl", "Lisbon"), strict=True):
            assert isinstance(a, Answer), (name, a)
            assert expected in a.answer and not a.sentences[0].na, (name, a.answer)
            assert a.to_dict()["question"] == a.question
            record = KGAnswer if name == "grounded" else QuotedAnswerRecord
            assert record.model_validate(a.to_dict()).model_dump() == a.to_dict()  # the writer keeps the schema


def test_an_answer_file_line_is_the_answer_dict(runtime: Runtime, tmp_path: Path) -> None:
    a = runtime.generator("grounded").answer("Who published Salt Roads?")
    assert "Northwind" in a.answer and a.to_dict()["answer"] == a.answer
