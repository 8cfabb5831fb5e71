from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from kgcite.kg import EmbeddedSparqlStore, EmbeddedStore, InputError, WikidataScheme
from kgcite.kg.loaders import biokalma_subgraph, read_biokalma, read_csv, read_tsv, shipped_biokalma


def test_shipped_biokalma_is_complete_with_its_license() -> None:
    paths = shipped_biokalma()
    assert [p.name for p in paths] == ["complex_question_graph.json", "simple_question_graph.json"]
    assert (paths[0].parent / "LICENSE-S-Lab-1.0.txt").read_text().strip()
    items = list(read_biokalma(paths[0]))
    assert len(items) == 1085
    crane = items[0].graph
    assert crane.entity("Q206534").label == "Stephen Crane"  # type: ignore[union-attr]
    assert ("Q206534", "father", "Jonathan Townley Crane") in crane
    assert ("Q206534", "date of birth", "1871-11-01") in crane  # date_of_birth reads as in the paper
    assert ("Q206534", "date_of_birth", "1871-11-01") in crane  # ... and the data's own spelling matches it
    assert not any(t.relation == "qid" for t in crane)
    # the label is knowledge of G, as the KaLMA authors' scorer counts it
    assert [t.key for t in crane if t.relation == "name" and t.subject_id == "Q206534"] == [
        ("Q206534", "name", "Stephen Crane")
    ]
    general = list(read_biokalma(shipped_biokalma("general")[0]))
    assert sum(len(i.graph.entities) == 0 for i in general) == 98  # as the data README says


def test_biokalma_entity_conversion_drops_empty_values_and_names_bad_fields() -> None:
    g = biokalma_subgraph([{"qid": "Q1", "name": "A", "father": "B", "date_of_death": ""}])
    assert g.keys == {("Q1", "name", "A"), ("Q1", "father", "B")}
    assert biokalma_subgraph([{"qid": "Q2", "father": "B"}]).keys == {("Q2", "father", "B")}  # no name, no label triple
    with pytest.raises(InputError, match=r"answers.jsonl:7: kg\[1\]\.qid: missing"):
        biokalma_subgraph([{"qid": "Q1"}, {"name": "x"}], where=("answers.jsonl", 7))
    with pytest.raises(InputError, match=r"kg\[0\]\.father: expected a string value, got int"):
        biokalma_subgraph([{"qid": "Q1", "father": 3}])


def test_bad_biokalma_file_is_located(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([["q?", [{"qid": "Q1"}]], ["only a question"]]))
    with pytest.raises(InputError, match=r"bad.json: item\[1\]: expected \[question"):
        list(read_biokalma(bad))
    broken = tmp_path / "broken.json"
    broken.write_text('[["q", [\n{"qid": }]]]')
    with pytest.raises(InputError, match=r"broken.json:2: invalid JSON"):
        list(read_biokalma(broken))


