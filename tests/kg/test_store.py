"""One suite for every KGStore backend: embedded (pattern API, SPARQL, on disk) and a real
Oxigraph SPARQL server and a real Virtuoso; then the WikiData IRI scheme on the embedded store and both servers."""

from __future__ import annotations

import pytest

from kgcite.kg import KGStore, Triple
from kgcite.kg.store import BatchReads
from tests.helpers import HOSTILE_ID, HOSTILE_LABEL, HOSTILE_NEWLINE, HOSTILE_VALUE, TRIPLES


def test_backend_satisfies_protocol(store: KGStore) -> None:
    assert isinstance(store, KGStore)


def test_entity_by_id(store: KGStore) -> None:
    e = store.entity("Q212657")
    assert e is not None
    assert (e.id, e.label, e.aliases, e.types) == ("Q212657", "Artemisia Gentileschi", ("Artemisia",), ("human",))
    assert store.entity("Q220").label == "Rome"  # type: ignore[union-attr]
    assert store.entity("Q999999") is None


def test_label_lookup_is_case_insensitive_and_covers_aliases(store: KGStore) -> None:
    assert [e.id for e in store.entities_by_label("artemisia GENTILESCHI")] == ["Q212657"]
    assert [e.id for e in store.entities_by_label("Artemisia")] == ["Q212657"]
    assert [e.id for e in store.entities_by_label("roma")] == ["Q220"]
    assert sorted(e.id for e in store.entities_by_label("anne hathaway")) == ["Q1001", "Q1002"]
    assert store.entities_by_label("Artemisia G") == []
    assert store.entities_by_label("") == []


def test_label_prefix_lookup(store: KGStore) -> None:
    got = [e.id for e in store.entities_by_label("artemisia", prefix=True)]
    assert got == ["Q212657"]  # label and alias both match: one entity, once
    assert sorted(e.id for e in store.entities_by_label("gentiles", prefix=True)) == []
    assert sorted(e.id for e in store.entities_by_label("Orazio G", prefix=True)) == ["Q367360"]
    assert len(store.entities_by_label("anne", prefix=True, limit=1)) == 1


def test_outgoing_and_incoming(store: KGStore) -> None:
    out = {(t.relation, t.object_value, t.object_id) for t in store.outgoing("Q212657")}
    assert out == {
        ("instance of", "human", None),
        ("place of birth", "Rome", "Q220"),
        ("occupation", "painter", None),
        ("father", "Orazio Gentileschi", "Q367360"),
        ("residence", "Washington, D.C.", None),
    }
    assert all(t.subject_label == "Artemisia Gentileschi" for t in store.outgoing("Q212657"))
    inc = store.incoming("Q212657")
    assert inc == [Triple("Q367360", "Orazio Gentileschi", "child", "Artemisia Gentileschi", "Q212657")]
    assert store.outgoing("Q999999") == [] and store.incoming("Q999999") == []


def test_one_hop_is_the_entity_with_both_directions(store: KGStore) -> None:
    g = store.one_hop("Q212657")
    assert [e.id for e in g.entities] == ["Q212657"]
    assert len(g) == 6
    assert ("Q212657", "place of birth", "Rome") in g
    assert ("Q367360", "child", "Artemisia Gentileschi") in g
    assert len(store.one_hop("Q999999")) == 0


def test_match_patterns(store: KGStore) -> None:
    painters = {t.subject_id for t in store.match(relation="occupation", value="painter")}
    assert painters == {"Q212657", "Q367360", HOSTILE_ID}
    # a value matches an entity object through its label
    assert [t.subject_id for t in store.match(relation="place of birth", value="Rome")] == ["Q212657"]
    assert [t.relation for t in store.match(subject_id="Q212657", object_id="Q367360")] == ["father"]
    assert store.match(relation="no such relation") == []
    assert store.match(subject_id="Q212657", relation="occupation", value="sculptor") == []
    assert len(store.match(relation="occupation", limit=2)) == 2
    everything = store.match()
    assert {t.key for t in everything} == {t.key for t in TRIPLES}


def test_relation_degrees_count_both_directions(store: KGStore) -> None:
    assert store.relation_degrees("Q212657") == [
        ("child", True, 1),
        ("father", False, 1),
        ("instance of", False, 1),
        ("occupation", False, 1),
        ("place of birth", False, 1),
        ("residence", False, 1),
    ]
    assert store.relation_degrees("Q999999") == []


def test_batched_reads_match_one_by_one(store: KGStore) -> None:
    """What a remote store reads for a whole frontier in one request equals the single reads."""
    if not isinstance(store, BatchReads):
        pytest.skip("an embedded store reads entity by entity")
    ids = ["Q212657", "Q367360", "Q1001", HOSTILE_ID, "Q999999"]
    assert store.relation_degrees_many(ids) == {e: store.relation_degrees(e) for e in ids}
    out = store.match_many(ids, "occupation", inverse=False, limit=5)
    assert {e: sorted(t.key for t in ts) for e, ts in out.items()} == {
        e: sorted(t.key for t in store.match(subject_id=e, relation="occupation")) for e in ids
    }
    back = store.match_many(["Q220", "Q367360"], "place of birth", inverse=True, limit=1)
    assert [t.subject_id for t in back["Q220"]] == ["Q212657"] and back["Q367360"] == []


