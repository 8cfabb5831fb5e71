from __future__ import annotations

from kgcite.kg import EmbeddedStore, Entity, Triple
from kgcite.models.ner import SpacyNER
from kgcite.retrieve.linking import EntityLinker, clean_mention
from kgcite.retrieve.retriever import KGRetriever


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
    store = EmbeddedStore()
    from kgcite.kg.rdf import entity_quads, triple_quads

    scheme = store.scheme
    ents = [Entity("Q1", "Anne Hathaway"), Entity("Q2", "Anne Hathaway"), Entity("Q3", "Anne Hathaway")]
    triples = [
        Triple("Q1", "Anne Hathaway", "instance of", "human"),
        Triple("Q1", "Anne Hathaway", "occupation", "actor"),
        Triple("Q2", "Anne Hathaway", "instance of", "human"),
        Triple("Q2", "Anne Hathaway", "spouse", "William Shakespeare"),
        Triple("Q3", "Anne Hathaway", "instance of", "ship"),
        Triple("Q3", "Anne Hathaway", "named after", "William Shakespeare"),
    ]
    store.add_quads(
        [q for e in ents for q in entity_quads(e, scheme)] + [q for t in triples for q in triple_quads(t, scheme)]
    )
    linker = EntityLinker(store, ner)
    [hit] = linker.link("Was Anne Hathaway married to William Shakespeare?")
    # Q2 and Q3 both neighbour Shakespeare; the PERSON type filter removes the ship
    assert hit.entity.id == "Q2" and hit.evidence == 1
    assert [le.entity.id for le in linker.link("Which films did Anne Hathaway act in?")] == ["Q1"]  # no evidence: first


def test_retriever_returns_the_one_hop_graph(biokalma_store: EmbeddedStore, ner: SpacyNER) -> None:
    r = KGRetriever(biokalma_store, EntityLinker(biokalma_store, ner)).retrieve("Who was Stephen Crane's father?")
    assert ("Q206534", "father", "Jonathan Townley Crane") in r.graph
    assert set(r.timings) == {"link", "retrieve"}
