"""Grounded and free generation on the shipped BioKaLMA graph with the real default model."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kgcite.generate.citations import NACitation, Sentence, cite_triples, parse_answer
from kgcite.generate.pipeline import AttributedAnswer, FreeGenerator, GroundedGenerator, repair
from kgcite.kg import EmbeddedStore, Subgraph, Triple
from kgcite.models.embed import OnnxMiniLM
from kgcite.models.llamacpp import LlamaCppLLM
from kgcite.models.llm import ChatRequest, ChatResult, LLMError
from kgcite.models.ner import SpacyNER
from kgcite.retrieve.linking import EntityLinker
from kgcite.retrieve.retriever import KGRetriever

CRANE = [
    Triple("Q206534", "Stephen Crane", "father", "Jonathan Townley Crane"),
    Triple("Q206534", "Stephen Crane", "place of birth", "Newark"),
]


@pytest.fixture(scope="module")
def retriever(biokalma_store: EmbeddedStore, ner: SpacyNER) -> KGRetriever:
    return KGRetriever(biokalma_store, EntityLinker(biokalma_store, ner))


def grounded(retriever: KGRetriever, llm, embedder: OnnxMiniLM | None = None) -> GroundedGenerator:  # type: ignore[no-untyped-def]
    return GroundedGenerator(retriever, llm)


def test_grounded_answer_cites_the_father(retriever: KGRetriever, smollm: LlamaCppLLM, embedder: OnnxMiniLM) -> None:
    a = grounded(retriever, smollm, embedder).answer("Who was Stephen Crane's father?")
    assert ["Q206534", "father", "Jonathan Townley Crane"] in a.citations()
    assert all(tuple(c) in a.retrieved for c in a.citations())  # every citation is a retrieved triple
    assert "Jonathan Townley Crane" in a.answer
    assert set(a.timings) >= {"link", "retrieve", "plan", "generate", "verify"}


def test_grounded_without_entities_says_na(retriever: KGRetriever, embedder: OnnxMiniLM) -> None:
    a = grounded(retriever, None, embedder).answer("What is the boiling point of water?")
    assert a.citations() == [] and all(s.na for s in a.sentences) and a.model == "template"


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        ("Stephen Crane's father was Jonathan Townley Crane, and he was born in Newark.", True),
        ("Stephen Crane was born in Newark. His father was Jonathan Townley Crane.", True),
        ("Stephen Crane was born in Newark.", False),  # drops a fact
        ("Stephen Crane was born in Newark in 1871 to Jonathan Townley Crane.", False),  # invents a year
        ("Stephen Crane was born in Newark, New Jersey, to Jonathan Townley Crane.", False),  # invents a place
        (
            "Stephen Crane was born in Newark to Jonathan Townley Crane. He loved baseball.",
            False,
        ),  # an uncited sentence
        ("- father: Jonathan Townley Crane\n- born: Newark", False),  # a list, not prose
        ("Stephen Crane was born in Newark [Q1, x: y] to Jonathan Townley Crane.", False),  # brackets of its own
    ],
)
def test_rewrites_are_kept_only_when_they_state_exactly_the_facts(
    text: str, accepted: bool, embedder: OnnxMiniLM
) -> None:
    gen = GroundedGenerator(None, None)  # type: ignore[arg-type]
    result = gen.accept_rewrite(text, CRANE)
    assert (result is not None) == accepted
    if result is not None:
        assert {t.key for s in result for t in s.cited_triples()} == {t.key for t in CRANE}  # type: ignore[misc]


def test_verify_drops_unstated_citations_and_flags_na() -> None:
    graph = Subgraph((), tuple(CRANE))
    gen = GroundedGenerator(None, None)  # type: ignore[arg-type]
    sentences = (
        Sentence("Stephen Crane was a writer.", ()),
        Sentence("His father was Jonathan Townley Crane.", cite_triples([CRANE[0].key, CRANE[1].key])),
        Sentence("He liked baseball.", cite_triples([CRANE[1].key])),
    )
    checked, notes = gen.verify(sentences, graph)
    # "His" has its antecedent in the sentence before: the father is stated, the birthplace is not
    assert checked[1].cited_triples()[0].key == CRANE[0].key and len(checked[1].cited_triples()) == 1
    assert checked[2].na and not checked[2].cited_triples()
    assert checked[0].na  # cites nothing: flagged in any mode, never a bare claim
    assert len(notes) == 4


def test_repair_maps_near_misses_and_drops_garbage() -> None:
    graph = Subgraph((), tuple(CRANE))
    text = (
        "He was born in newark [Q206534, place of birth: newark]. "  # value case differs: mapped
        "His father was J. T. Crane [Q999, father: Jonathan Townley Crane]. "  # wrong QID, unique (relation, value): mapped
        "He was a writer [Q206534, occupation: writer][3][Q206534]. "  # not in G, a quote, an incomplete one: dropped
        "He died young [NA]."
    )
    sentences, notes = repair(parse_answer(text, graph), graph)
    keys = [t.key for s in sentences for t in s.cited_triples()]
    assert keys == [CRANE[1].key, CRANE[0].key]
    assert sentences[3].citations == (NACitation(),)
    assert sum(n.startswith("mapped") for n in notes) == 2 and sum(n.startswith("dropped") for n in notes) == 3


class ScriptedLLM:
    """A deterministic stand-in that returns fixed text: for the repair path's unit test only."""

    name = "scripted"

    def __init__(self, text: str) -> None:
        self.text = text

    def chat(self, request: ChatRequest) -> ChatResult:
        return ChatResult(self.text, "scripted")

    def chat_many(self, requests: Sequence[ChatRequest]) -> list[ChatResult | LLMError]:
        return [self.chat(r) for r in requests]


