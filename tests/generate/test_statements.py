"""Regression tests for answers a user could not trust: each failure reported on the shipped
BioKaLMA graph and on a small graph of a user's own, run through the real linker, store and judge."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from kgcite.cli.common import format_attributed
from kgcite.evaluate.metrics.alignment import alignment_claims
from kgcite.generate.citations import ParsedAnswer
from kgcite.generate.pipeline import AttributedAnswer, GroundedGenerator, rewrite_problem
from kgcite.generate.statements import unanswered_sentence
from kgcite.generate.verbalize import state
from kgcite.judge.support import SupportJudge
from kgcite.kg import EmbeddedStore
from kgcite.models.llm import ChatRequest, ChatResult, LLMError
from kgcite.models.ner import SpacyNER
from kgcite.models.nli import OnnxNLI
from kgcite.retrieve.linking import EntityLinker
from kgcite.retrieve.question import QuestionAnalyzer, split_parts
from kgcite.retrieve.retriever import KGRetriever
from kgcite.text.values import states_value

OWN_GRAPH = """Marla Quenby|founded|Quenby Bakery
Marla Quenby|born_in|Harrowgate
Quenby Bakery|located_in|Harrowgate
Catch Me If You Can|directed_by|Steven Spielberg
Catch Me If You Can|release_year|2002
"""


class Says:
    """A deterministic stand-in LLM returning fixed text: for the rewrite guard's unit tests only."""

    name = "says"

    def __init__(self, text: str) -> None:
        self.text = text

    def chat_many(self, requests: Sequence[ChatRequest]) -> list[ChatResult | LLMError]:
        return [ChatResult(self.text, "says") for _ in requests]


@pytest.fixture(scope="module")
def bio(biokalma_store: EmbeddedStore, ner: SpacyNER) -> KGRetriever:
    return KGRetriever(biokalma_store, EntityLinker(biokalma_store, ner))


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory, ner: SpacyNER) -> KGRetriever:
    path = Path(tmp_path_factory.mktemp("own")) / "own.txt"
    path.write_text(OWN_GRAPH, encoding="utf-8")
    store = EmbeddedStore()
    store.load(path)
    return KGRetriever(store, EntityLinker(store, ner))


def ask(retriever: KGRetriever, question: str, llm: Says | None = None) -> AttributedAnswer:
    return GroundedGenerator(retriever, llm).answer(question)  # type: ignore[arg-type]


def cited(a: AttributedAnswer) -> list[tuple[str, str, str]]:
    return [tuple(c) for c in a.citations()]  # type: ignore[misc]


def test_namesakes_are_ranked_by_the_asked_relation(bio: KGRetriever) -> None:
    # two Max Wolfs: the gymnast has no place of birth, the astronomer was born in Heidelberg
    a = ask(bio, "Where was Max Wolf born?")
    assert cited(a) == [("Q76712", "place of birth", "Heidelberg")]
    assert "United States" not in a.answer


def test_every_part_of_a_two_part_question_is_answered(bio: KGRetriever) -> None:
    a = ask(bio, "When was Stephen Crane born and where did he die?")
    assert {c[1] for c in cited(a)} == {"date of birth", "place of death"}
    assert "November 1, 1871" in a.answer  # ISO dates spoken; the citation keeps 1871-11-01
    assert ("Q206534", "date of birth", "1871-11-01") in cited(a)


def test_an_asked_relation_the_graph_lacks_is_flagged(bio: KGRetriever) -> None:
    a = ask(bio, "Who was Stephen Crane's spouse?")
    assert a.citations() == [] and a.absent == (("Q206534", "spouse"),)
    assert a.answer == "The graph does not say who Stephen Crane's spouse was [NA]."
    assert a.to_dict()["absent"] == [["Q206534", "spouse"]]


def test_nothing_unasked_is_cited(bio: KGRetriever) -> None:
    a = ask(bio, "Who was Stephen Crane's father?")
    assert cited(a) == [("Q206534", "father", "Jonathan Townley Crane")]  # no "human", no "sex or gender"


def test_summaries_are_bounded_and_skip_types(bio: KGRetriever) -> None:
    a = ask(bio, "Tell me about Stephen Crane")
    relations = [c[1] for c in cited(a)]
    assert 1 <= len(relations) <= 5 and not {"instance of", "sex or gender", "name"} & set(relations)


@pytest.mark.parametrize(
    ("question", "note"),
    [
        ("who was stephen crane's father?", None),  # lower case
        ("Who was Stephen Cranes father?", None),  # no apostrophe
        ("Who was Stephen Crane's fathr?", None),  # a misspelt relation word is not a misspelt name
        ("Who was Stephen Crene's father?", 'linked "Stephen Crene" → Stephen Crane (Q206534)'),
    ],
)
def test_linking_survives_case_apostrophes_and_typos(bio: KGRetriever, question: str, note: str | None) -> None:
    a = ask(bio, question)
    assert "Q206534" in a.linked
    if note:
        assert note in a.repairs and f"note: {note}" in format_attributed(a)
    if "fathr" not in question:
        assert cited(a) == [("Q206534", "father", "Jonathan Townley Crane")]