def test_relations(store: KGStore) -> None:
    assert store.relations() == sorted({t.relation for t in TRIPLES})


def test_hostile_labels_round_trip(store: KGStore) -> None:
    """Quotes, backslashes, newlines, braces and keywords are data, never query syntax."""
    assert [e.id for e in store.entities_by_label(HOSTILE_LABEL)] == ["H1"]
    assert [e.id for e in store.entities_by_label(HOSTILE_LABEL.upper())] == ["H1"]
    assert [e.id for e in store.entities_by_label("o'brien \"THE", prefix=True)] == ["H1"]
    h2 = store.entity("H2")
    assert h2 is not None and h2.label == HOSTILE_NEWLINE
    assert [e.id for e in store.entities_by_label(HOSTILE_NEWLINE)] == ["H2"]
    assert [t.key for t in store.match(value=HOSTILE_VALUE)] == [("H1", "motto", HOSTILE_VALUE)]
    assert [t.object_value for t in store.outgoing("H2")] == [HOSTILE_LABEL]
    assert store.entity(HOSTILE_ID).label == "Hostile Id"  # type: ignore[union-attr]
    assert [t.subject_id for t in store.match(subject_id=HOSTILE_ID)] == [HOSTILE_ID]


@pytest.mark.parametrize(
    "attack",
    [
        'x" } UNION { ?e ?p ?o } #',
        "x' } UNION { ?e ?p ?o } #",
        '\\" . ?e ?p ?o . FILTER(true) #',
        "} } SELECT * WHERE { ?s ?p ?o",
        'painter" ; DELETE WHERE { ?s ?p ?o } #',
    ],
)
def test_injection_attempts_match_nothing_and_change_nothing(store: KGStore, attack: str) -> None:
    before = {t.key for t in store.match()}
    assert store.entities_by_label(attack) == []
    assert store.entities_by_label(attack, prefix=True) == []
    assert store.match(value=attack) == []
    assert store.match(relation=attack) == []
    assert store.entity(attack) is None
    assert {t.key for t in store.match()} == before


# -- the WikiData IRI scheme (wd:/wdt:, labels on wd:P.., language tags, no kgcite label keys) --


def test_wikidata_entity_and_labels(wd_store: KGStore) -> None:
    e = wd_store.entity("Q212657")
    assert e is not None
    assert (e.label, e.aliases, e.types) == ("Artemisia Gentileschi", ("Artemisia",), ("human",))
    assert [x.id for x in wd_store.entities_by_label("artemisia gentileschi")] == ["Q212657"]
    assert [x.id for x in wd_store.entities_by_label("orazio", prefix=True)] == ["Q367360"]
    assert [x.id for x in wd_store.entities_by_label(HOSTILE_LABEL)] == ["Q666"]


def test_wikidata_relations_are_labelled(wd_store: KGStore) -> None:
    out = {(t.relation, t.object_value, t.object_id) for t in wd_store.outgoing("Q212657")}
    assert out == {
        ("instance of", "human", "Q5"),
        ("place of birth", "Rome", "Q220"),
        ("occupation", "painter", "Q1028181"),
        ("father", "Orazio Gentileschi", "Q367360"),
    }
    assert sorted(t.subject_id for t in wd_store.match(relation="occupation", value="painter")) == [
        "Q212657",
        "Q367360",
    ]
    assert [t.key for t in wd_store.match(value=HOSTILE_VALUE)] == [("Q666", "motto", HOSTILE_VALUE)]
    assert wd_store.relations() == ["father", "instance of", "motto", "occupation", "place of birth"]
    assert wd_store.match(relation='occupation" } #') == []


def test_triples_come_in_one_order_on_every_store(store: KGStore) -> None:
    """By relation, then subject, then object: the row order an engine happens to return had
    decided which of equal answers came first and which triple was cited."""
    assert [t.relation for t in store.outgoing("Q212657")] == [
        "father",
        "instance of",
        "occupation",
        "place of birth",
        "residence",
    ]
    painters = store.match(relation="occupation", value="painter")
    assert [t.subject_label for t in painters] == ["Artemisia Gentileschi", "Hostile Id", "Orazio Gentileschi"]
    assert [t.subject_id for t in store.match(relation="occupation")] == [
        "Q1001",
        "Q212657",
        HOSTILE_ID,
        "Q367360",
    ]


def test_common_values_are_counted_alike_on_every_store(store: KGStore) -> None:
    """What a relation reaches most often, ties by IRI: the examples a chain is shown with."""
    assert store.common_values("occupation") == [("painter", 3), ("actor", 1)]
    assert store.common_values("occupation", inverse=True, limit=2) == [
        ("Anne Hathaway", 1),
        ("Artemisia Gentileschi", 1),
    ]
    assert store.common_values("motto") == [(HOSTILE_VALUE, 1)]
    assert store.common_values("no such relation") == []