def test_free_mode_with_garbage_citations_keeps_only_real_ones(retriever: KGRetriever) -> None:
    garbage = (
        "Stephen Crane [Q206534, father: Jonathan Townley Crane] was a writer [Q1234567, occupation: astronaut]"
        "[[[ ]] [Q206534, place of birth. Newark ]. }]{[1]"
    )
    a = FreeGenerator(retriever, ScriptedLLM(garbage)).answer("Who was Stephen Crane's father?")
    # repair keeps the one real triple; the judge then finds "Stephen Crane was a writer" does not
    # state his father, so the sentence keeps no citation and is flagged [NA]
    assert any("mapped" in r or "dropped" in r for r in a.repairs) and a.raw_output == garbage
    assert any("does not state ['Q206534', 'father', 'Jonathan Townley Crane']" in r for r in a.repairs)
    assert a.citations() == [] and all(s.na for s in a.sentences)


def test_free_mode_with_the_real_model(retriever: KGRetriever, smollm: LlamaCppLLM) -> None:
    a = FreeGenerator(retriever, smollm, max_tokens=80).answer("Who was Stephen Crane's father?")
    assert isinstance(a, AttributedAnswer) and a.raw_output.strip()
    assert all(tuple(c) in a.retrieved for c in a.citations())  # whatever it wrote, repair kept only real triples


def test_backend_failure_is_an_error_not_an_answer(retriever: KGRetriever, embedder: OnnxMiniLM, broken_server) -> None:  # type: ignore[no-untyped-def]
    from kgcite.models.openai_http import OpenAICompatLLM

    url, _ = broken_server
    gen = grounded(retriever, OpenAICompatLLM(url, retries=0), embedder)
    [result] = gen.answer_many(["Who was Stephen Crane's father?"])
    assert isinstance(result, LLMError) and "HTTP 500" in str(result)


def test_constrained_free_mode_cites_only_retrieved_triples(retriever: KGRetriever, smollm: LlamaCppLLM) -> None:
    gen = FreeGenerator(retriever, smollm, max_tokens=120, constrained=True)
    a = gen.answer("Who was Stephen Crane's father and where was he born?")
    raw = parse_answer(a.raw_output, a.retrieved)
    assert raw.n_unparsed == 0 and raw.sentences
    assert all(s.citations for s in raw.sentences)  # the grammar ends every sentence with a citation
    assert all(t.key in a.retrieved for t in raw.cited_triples())  # and allows only retrieved triples
    assert a.mode == "free-constrained" and not any(r.startswith("dropped") for r in a.repairs)


def test_citation_grammar_escapes_values() -> None:
    from kgcite.generate.prompts import citation_grammar

    g = citation_grammar(Subgraph((), (Triple("Q1", "X", "motto", 'say "hi" \\ [ok]'),)))
    assert '"[Q1, motto: say \\"hi\\" \\\\ [ok]]"' in g and '"[NA]"' in g


def test_repair_keeps_a_citation_in_another_spelling_as_the_graphs_triple() -> None:
    graph = Subgraph((), tuple(CRANE))
    sentences, notes = repair(
        parse_answer(f"He was born in Newark [Q206534, Place_Of_Birth: {CRANE[1].object_value}].", graph), graph
    )
    assert [t.key for s in sentences for t in s.cited_triples()] == [CRANE[1].key] and not notes
