"""One canonical property key on every side that compares; display keeps its spelling."""

from __future__ import annotations

import pytest

from kgcite.kg.keys import canonical_key, property_key
from kgcite.kg.loaders import biokalma_subgraph, subgraph_to_biokalma
from kgcite.kg.model import Subgraph, Triple


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("date_of_birth", "date of birth"),
        ("Date of Birth", "date of birth"),
        ("  date \t of__birth ", "date of birth"),
        ("DATE_OF_BIRTH", "date of birth"),
        ("directed_by", "directed by"),
        ("(OBSOLETE) playing hand", "(obsolete) playing hand"),
        ("Straße", "strasse"),  # case-folded, not only lower-cased
        ("name", "name"),
    ],
)
def test_property_key(written: str, canonical: str) -> None:
    assert property_key(written) == canonical


def test_canonical_key_trims_values_but_keeps_them_exact() -> None:
    assert canonical_key((" Q1 ", "Place_of_Birth", " Newark ")) == ("Q1", "place of birth", "Newark")
    assert canonical_key(("Q1", "place of birth", "newark")) != canonical_key(("Q1", "place of birth", "Newark"))


def test_subgraph_contains_any_spelling_and_finds_its_own() -> None:
    g = Subgraph((), (Triple("Q1", "A", "date of birth", "1871-11-01"),))
    for spelling in ("date of birth", "date_of_birth", "Date Of Birth", "date  of birth"):
        assert ("Q1", spelling, "1871-11-01") in g
        assert g.find(("Q1", spelling, "1871-11-01")) == ("Q1", "date of birth", "1871-11-01")
    assert ("Q1", "date of birth", "1871-11-02") not in g
    assert ("Q2", "date of birth", "1871-11-01") not in g
    assert "not a key" not in g
    assert g.keys == {("Q1", "date of birth", "1871-11-01")}  # display spelling kept


def test_biokalma_name_is_a_triple_and_round_trips_once() -> None:
    raw = [{"qid": "Q1", "name": "Stephen Crane", "father": "Jonathan Townley Crane"}]
    g = biokalma_subgraph(raw)
    assert ("Q1", "name", "Stephen Crane") in g
    assert [t.is_label for t in g.triples] == [True, False]
    assert subgraph_to_biokalma(g) == raw  # the name is written once, not as a list of two


def test_a_biokalma_store_without_name_triples_is_topped_up(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from kgcite.kg.embedded import biokalma_store

    store, n = biokalma_store(tmp_path / "s")
    assert n and "name" in store.relations()
    name_iri = store.scheme.relation_iri("name")
    store.store.update(f"DELETE WHERE {{ ?s <{name_iri}> ?o }}")  # as an older kgcite left it
    store.invalidate()
    size = len(store)
    store.close()
    again, n2 = biokalma_store(tmp_path / "s")
    assert n2 and len(again) > size and ("Q206534", "name", "Stephen Crane") in again.one_hop("Q206534")
    again.close()
    third, n3 = biokalma_store(tmp_path / "s")
    assert n3 == 0  # complete now: reopened as is
    third.close()