def test_a_one_word_entity_ner_misses_is_linked(own: KGRetriever) -> None:
    a = ask(own, "What is located in Harrowgate?")
    assert "Harrowgate" in a.linked


def test_templates_read_well_for_ordinary_relation_names(own: KGRetriever) -> None:
    assert state("Marla Quenby", "founded", ["Quenby Bakery"]) == "Marla Quenby founded Quenby Bakery."
    assert state("Marla Quenby", "born_in", ["Harrowgate"]) == "Marla Quenby was born in Harrowgate."
    assert (
        state("Catch Me If You Can", "directed_by", ["Steven Spielberg"])
        == "Catch Me If You Can was directed by Steven Spielberg."
    )
    a = ask(own, "Who directed Catch Me If You Can?")
    shown = format_attributed(a)
    assert "Catch Me If You Can was directed by Steven Spielberg [1]." in shown
    assert "[1] Catch Me If You Can · directed by · Steven Spielberg" in shown  # humanised; no "X (X)" when id = label
    b = ask(own, "What did Marla Quenby found?")
    assert b.answer == "Marla Quenby founded Quenby Bakery [Marla Quenby, founded: Quenby Bakery]."


@pytest.mark.parametrize(
    ("relation", "values", "said"),
    [
        ("number of platforms", ["6"], "Vellmoor Central has 6 platforms."),  # a count
        ("employees", ["300"], "Vellmoor Central has 300 employees."),
        ("employees", ["Ann", "Bob"], "Vellmoor Central's employees include Ann and Bob."),
        ("entered service", ["1888"], "Vellmoor Central entered service in 1888."),  # verb-like names
        ("entered service", ["1888-05-03"], "Vellmoor Central entered service on May 3, 1888."),
        ("founded", ["1888"], "Vellmoor Central was founded in 1888."),
        ("opened", ["1872-04-15"], "Vellmoor Central opened on April 15, 1872."),
        ("located in", ["Vellmoor"], "Vellmoor Central is located in Vellmoor."),  # a state, not an event
        ("member of", ["the Tarn League"], "Vellmoor Central is a member of the Tarn League."),
        ("designed by", ["Ann Roe"], "Vellmoor Central was designed by Ann Roe."),
        ("date of birth", ["-0764-01-01"], "Vellmoor Central was born on January 1, 764 BCE."),  # BCE
        ("date of birth", ["1888-00-00"], "Vellmoor Central was born in 1888."),  # a year alone
        ("date of death", ["1900-03-00"], "Vellmoor Central died in March 1900."),
    ],
)
def test_templates_speak_counts_verbs_tenses_and_dates(relation: str, values: list[str], said: str) -> None:
    assert state("Vellmoor Central", relation, values) == said


def test_a_sentence_states_the_value_the_judge_reads() -> None:
    """A date said as people say it still states the graph's value (BCE and partial dates too)."""
    for value in ("-0764-01-01", "1888-00-00", "1900-03-00", "1872-04-15"):
        assert states_value(state("X", "date of death", [value]), value), value


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("can you provide a brief biography of Stephen Crane?", "The graph does not answer this part of the question."),
        ("Was Stephen Crane married?", "The graph does not say whether Stephen Crane was married."),
        ("where was Stephen Crane born?", "The graph does not say where Stephen Crane was born."),
        ("Who is Stephen Crane's spouse?", "The graph does not say who Stephen Crane's spouse is."),
        ("Who was the editor of Stephen Crane?", "The graph does not say who the editor of Stephen Crane was."),
        # what a description of another thing was: its verb back before the participle
        (
            "Where was the mentor of Stephen Crane born?",
            "The graph does not say where the mentor of Stephen Crane was born.",
        ),
        ("When was Stephen Crane's school founded?", "The graph does not say when Stephen Crane's school was founded."),
        (
            "Whom is the owner of Stephen Crane married to?",
            "The graph does not say whom the owner of Stephen Crane is married to.",
        ),
        (
            "When was the estate that makes Stephen Crane established?",
            "The graph does not say when the estate that makes Stephen Crane was established.",
        ),
        # a question word with its modifier, and a verb carried by "do"
        ("How tall is Stephen Crane?", "The graph does not say how tall Stephen Crane is."),
        ("How much does Stephen Crane earn?", "The graph does not say how much Stephen Crane earns."),
        ("Where did Stephen Crane study?", "The graph does not say where Stephen Crane studied."),
        ("Which prize did Stephen Crane win?", "The graph does not say which prize Stephen Crane won."),
        ("Which prizes has Stephen Crane won?", "The graph does not say which prizes Stephen Crane has won."),
        (
            "What is the entry fee of the garden that Stephen Crane founded?",
            "The graph does not say what the entry fee of the garden that Stephen Crane founded is.",
        ),
        # control characters of a question are never copied into the answer
        (
            "Who was the\x1b[2J editor\r of Stephen\u202e Crane?",
            "The graph does not say who the [2J editor of Stephen Crane was.",
        ),
    ],
)
def test_an_na_sentence_never_copies_a_request(asked: str, said: str) -> None:
    assert unanswered_sentence(asked, "Stephen Crane") == said


