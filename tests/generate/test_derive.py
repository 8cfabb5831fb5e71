"""Derived answers through the doors users take: `kgcite ask --json` and `kgcite run` on a
railway graph written for the tests, and the `Answerer` in process (HTTP: tests/server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kgcite.generate.pipeline import GroundedGenerator
from kgcite.judge.derived import is_conclusion
from kgcite.kg import EmbeddedStore
from kgcite.runtime import Runtime, RuntimeConfig
from tests.helpers import kgcite

RAILWAY = Path(__file__).resolve().parents[1] / "data" / "railway.tsv"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("rail") / "store"
    res = kgcite("kg", "load", str(RAILWAY), "--store", str(folder))
    assert res.returncode == 0, res.stderr
    return folder


def ask(store: Path, question: str) -> dict[str, Any]:
    res = kgcite("ask", question, "--store", str(store), "--json")
    assert res.returncode == 0, res.stderr[-2000:]
    out: dict[str, Any] = json.loads(res.stdout)
    return out


def cited(record: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(c[0], c[1], c[2]) for c in record["citations"]}


def conclusion(record: dict[str, Any]) -> dict[str, Any]:
    found = [s for s in record["sentences"] if is_conclusion(s["text"])]
    assert len(found) == 1, record["answer"]
    return found[0]


def test_which_is_older_compares_the_dates_and_cites_both(store: Path) -> None:
    r = ask(store, "Which station is older, Vellmoor Central or Tarn Junction?")
    assert r["form"] == "comparison" and r["predicted"] == ["Vellmoor Central"]
    assert [x["text"] for x in r["sentences"][:2]] == [
        "Vellmoor Central opened on April 15, 1872.",
        "Tarn Junction opened on September 1, 1885.",
    ]
    text = kgcite("ask", "Which station is older, Vellmoor Central or Tarn Junction?", "--store", str(store))
    assert "So Vellmoor Central is older [1][2]." in text.stdout, text.stdout
    end = conclusion(r)
    assert end["text"] == "So Vellmoor Central is older." and len(end["citations"]) == 2
    assert "[NA]" not in r["answer"]


def test_a_polar_comparison_answers_about_the_first_named(store: Path) -> None:
    assert ask(store, "Did Tarn Junction open before Vellmoor Central?")["predicted"] == ["no"]
    assert ask(store, "Did Vellmoor Central open before Tarn Junction?")["predicted"] == ["yes"]


def test_how_many_counts_and_lists_what_it_counted(store: Path) -> None:
    r = ask(store, "How many stations does the Vellmoor and Tarn Railway operate?")
    assert r["form"] == "count" and r["predicted"] == ["3"]
    assert set(r["answer_paths"]) == {"Vellmoor Central", "Tarn Junction", "Ashby Halt"}
    assert conclusion(r)["text"] == "So that makes 3 stations." and len(conclusion(r)["citations"]) == 3
    # a relation that holds the number is looked up, not counted
    p = ask(store, "How many platforms does Vellmoor Central have?")
    assert p["predicted"] == ["6"] and ("Vellmoor Central", "number_of_platforms", "6") in cited(p)


def test_yes_no_and_na_where_the_graph_lacks_the_relation(store: Path) -> None:
    yes = ask(store, "Was Samuel Pike born in Oldmere?")
    assert yes["form"] == "yesno" and yes["predicted"] == ["yes"] and yes["answer"].startswith("Yes: ")
    assert cited(yes) == {("Samuel Pike", "born_in", "Oldmere")}
    no = ask(store, "Was Edith Crowe born in Oldmere?")
    assert no["predicted"] == ["no"] and no["answer"].startswith("No: Edith Crowe was born in Vellmoor")
    assert ask(store, "Did Vellmoor Central open in 1872?")["predicted"] == ["yes"]
    # Ashby Halt has no opening date: [NA], never "no"
    lacking = ask(store, "Did Ashby Halt open in 1880?")
    assert lacking["predicted"] == [] and "[NA]" in lacking["answer"] and not lacking["citations"]


def test_yes_no_about_two_entities(store: Path) -> None:
    same = ask(store, "Were Vellmoor Central and Ashby Halt designed by the same engineer?")
    assert same["predicted"] == ["yes"] and len(same["citations"]) == 2
    assert ask(store, "Were Vellmoor Central and Tarn Junction designed by the same engineer?")["predicted"] == ["no"]
    assert ask(store, "Were Vellmoor Central and Ashby Halt designed by Samuel Pike?")["predicted"] == ["yes"]
    no = ask(store, "Did Samuel Pike design Tarn Junction?")
    assert no["predicted"] == ["no"] and cited(no) == {("Tarn Junction", "designed_by", "Edith Crowe")}


def test_yes_where_the_value_is_a_name_not_an_entity() -> None:
    """BioKaLMA-style JSON holds values as names: "born in Harrowgate" is still a yes."""
    own = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "faithfulness" / "own_graph.json"
    res = kgcite("ask", "--kg", str(own), "--json", "Was John Marsh born in Harrowgate?")
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads(res.stdout)["predicted"] == ["yes"]


def test_both_cites_each_side_and_what_they_share(store: Path) -> None:
    r = ask(store, "Which engineer designed both Vellmoor Central and Ashby Halt?")
    assert r["form"] == "intersection" and r["predicted"] == ["Samuel Pike"]
    assert cited(r) == {
        ("Vellmoor Central", "designed_by", "Samuel Pike"),
        ("Ashby Halt", "designed_by", "Samuel Pike"),
    }
    assert len(conclusion(r)["citations"]) == 2


def test_the_oldest_of_a_set_says_which_members_lack_a_date(store: Path) -> None:
    r = ask(store, "Which is the oldest station the Vellmoor and Tarn Railway operates?")
    assert r["form"] == "superlative" and r["predicted"] == ["Vellmoor Central"]
    assert "The graph does not say when Ashby Halt opened [NA]." in r["answer"]
    # the conclusion cites the membership and both dates
    assert len(conclusion(r)["citations"]) == 5


def test_run_lines_carry_form_and_predicted_and_eval_scores_them(store: Path, tmp_path: Path) -> None:
    rows = [
        {
            "id": "1",
            "question": "Which station is older, Vellmoor Central or Tarn Junction?",
            "answers": ["Vellmoor Central"],
        },
        {"id": "2", "question": "How many stations does the Vellmoor and Tarn Railway operate?", "answers": ["3"]},
        {"id": "3", "question": "Was Edith Crowe born in Oldmere?", "answers": ["no"]},
    ]
    data, out = tmp_path / "q.jsonl", tmp_path / "a.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    res = kgcite("run", "--dataset", str(data), "--out", str(out), "--store", str(store))
    assert res.returncode == 0, res.stderr[-2000:]
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [x["form"] for x in lines] == ["comparison", "count", "yesno"]
    assert [x["predicted"] for x in lines] == [["Vellmoor Central"], ["3"], ["no"]]
    report = kgcite("eval", "answers", "--answers", str(out), "--json")
    assert report.returncode == 0, report.stderr[-2000:]
    assert json.loads(report.stdout)["hits_at_1"] == 1.0


def test_the_answerer_in_process_and_the_judge_supports_every_pair(tmp_path: Path) -> None:
    store = EmbeddedStore()
    store.load(RAILWAY)
    runtime = Runtime(RuntimeConfig(cache=None), store=store)
    generator = runtime.generator("grounded")
    assert isinstance(generator, GroundedGenerator)
    answers = generator.answer_many(
        ["Which station is older, Vellmoor Central or Tarn Junction?", "Was Samuel Pike born in Oldmere?"]
    )
    for a in answers:
        assert not isinstance(a, Exception)
        assert not a.repairs, a.repairs  # verification removed nothing: the judge supports every pair
    assert [a.predicted for a in answers if not isinstance(a, Exception)] == [("Vellmoor Central",), ("yes",)]


def test_which_is_older_reads_a_year_written_as_a_partial_date(tmp_path: Path) -> None:
    """Wikidata writes a year alone as ``1874-00-00``: it is still a date to compare."""
    graph = tmp_path / "observatories.csv"
    graph.write_text("Kestrel Observatory,opened,1891-06-12\nBrantwick Observatory,opened,1874-00-00\n")
    res = kgcite("ask", "Which is older, Kestrel Observatory or Brantwick Observatory?", "--kg", str(graph))
    assert res.returncode == 0, res.stderr
    assert "Brantwick Observatory opened in 1874 [" in res.stdout
    assert "So Brantwick Observatory is older [" in res.stdout, res.stdout


def test_nothing_shared_says_by_which_relations_it_looked() -> None:
    """ "Kestrel II" is designed by Felix Ordway and has its home port in Gullhaven: an answer that
    looked only at ``designed by`` and ``based_in`` must not say nothing is linked to both."""
    sailing = RAILWAY.parent / "sailing.tsv"
    res = kgcite("ask", "Who owns a boat designed by Felix Ordway that is based in Gullhaven?", "--kg", str(sailing))
    assert res.returncode == 0, res.stderr[-2000:]
    first = res.stdout.splitlines()[0]
    assert "linked to both" not in first and "by designed by" in first and "[NA]" in first, first
