"""The embedded store's fast paths: the shipped graph's dump and the relations a store folder keeps."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from kgcite.kg.embedded import BIOKALMA_DUMP, KEPT_LOGS, RELATIONS_FILE, EmbeddedStore, biokalma_store
from kgcite.kg.loaders import shipped_biokalma, shipped_data
from kgcite.kg.model import Triple
from kgcite.kg.rdf import triple_quads


def test_the_shipped_dump_is_the_json_loaded(biokalma_store: EmbeddedStore) -> None:
    """Rebuild with `python -m kgcite.kg.embedded` when this fails (the JSON or the scheme changed)."""
    dumped, n = biokalma_store_from_dump()
    assert n == len(dumped) == len(biokalma_store)
    assert list(dumped.store) == list(biokalma_store.store)  # the same order too: walks and samples follow it
    relation = "place of birth"
    assert list(dumped.match(relation=relation)) == list(biokalma_store.match(relation=relation))


def biokalma_store_from_dump() -> tuple[EmbeddedStore, int]:
    store, n = biokalma_store()
    assert gzip.decompress(shipped_data("biokalma", BIOKALMA_DUMP).read_bytes()).count(b"\n") == n
    return store, n


def test_a_store_folder_keeps_its_relations_while_its_data_is_unchanged(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "s")
    store.load(shipped_biokalma()[0])
    relations = store.relations()
    record = json.loads((tmp_path / "s" / RELATIONS_FILE).read_text())
    assert record["relations"] == relations and record["quads"] == len(store)
    store.close()

    reopened = EmbeddedStore(tmp_path / "s")
    assert reopened.relations() == relations and reopened._relations is not None
    # data added behind kgcite's back (another tool): the count differs, the relations are found again
    reopened.store.extend(triple_quads(Triple("X1", "Ship", "launched by", "Queen"), reopened.scheme))
    reopened.store.flush()
    reopened.close()
    again = EmbeddedStore(tmp_path / "s")
    assert "launched by" in again.relations() and "launched by" not in relations
    again.close()


def test_a_store_opened_with_another_scheme_does_not_trust_the_record(tmp_path: Path) -> None:
    from kgcite.kg.scheme import WikidataScheme

    store = EmbeddedStore(tmp_path / "s")
    store.load(shipped_biokalma()[0])
    store.close()
    other = EmbeddedStore(tmp_path / "s", WikidataScheme())
    assert other._saved_relations() is None
    other.close()


def test_opening_a_store_again_and_again_keeps_its_logs_bounded(tmp_path: Path) -> None:
    """Every open of a store rotates RocksDB's info log (~137 KB): a user's store held 234 of
    them, 32 MB, after ~230 asks. Only the newest few are kept; the data is untouched."""
    store = EmbeddedStore(tmp_path / "s")
    store.add_quads(triple_quads(Triple("A", "A", "born in", "B", "B"), store.scheme))
    store.close()
    for _ in range(6):  # as `kgcite ask --store` opens it
        EmbeddedStore(tmp_path / "s").close()
    assert len(list((tmp_path / "s").glob("LOG.old.*"))) <= KEPT_LOGS
    again = EmbeddedStore(tmp_path / "s", read_only=True)
    assert [t.object_value for t in again.outgoing("A")] == ["B"]