@pytest.mark.parametrize(
    "reply",
    [
        "Dennis W. Sciama, a renowned astrophysicist, was Stephen Hawking's doctoral advisor.",  # praise
        "A: Stephen Hawking's doctoral advisor was Dennis W. Sciama.",  # leaked prompt
        "Generated Answer: Stephen Hawking's doctoral advisor was Dennis W. Sciama.",
        "Dennis W. Sciama was a brilliant scientist who made discoveries.",  # the subject is never stated
    ],
)
def test_rewrites_that_add_praise_leak_prompts_or_drop_the_subject_are_refused(bio: KGRetriever, reply: str) -> None:
    a = ask(bio, "Who was Stephen Hawking's doctoral advisor?", Says(reply))
    assert (
        not a.rewritten
        and a.answer
        == "Stephen Hawking's doctoral advisor is Dennis W. Sciama [Q17714, doctoral advisor: Dennis W. Sciama]."
    )
    assert any(r.startswith("rewrite rejected") for r in a.repairs)


def test_a_faithful_rewrite_is_kept(bio: KGRetriever) -> None:
    a = ask(
        bio,
        "Who was Stephen Hawking's doctoral advisor?",
        Says("Stephen Hawking's doctoral advisor was Dennis W. Sciama."),
    )
    assert a.rewritten and cited(a) == [("Q17714", "doctoral advisor", "Dennis W. Sciama")]


def test_rewrite_problem_names_the_praise() -> None:
    assert rewrite_problem("He was a renowned and brilliant writer.", "Stephen Crane was a writer.") == (
        "rewrite rejected: evaluative words not in the evidence (brilliant, renowned)"
    )
    assert (
        rewrite_problem("It won the Best Picture award.", "It won the Best Picture award.") is None
    )  # "best" is evidence


def test_every_pair_of_these_answers_is_supported_by_the_judge(bio: KGRetriever, nli: OnnxNLI) -> None:
    questions = [
        "Where was Max Wolf born?",
        "When was Stephen Crane born and where did he die?",
        "Tell me about Stephen Crane",
        "Who was Stephen Hawking's doctoral advisor?",
        "Who were Niels Bohr's doctoral students?",
    ]
    claims = []
    for q in questions:
        a = ask(bio, q)
        claims += alignment_claims(ParsedAnswer(a.sentences), a.retrieved)
    assert claims and all(SupportJudge(nli).judge(claims))


def test_question_parts_and_relations() -> None:
    assert split_parts("When was X born and where did he die?") == ["When was X born", "where did he die"]
    analyzer = QuestionAnalyzer(
        [
            "place of birth",
            "date of birth",
            "place of death",
            "doctoral advisor",
            "doctoral student",
            "spouse",
            "instance of",
        ]
    )
    assert analyzer.analyse("When was X born and where did he die?").groups == (("date of birth",), ("place of death",))
    assert analyzer.analyse("Who was X's doctoral advisor?").groups == (("doctoral advisor",),)
    assert analyzer.analyse("Who was X's wife?").groups == (("spouse",),)
    assert analyzer.analyse("Tell me about X").summary
    assert analyzer.analyse("What is X an instance of?").summary  # never asked: types are no answer


def test_an_open_part_is_flagged_or_matched_by_embedding(embedder) -> None:  # type: ignore[no-untyped-def]
    relations = ["residence", "founded", "place of birth", "occupation", "spouse", "employer"]
    words_only = QuestionAnalyzer(relations)
    analyzer = QuestionAnalyzer(relations, embedder=lambda: embedder)
    q = "Which company does John Marsh work at?"
    assert words_only.analyse(q, ["John Marsh"]).parts[0].open  # no relation's words or paraphrases
    assert analyzer.analyse(q, ["John Marsh"]).groups == (("employer",),)  # a clear embedding match
    unclear = analyzer.analyse("Who is John Marsh's partner?", ["John Marsh"])
    assert unclear.groups == () and unclear.parts[0].open and not unclear.summary
