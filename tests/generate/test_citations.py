from __future__ import annotations

import pytest

from kgcite.generate.citations import (
    CitedTriple,
    KGCitation,
    NACitation,
    QuoteCitation,
    Sentence,
    UnparsedCitation,
    cite_triples,
    format_answer,
    parse_answer,
    parse_citation,
)
from kgcite.kg import Subgraph, Triple

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`

PAPER_ANSWER = (
    "Artemisia Gentileschi was an Italian painter born on July 8, 1596 [NA] in Rome "
    "[Q212657, ethnic group: Italians, occupation: painter, place of birth: Rome]. She was a member of the "
    "Accademia delle Arti del Disegno and is best known for her work Judith Slaying Holofernes "
    "[Q212657, member of: Accademia delle Arti del Disegno, notable works: Judith Slaying Holofernes]. "
    "He also provided her with the opportunity to study with him."
)


def test_paper_example_sentences_and_citations() -> None:
    a = parse_answer(PAPER_ANSWER)
    assert [s.text[:22] for s in a.sentences] == [
        "Artemisia Gentileschi ",
        "She was a member of th",
        "He also provided her w",
    ]
    first = a.sentences[0]
    assert first.na
    assert first.cited_triples() == (
        CitedTriple("Q212657", "ethnic group", "Italians"),
        CitedTriple("Q212657", "occupation", "painter"),
        CitedTriple("Q212657", "place of birth", "Rome"),
    )
    assert first.text.endswith("1596 in Rome.")  # citation marks removed, spacing repaired
    assert a.sentences[2].citations == ()
    assert len(a.cited_triples()) == 5 and a.n_unparsed == 0


def test_citations_after_the_period_belong_to_that_sentence() -> None:
    a = parse_answer(
        "He was born in Newark. [Q206534, place of birth: Newark] He died in 1900.[Q206534, date of death: 1900-06-05]"
    )
    assert [s.text for s in a.sentences] == ["He was born in Newark.", "He died in 1900."]
    assert [s.cited_triples()[0].relation for s in a.sentences] == ["place of birth", "date of death"]


def test_periods_inside_citations_and_abbreviations_do_not_split() -> None:
    a = parse_answer("Dr. J. R. Smith lived in St. Louis [Q1, residence: St. Louis, Mo.]. Then he left.")
    assert [s.text for s in a.sentences] == ["Dr. J. R. Smith lived in St. Louis.", "Then he left."]
    assert a.sentences[0].cited_triples() == (CitedTriple("Q1", "residence", "St. Louis, Mo."),)


def test_quote_and_na_citations() -> None:
    a = parse_answer("Rome is in Italy [1][2]. It is old [3, 4]. Nobody knows why [NA]. Really [n/a].")
    assert a.sentences[0].citations == (QuoteCitation(1), QuoteCitation(2))
    assert a.sentences[1].citations == (QuoteCitation(3), QuoteCitation(4))
    assert a.sentences[2].citations == (NACitation(),) and a.sentences[3].na
    assert a.cited_triples() == ()  # neither quotes nor [NA] are KG citation triples


def test_qid_prefix_variant() -> None:
    assert parse_citation("qid: Q212657, name: Artemisia Gentileschi") == [
        KGCitation("Q212657", (("name", "Artemisia Gentileschi"),))
    ]


def test_values_with_commas_and_colons() -> None:
    # without knowledge: a segment with no colon continues the value
    assert parse_citation("Q1, residence: Washington, D.C., occupation: lawyer") == [
        KGCitation("Q1", (("residence", "Washington, D.C."), ("occupation", "lawyer")))
    ]
    # colons inside a value
    assert parse_citation(
        "Q1, topic's main category: Category:Stephen Crane, notable works: Star Wars: A New Hope"
    ) == [
        KGCitation(
            "Q1", (("topic's main category", "Category:Stephen Crane"), ("notable works", "Star Wars: A New Hope"))
        )
    ]
    # a value like "Hello, World: The Movie" needs the subgraph to be read right
    text = "Q1, notable works: Hello, World: The Movie, genre: comedy"
    naive = parse_citation(text)[0]
    assert isinstance(naive, KGCitation) and naive.pairs[1] == ("World", "The Movie")
    by_names = parse_citation(text, ["notable works", "genre"])[0]
    assert isinstance(by_names, KGCitation)
    assert by_names.pairs == (("notable works", "Hello, World: The Movie"), ("genre", "comedy"))
    graph = Subgraph(
        (), (Triple("Q1", "X", "notable works", "Hello, World: The Movie"), Triple("Q1", "X", "genre", "comedy"))
    )
    assert parse_citation(text, graph) == [by_names]
    # with the graph, a property it lacks is a (wrong) citation of its own, not part of a value
    wrong = parse_citation("Q1, genre: comedy, hobby: chess", graph)[0]
    assert isinstance(wrong, KGCitation) and wrong.pairs == (("genre", "comedy"), ("hobby", "chess"))


def test_entity_ids_with_commas_resolved_by_the_graph() -> None:
    graph = Subgraph((), (Triple("Crouching Tiger, Hidden Dragon", "CT", "has_genre", "Action"),))
    assert parse_citation("Crouching Tiger, Hidden Dragon, has_genre: Action", graph) == [
        KGCitation("Crouching Tiger, Hidden Dragon", (("has_genre", "Action"),))
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Born in Rome [].", "empty brackets"),
        ("Born in Rome [Q1, place of birth: Rome.", "unclosed bracket"),
        ("Born in Rome ] then.", "closing bracket without an opening one"),
        ("Born in Rome [place of birth: Rome].", "no entity id before the first comma"),
        ("Born in Rome [Q1, born in Rome].", "is no 'property: value' pair"),
    ],
)
def test_malformed_brackets_never_raise_and_are_counted(text: str, reason: str) -> None:
    a = parse_answer(text)
    unparsed = [c for c in a.citations() if isinstance(c, UnparsedCitation)]
    assert len(unparsed) == 1 and reason in unparsed[0].reason
    assert a.n_unparsed == 1
    assert a.cited_triples() == (CitedTriple(None, None, None),)  # counted as one wrong citation


def test_unclosed_bracket_stops_at_the_next_one() -> None:
    a = parse_answer("A [Q1, p: v. B [Q2, q: w].")
    assert a.n_unparsed == 1
    assert [t.key for t in a.cited_triples()] == [None, ("Q2", "q", "w")]


def test_incomplete_citations_keep_their_missing_parts() -> None:
    assert parse_answer("X [Q1].").cited_triples() == (CitedTriple("Q1", None, None),)
    assert parse_answer("X [Q1, father:].").cited_triples() == (CitedTriple("Q1", "father", None),)


def test_format_round_trip() -> None:
    a = parse_answer(PAPER_ANSWER)
    again = parse_answer(a.format())
    assert again == a
    assert a.format().startswith(
        "Artemisia Gentileschi was an Italian painter born on July 8, 1596 in Rome [NA][Q212657, ethnic group: Italians"
    )


def test_cite_triples_groups_by_entity() -> None:
    cites = cite_triples([("Q1", "father", "B"), ("Q2", "child", "A"), ("Q1", "mother", "C")])
    text = format_answer([Sentence("A is a person.", cites)])
    assert text == "A is a person [Q1, father: B, mother: C][Q2, child: A]."


def test_property_spelled_otherwise_still_resolves_values_with_commas() -> None:
    graph = Subgraph(
        (), (Triple("Q1", "A", "place of birth", "Newark, New Jersey"), Triple("Q1", "A", "occupation", "writer"))
    )
    (sentence,) = parse_answer(
        "A was born in Newark [Q1, Place_of_Birth: Newark, New Jersey, OCCUPATION: writer].", graph
    ).sentences
    assert [t.key for t in sentence.cited_triples()] == [
        ("Q1", "Place_of_Birth", "Newark, New Jersey"),  # as written: display keeps the model's spelling
        ("Q1", "OCCUPATION", "writer"),
    ]