def test_tsv_reader_metaqa_style(tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(
        "Kismet|directed_by|William Dieterle\nKismet|release_year|1944\n\nCrouching Tiger, Hidden Dragon|has_genre|Action\n"
    )
    triples = list(read_tsv(kb))
    assert [t.key for t in triples] == [
        ("Kismet", "directed_by", "William Dieterle"),
        ("Kismet", "release_year", "1944"),
        ("Crouching Tiger, Hidden Dragon", "has_genre", "Action"),
    ]
    assert triples[0].object_id == "William Dieterle"
    for text, problem in [
        ("a|b|c\na|b\n", r"kb.txt:2: expected head\|relation\|tail, got 2 fields"),
        ("a||c\n", r"kb.txt:1: relation: empty"),
        ("Alpha\tknows\n", r"kb.txt:1: expected head<TAB>relation<TAB>tail, got 2 fields"),  # a tab, no bar
        ("Alpha\n", r"got 1 field$"),
        ("Alpha knows Beta\n", r"kb.txt:1: .*no tab or \| on the line, and spaces do not separate fields"),
    ]:
        _refused(read_tsv, kb, text, problem)
    kb.write_text("subject\trelation\tobject\nAlpha\tknows\tBeta\n")  # a header line is not a fact
    assert [t.key for t in read_tsv(kb)] == [("Alpha", "knows", "Beta")]
    kb.write_text("Alpha\tknows\tBeta\nsubject\trelation\tobject\n")  # only a first line is a header
    assert len(list(read_tsv(kb))) == 2


def _refused(read: Callable[[Path], Iterable[object]], path: Path, text: str, problem: str) -> None:
    """``read`` stops at the first bad line of ``text`` with ``problem``, located."""
    path.write_text(text)
    with pytest.raises(InputError, match=problem):
        list(read(path))


def test_csv_reader_quotes_and_header(tmp_path: Path) -> None:
    g = tmp_path / "g.csv"
    g.write_text('Subject,Predicate,Object\n"Smith, John",works at,Acme\nAcme,"founded by","Smith, John"\n')
    assert [t.key for t in read_csv(g)] == [
        ("Smith, John", "works at", "Acme"),
        ("Acme", "founded by", "Smith, John"),
    ]
    g.write_text("head,relation,tail\n")  # a header alone: no triple
    assert list(read_csv(g)) == []
    g.write_text("a,b,c\nhead,relation,tail\n")  # only a first line is a header
    assert [t.key for t in read_csv(g)] == [("a", "b", "c"), ("head", "relation", "tail")]
    _refused(read_csv, g, "a,b,c\na,b\n", r"g.csv:2: expected head,relation,tail, got 2 fields")
    _refused(read_csv, g, 'a,"b\n', r"g.csv:1: not a CSV line")


def test_tsv_graph_in_store_has_incoming_edges(tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text("Kismet|directed_by|William Dieterle\nThe Hunchback|directed_by|William Dieterle\n")
    store = EmbeddedStore()
    store.load(kb)
    assert sorted(t.subject_id for t in store.incoming("William Dieterle")) == ["Kismet", "The Hunchback"]
    assert [e.id for e in store.entities_by_label("kismet")] == ["Kismet"]


def test_rdf_files_load_and_bad_rdf_is_located(tmp_path: Path) -> None:
    nt = tmp_path / "g.nt"
    nt.write_text(
        '<http://www.wikidata.org/entity/Q1> <http://www.w3.org/2000/01/rdf-schema#label> "Universe"@en .\n'
        "<http://www.wikidata.org/entity/Q1> <http://www.wikidata.org/prop/direct/P31> <http://www.wikidata.org/entity/Q2> .\n"
        '<http://www.wikidata.org/entity/Q2> <http://www.w3.org/2000/01/rdf-schema#label> "thing"@en .\n'
    )
    store = EmbeddedStore(scheme=WikidataScheme())
    assert store.load(nt) == 3
    assert store.entity("Q1").types == ("thing",)  # type: ignore[union-attr]
    assert [e.id for e in store.entities_by_label("UNIVERSE")] == ["Q1"]  # loaded through kgcite: keyed
    bad = tmp_path / "bad.ttl"
    bad.write_text("@prefix ex: <http://ex/> .\nex:a ex:b .\n")
    with pytest.raises(InputError, match="bad.ttl"):
        EmbeddedStore().load(bad)
    with pytest.raises(InputError, match="unknown graph format"):
        EmbeddedStore().load(tmp_path / "graph.xlsx")


def test_on_disk_store_reopens_without_reloading(tmp_path: Path) -> None:
    location = tmp_path / "biokalma"
    store = EmbeddedStore(location)
    for p in shipped_biokalma():
        store.load(p)
    n = len(store)
    store.close()
    t0 = time.perf_counter()
    again = EmbeddedStore(location)
    reopen_s = time.perf_counter() - t0
    assert len(again) == n > 20_000
    assert again.one_hop("Q206534").about("Q206534")
    assert [e.id for e in again.entities_by_label("stephen cr", prefix=True)] == ["Q206534"]
    assert reopen_s < 1.0, f"reopening took {reopen_s:.2f} s: it should not reload"
    again.close()
    ro = EmbeddedStore(location, read_only=True)
    assert len(ro) == n


@pytest.mark.parametrize("cls", [EmbeddedStore, EmbeddedSparqlStore])
def test_triples_in_several_named_graphs_come_back_once(tmp_path: Path, cls: type[EmbeddedSparqlStore]) -> None:
    nq = tmp_path / "g.nq"
    e, p = "<urn:kgcite:entity:Q1>", "<urn:kgcite:relation:occupation>"
    nq.write_text(f'{e} {p} "painter" <urn:g:1> .\n{e} {p} "painter" <urn:g:2> .\n{e} {p} "poet" .\n')
    store = cls()
    store.load(nq)
    assert sorted(t.object_value for t in store.outgoing("Q1")) == ["painter", "poet"]
