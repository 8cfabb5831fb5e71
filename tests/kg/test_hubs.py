"""Bounded reads around a hub, on the real embedded store."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgcite.kg.embedded import EmbeddedStore
from kgcite.kg.hubs import capped_one_hop

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def _store(tmp_path: Path, n: int) -> EmbeddedStore:
    lines = [f"Acme Corp\temployee\tWorker {i}" for i in range(n)] + ["Acme Corp\tfounded by\tJane Roe"]
    (tmp_path / "g.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = EmbeddedStore()
    store.load(tmp_path / "g.tsv")
    return store


def test_a_hub_relation_is_cut_before_it_is_read_and_its_count_kept(tmp_path: Path) -> None:
    store = _store(tmp_path, 2_500)  # past the store's switch to counting in the engine
    acme = store.entities_by_label("Acme Corp")[0]
    around = capped_one_hop(store, acme.id, per_relation=50)
    relations = [t.relation for t in around.graph.triples]
    assert relations.count("employee") == 50 and relations.count("founded by") == 1
    assert around.cut == {("employee", False): 2_500}
    assert around.total == 2_501
    # the count is the store's own, whichever way it was made
    assert ("employee", False, 2_500) in store.relation_degrees(acme.id)


def test_an_entity_under_the_cap_is_read_whole(tmp_path: Path) -> None:
    store = _store(tmp_path, 10)
    acme = store.entities_by_label("Acme Corp")[0]
    around = capped_one_hop(store, acme.id, per_relation=50)
    assert around.cut == {} and around.total == 11
    assert set(around.graph.triples) == set(store.one_hop(acme.id).triples)
    assert capped_one_hop(store, "no-such-entity").graph.entities == ()
