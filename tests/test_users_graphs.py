"""The quality gate on graphs written by people outside kgcite, as a new user would write them.

Each graph was written for kgcite's tests by someone who had seen neither the code nor the
models: relation names in many styles (``writtenBy``, ``PublicationYear``, ``MEMBER_OF``,
``award.won``, ``born in``), namesakes written "Name (role)", facts left out on purpose, dates in
several formats, and questions phrased as people ask. Every answer goes through the door users
take (``kgcite run``) and is graded as a user would: the answer states what was asked, every
citation is a triple of the graph, and ``[NA]`` stands on every missing fact and only there.

- ``publishing``: a publishing world (70 questions); kgcite's rules were developed against it.
- ``observatory``, ``beekeeping``, ``puppetry``: each written after the rules were frozen and
  measured once (held out: 0.778, 0.785 and 0.682 then); the floor is that first measure, so it
  can only rise. What they miss is mostly relations asked in words their names do not suggest
  ("How big an audience can X hold?" for `theatre.seats`).
- ``ferries``: a river ferry network (71 questions, six naming styles), written after the plan
  moved into retrieval and measured once: 0.901 (0.634 on the release before this work).
- ``squads``: conjunctive questions with two topics ("Which midfielders play for Redmarsh
  United?"), the topics given as a public benchmark gives them.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from kgcite.evaluate.metrics.graded import graded
from kgcite.kg.loaders import read_named
from tests.helpers import kgcite

DATA = Path(__file__).resolve().parent / "data"
#: What each graph must reach (share of its questions graded right).
FLOORS = {"publishing": 0.90, "observatory": 0.75, "beekeeping": 0.78, "puppetry": 0.68, "ferries": 0.90}
#: Every question of these kinds must be right on the publishing graph: one cause each
#: (camelCase names, the kind of answer asked, a missing fact, a dropped relation, two topics,
#: "both" with no common member, namesakes).
CAUSES = ("one-hop", "missing", "multi-hop-trap", "two-hop", "conjunctive", "common", "namesake", "comparison")


def _records(tmp: Path, name: str, *, topics: bool = True, gold: bool = False) -> dict[str, dict[str, Any]]:
    """``kgcite run`` over a graph's questions (with their topics, with their gold answers), by id."""
    graph = DATA / f"{name}.tsv"
    keep = {"id", "question"} | ({"topic"} if topics else set()) | ({"answers"} if gold else set())
    rows = [json.loads(line) for line in (DATA / f"{name}_questions.jsonl").read_text(encoding="utf-8").splitlines()]
    asked = tmp / f"{name}{'.gold' if gold else ''}.jsonl"
    asked.write_text("".join(json.dumps({k: v for k, v in r.items() if k in keep}) + "\n" for r in rows), "utf-8")
    out = tmp / f"{name}{'.gold' if gold else ''}.out.jsonl"
    res = kgcite("run", "--dataset", str(asked), "--kg", str(graph), "--out", str(out), timeout=900)
    assert res.returncode == 0, res.stderr[-2000:]
    return {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}


def _run(tmp: Path, name: str, *, topics: bool = True) -> list[tuple[dict[str, Any], str | None]]:
    records = _records(tmp, name, topics=topics)
    RECORDS[name] = records
    graph = DATA / f"{name}.tsv"
    rows = [json.loads(line) for line in (DATA / f"{name}_questions.jsonl").read_text(encoding="utf-8").splitlines()]
    triples = {(t.subject_id, t.relation, t.object_value) for t in read_named(graph)}
    return [(row, graded(row, records[row["id"]], triples)) for row in rows]


#: The lines of each graph's run (without gold answers), by id: what the gold run is compared with.
RECORDS: dict[str, dict[str, dict[str, Any]]] = {}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[dict[str, Any], str | None]]]:
    folder = tmp_path_factory.mktemp("users")
    return {name: _run(folder, name) for name in FLOORS}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_a_users_graph_is_answered(results: dict[str, list[tuple[dict[str, Any], str | None]]], name: str) -> None:
    graded_ = results[name]
    wrong = [f"{row['id']} {row['question']}: {why}" for row, why in graded_ if why]
    assert len(graded_) >= 50
    assert 1 - len(wrong) / len(graded_) >= FLOORS[name], "\n".join(wrong)


def test_every_citation_is_a_graph_triple(results: dict[str, list[tuple[dict[str, Any], str | None]]]) -> None:
    invented = [f"{row['id']}: {why}" for rows in results.values() for row, why in rows if why and "cites" in why]
    assert not invented, invented


