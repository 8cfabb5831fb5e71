from __future__ import annotations

from kgcite.kg import EmbeddedStore, Entity, Triple
from kgcite.models.ner import SpacyNER
from kgcite.retrieve.linking import EntityLinker, clean_mention
from kgcite.retrieve.retriever import KGRetriever
from tests.helpers import store_of


def test_clean_mention() -> None:
    assert clean_mention("Stephen Crane's") == "Stephen Crane"
    assert clean_mention("“Kismet”,") == "Kismet"
    assert clean_mention("Jesus'") == "Jesus"


def test_links_possessives_and_short_ner_spans(biokalma_store: EmbeddedStore, ner: SpacyNER) -> None:
    linker = EntityLinker(biokalma_store, ner)
    assert [le.entity.id for le in linker.link("Who was Stephen Crane's father?")] == ["Q206534"]
    # spaCy tags only "Emmett"; the mention grows to the capitalised run "Emmett Till"
    assert [le.entity.id for le in linker.link("Who was Emmett Till and how did tragic events shape him?")] == [
        "Q506878"
    ]
    assert linker.link("What is the boiling point of water?") == []


def test_same_name_candidates_are_ranked_by_neighbours_in_the_question(ner: SpacyNER) -> None:
    ents = [Entity("Q1", "Anne Hathaway"), Entity("Q2", "Anne Hathaway"), Entity("Q3", "Anne Hathaway")]
    triples = [
        Triple("Q1", "Anne Hathaway", "instance of", "human"),
        Triple("Q1", "Anne Hathaway", "occupation", "actor"),
        Triple("Q2", "Anne Hathaway", "instance of", "human"),
        Triple("Q2", "Anne Hathaway", "spouse", "William Shakespeare"),
        Triple("Q3", "Anne Hathaway", "instance of", "ship"),
        Triple("Q3", "Anne Hathaway", "named after", "William Shakespeare"),
    ]
    linker = EntityLinker(store_of(ents, triples), ner)
    [hit] = linker.link("Was Anne Hathaway married to William Shakespeare?")
    # Q2 and Q3 both neighbour Shakespeare; the PERSON type filter removes the ship
    assert hit.entity.id == "Q2" and hit.evidence == 1
    assert [le.entity.id for le in linker.link("Which films did Anne Hathaway act in?")] == ["Q1"]  # no evidence: first


def test_retriever_returns_the_one_hop_graph(biokalma_store: EmbeddedStore, ner: SpacyNER) -> None:
    r = KGRetriever(biokalma_store, EntityLinker(biokalma_store, ner)).retrieve("Who was Stephen Crane's father?")
    assert ("Q206534", "father", "Jonathan Townley Crane") in r.graph
    assert set(r.timings) == {"link", "retrieve"}


class CountingNER:
    """The real spaCy NER, counting the questions it is asked about."""

    def __init__(self, ner: SpacyNER) -> None:
        self.ner, self.asked = ner, []  # type: list[str]

    def mentions(self, texts):  # type: ignore[no-untyped-def]
        self.asked += list(texts)
        return self.ner.mentions(texts)


def test_ner_is_asked_only_where_the_labels_leave_a_name_unexplained(
    biokalma_store: EmbeddedStore, ner: SpacyNER
) -> None:
    counting = CountingNER(ner)
    linker = EntityLinker(biokalma_store, counting)  # type: ignore[arg-type]
    plain = ["Who was Stephen Crane's father?", "where was emmett till born", "Who was Stephen Hawkings's advisor?"]
    needs = [
        "Who was Cao Pi and what was his relationship to Cao Cao and He Yan?",  # "He Yan": "He" is a stop word
        "What is the boiling point of water?",  # nothing links
    ]
    links = linker.link_many(plain + needs)
    assert counting.asked == needs
    assert [[le.entity.id for le in ls] for ls in links[:3]] == [["Q206534"], ["Q506878"], ["Q17714"]]
    assert "He Yan" in [le.entity.label for le in links[3]] and links[4] == []


def test_without_ner_the_links_are_those_ner_would_give(biokalma_store: EmbeddedStore, ner: SpacyNER) -> None:
    """Over 300 BioKaLMA questions, NER asked or not, the same entities link (their order may
    differ: without NER it is the question's)."""
    from kgcite.kg.loaders import read_biokalma, shipped_biokalma

    questions = [it.question for p in shipped_biokalma() for it in read_biokalma(p)][::7][:300]
    linker = EntityLinker(biokalma_store, ner)
    always = [linker._link(q, ms)[0] for q, ms in zip(questions, ner.mentions(questions), strict=True)]
    lazy = linker.link_many(questions)
    assert [{le.entity.id for le in ls} for ls in lazy] == [{le.entity.id for le in ls} for ls in always]


def test_namesakes_of_different_types_still_get_the_ner_type_filter(ner: SpacyNER) -> None:
    ents = [Entity("S1", "Mary Rose"), Entity("P1", "Mary Rose")]
    triples = [
        Triple("S1", "Mary Rose", "instance of", "ship"),
        Triple("P1", "Mary Rose", "instance of", "human"),
        Triple("S1", "Mary Rose", "place of birth", "Portsmouth"),  # a ship "born" in a dockyard
        Triple("S1", "Mary Rose", "builder", "Portsmouth Dockyard"),
        Triple("P1", "Mary Rose", "occupation", "singer"),
    ]
    counting = CountingNER(ner)
    [hit] = EntityLinker(store_of(ents, triples), counting).link("Who is Mary Rose?")  # type: ignore[arg-type]
    assert counting.asked == ["Who is Mary Rose?"] and hit.entity.id == "P1" and hit.ner_label == "PERSON"