@pytest.mark.parametrize("cause", CAUSES)
def test_each_cause_of_a_wrong_answer_holds(
    results: dict[str, list[tuple[dict[str, Any], str | None]]], cause: str
) -> None:
    by_kind: dict[str, list[str]] = defaultdict(list)
    for row, why in results["publishing"]:
        by_kind[row["kind"]].append(f"{row['question']}: {why}" if why else "")
    assert by_kind[cause], f"no {cause} question"
    assert not [w for w in by_kind[cause] if w], [w for w in by_kind[cause] if w]


def test_a_line_with_gold_answers_takes_the_same_plan(
    results: dict[str, list[tuple[dict[str, Any], str | None]]], tmp_path: Path
) -> None:
    """``kgcite run`` answers a line the same way whether or not it carries gold answers (a dataset
    with answers is run as question answering, one without as plain answering): one plan decides."""
    plain = RECORDS["publishing"]
    with_gold = _records(tmp_path, "publishing", gold=True)
    differ = [
        (i, plain[i]["answer"], line["answer"])
        for i, line in with_gold.items()
        if (line["answer"], line["citations"], line["predicted"], line["form"])
        != (plain[i]["answer"], plain[i]["citations"], plain[i]["predicted"], plain[i]["form"])
    ]
    assert "answers" in next(iter(with_gold.values())) and len(with_gold) == len(plain)
    assert not differ, differ[:5]


def test_two_topic_questions_intersect(tmp_path: Path) -> None:
    """Conjunctive questions with their two topics given: answers meet both conditions (a
    regression once listed every member of one), and no common answer is [NA]."""
    rows = _run(tmp_path, "squads")
    wrong = [f"{row['id']} {row['question']}: {why}" for row, why in rows if why]
    assert len(rows) >= 30
    assert 1 - len(wrong) / len(rows) >= 0.95, "\n".join(wrong)


@pytest.mark.parametrize("question", ["Who is the CEO of Marsh & Cole?", "Where was Samuel Idris born?"])
def test_free_mode_marks_what_no_citation_supports(question: str) -> None:
    """Free mode (the LLM writes text and citations) goes through the same judge: a sentence no
    cited triple supports, an invented CEO included, comes back [NA], never as a bare claim."""
    res = kgcite("ask", "--mode", "free", "--json", "--kg", str(DATA / "publishing.tsv"), question)
    assert res.returncode == 0, res.stderr[-2000:]
    sentences = json.loads(res.stdout)["sentences"]
    assert sentences
    bare = [s["text"] for s in sentences if not s["na"] and not s["citations"]]
    assert not bare, bare


def test_namesakes_are_listed_by_kg_load_and_kg_show(tmp_path: Path) -> None:
    """Namesakes written "Name (role)", as docs/graphs.md recommends: `kg load` says so, and
    `kg show NAME` shows each (it once exited 1 without offering them)."""
    load = kgcite("kg", "load", str(DATA / "publishing.tsv"), "--store", str(tmp_path / "store"))
    assert load.returncode == 0, load.stderr
    assert "2 entities are named 'Samuel Idris' with a qualifier" in load.stderr
    show = kgcite("kg", "show", "Samuel Idris", "--store", str(tmp_path / "store"))
    assert show.returncode == 0, show.stderr
    assert "Samuel Idris (editor)" in show.stdout and "Samuel Idris (novelist)" in show.stdout
    assert "Carrow Hythe" in show.stdout and "Vessington" in show.stdout


@pytest.mark.parametrize(
    ("question", "meant", "other"),
    [
        (
            "Where did Ivo Marsh the boatbuilder serve his apprenticeship?",
            "Ivo Marsh (boatbuilder)",
            "Ivo Marsh (captain)",
        ),
        ("When was the captain Nell Ashby born?", "Nell Ashby (captain)", "Nell Ashby (ferry owner)"),
    ],
)
def test_a_namesakes_role_said_in_words_picks_it(question: str, meant: str, other: str) -> None:
    """ "Ivo Marsh the boatbuilder" names "Ivo Marsh (boatbuilder)" alone: answered for it, with no
    [NA] for the captain and no walk on from the word "boatbuilder" (it once read as `builtBy`)."""
    res = kgcite("ask", "--json", "--kg", str(DATA / "ferries.tsv"), question)
    assert res.returncode == 0, res.stderr[-2000:]
    record = json.loads(res.stdout)
    assert record["linked"] == [meant] and "[NA]" not in record["answer"], record["answer"]
    assert {c[0] for c in record["citations"]} == {meant} and other not in record["answer"]
