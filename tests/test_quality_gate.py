"""The end-to-end quality gate, through the door users take (`kgcite run`, `kgcite ask`).

A new feature must not silently undo an old promise: every question about a relation the graph
lacks gets `[NA]` with nothing cited in its place, and the questions the graph can answer cite
the facts asked for (one-hop, two-part, multi-hop, lower case, misspelt, a leading article, a
label that holds another label, a paraphrase only the grounding model reads: "architect", a
hop left to a word no relation is named by: "the engineer of", a pronoun for the answer of an
earlier part: "Who designed X and where was he born?", a last hop left to a word no relation is
named by: "the hometown of X's CEO"), and a missing relation is never
answered through an unasked hop (the birthplace of Ramesses VI's father, the mother tongue of
Elizabeth of York's mother), nor is what no relation names asked of a described thing ("the
ticket price of the premiere venue of X", "How tall is the playwright of X?": `[NA]`, said of the
playwright; "the location of …" is its city, and "Who is in charge of the venue X opened at?" its
artistic director; "Which *department* does X's adviser lead?" asks for a department, not where
one is: `department of` starts from the kind asked; "the spouse of the father of X" walks the
father first, and says `[NA]` of him where he is a name with no facts, while "the employer and
the spouse of X" asks both of X; "Where was the mentor of X born?" is never X's own birthplace,
"Who runs / is in charge of / chairs …" asks for the one at its head, and "Whom is the owner of X
married to?" is never answered by the owner's birthplace; a graph holding both `born in` and
`birthPlace` answers "Where was X born?" from either; "X's doctor" is whom X is a `patient of`;
"X's classmates", "the same school as X", "share a department with X" and "What else did the
writer of X write?" walk out and back, but co-patients are no classmates; "wine" is no
"winemaker" and "company" no "come from"; "Whom did X train?", "Which winemakers learned the trade
from X?" and "Which students did X supervise?" walk a teaching bond to the learners, "Who mentored
the winemaker behind X?" to the teacher, "Whom did X teach?" over `studied with` too, and "the head of X
teach" is no teaching bond; "Which county is X in?" walks a site's town, "In which county was X
born?" is `[NA]` where the graph lacks the birthplace's county, never the birthplace, "In which
region is X based?" is never X's town when the town has a county, "Which pieces did X write?"
asks `composer`, "Who manages X?" its station manager, "the host of" a show whom it was
`presented by`, "Which routes set off from X?" routes, not their `ROUTE_NUMBER`, and a relation asked
in words its name does not use is answered where the model's pick is clear: "What tongue is X
in?", "When did X open?", while "What is the population of X?" is never X's county, and "How big is the hive count of X?"
is the count, not something asked of it; "Who runs X?" asks its coordinator, or whom it is
`managed by`, where that is the one in charge it has; a word read as part of one relation's name
is not read again as another's: "the lifeboat named after X"; "In which *town* is the compost supplier
for X based?" asks for a town, reached by the supplier's `hq` as well as by a `site_town`). Derived questions
give their answer and cite the facts it rests on ("which is older", "how many", yes and no,
"both", "the oldest of"), and a yes/no about a relation the graph lacks is `[NA]`, never "no". Questions:
``tests/data/quality_gate.jsonl``, over the shipped BioKaLMA graph, a railway graph written
for this gate and the aviation graph of ``benchmarks/data/kgqa``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import kgcite

DATA = Path(__file__).resolve().parent / "data"
RAILWAY = DATA / "railway.tsv"
#: The graphs besides the shipped BioKaLMA one: written for this gate, or for `benchmarks/kgqa.py`.
GRAPHS = {
    "railway": RAILWAY,
    "sailing": DATA / "sailing.tsv",
    "mountain_rescue": DATA / "mountain_rescue.tsv",
    "orchestra": DATA / "orchestra.tsv",
    "aviation": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "aviation_graph.tsv",
    "music": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "music_graph.tsv",
    "football": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "football_graph.tsv",
    "theatre": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "theatre_graph.tsv",
    "university": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "university_graph.tsv",
    "family": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "family_graph.tsv",
    "wine": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "wine_graph.tsv",
    "bees": DATA / "bee_cooperatives.tsv",
    "hospital": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "hospital_graph.tsv",
    "school": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "school_graph.tsv",
    "choirs": DATA / "choirs.tsv",
    "forges": DATA / "forges.tsv",
    "radio": DATA / "radio.tsv",
    "buses": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "buses_graph.tsv",
    "museum": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "museum_graph.tsv",
    "esports": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "esports_graph.tsv",
    "lifeboat": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "lifeboat_graph.tsv",
    "allotment": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "allotment_graph.tsv",
    "philharmonic": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "philharmonic_graph.tsv",
    "brigade": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "brigade_graph.tsv",
    "glassworks": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "glassworks_graph.tsv",
    "rowing": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "rowing_graph.tsv",
    "lighthouse": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "lighthouse_graph.tsv",
    "newsroom": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "newsroom_graph.tsv",
    "garden": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "garden_graph.tsv",
    "beekeeping": DATA.parent.parent / "benchmarks" / "data" / "kgqa" / "beekeeping_graph.tsv",
    "metaqa": DATA.parent.parent / "src" / "kgcite" / "data" / "metaqa" / "kb.txt",
}
#: Thresholds: an unasked fact in place of [NA] is never allowed; an answer may miss only where
#: it is listed here, by id, with why. A listed case that starts passing fails the gate too, so
#: the list says exactly what misses (a bar below 1.0 had hidden two cases for many commits).
NA_THRESHOLD = 1.0
KNOWN_MISSES: dict[str, str] = {}


def passes(expect: Any, record: dict[str, Any], predicted: list[str] | None = None) -> bool:
    """``expect``: "na", ``{"na_after": pairs}`` (``[NA]`` after citing the hops walked, those
    (subject, relation) pairs: the ``[NA]`` is about the thing they reach, not a claim that they
    are missing), or the pairs that must be cited; ``predicted``: the answer a derived question
    must give (a winner, a count, yes or no)."""
    cited = {(c[0], c[1]) for c in record.get("citations", [])}
    if isinstance(expect, dict):
        hops = {(subject, relation) for subject, relation in expect["na_after"]}
        return passes("na", record) and cited == hops
    if expect == "na":
        # nothing cited, or only the hops walked to the fact that is missing, stated before its [NA]
        # ("Tarn Junction was designed by Edith Crowe. The graph does not say when Edith Crowe was born.")
        answer = record["answer"]
        walked = all(not s["citations"] for s in record.get("sentences", [])[-1:]) and answer.rstrip().endswith("[NA].")
        return "[NA]" in answer and not record.get("predicted") and (not cited or walked)
    right = predicted is None or record.get("predicted") == predicted
    return right and all((subject, relation) in cited for subject, relation in expect)


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every gate question answered by one `kgcite run` per graph; (question row, answer record)."""
    rows = [json.loads(line) for line in (DATA / "quality_gate.jsonl").read_text(encoding="utf-8").splitlines()]
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    folder = tmp_path_factory.mktemp("gate")
    for graph in ("biokalma", *GRAPHS):
        mine = [r for r in rows if r["graph"] == graph]
        questions, answers = folder / f"{graph}.jsonl", folder / f"{graph}.out.jsonl"
        questions.write_text("".join(json.dumps({"id": r["id"], "question": r["question"]}) + "\n" for r in mine))
        extra = ["--kg", str(GRAPHS[graph])] if graph in GRAPHS else []
        res = kgcite("run", "--dataset", str(questions), "--out", str(answers), *extra)
        assert res.returncode == 0, res.stderr[-2000:]
        by_id = {r["id"]: r for r in map(json.loads, answers.read_text(encoding="utf-8").splitlines())}
        out += [(r, by_id[r["id"]]) for r in mine]
    return out


def test_na_for_every_relation_the_graph_lacks(gate: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    na = [(row, rec) for row, rec in gate if row["expect"] == "na" or isinstance(row["expect"], dict)]
    failed = [f"{row['question']} -> {rec['answer']}" for row, rec in na if not passes(row["expect"], rec)]
    assert len(na) >= 7
    assert 1 - len(failed) / len(na) >= NA_THRESHOLD, failed


def test_answers_cite_what_was_asked(gate: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    held = [(row, rec) for row, rec in gate if row["expect"] != "na" and not isinstance(row["expect"], dict)]
    failed = {
        row["id"]: f"{row['question']} -> {rec['answer']}"
        for row, rec in held
        if not passes(row["expect"], rec, row.get("predicted"))
    }
    assert len(held) >= 10
    assert {k: v for k, v in failed.items() if k not in KNOWN_MISSES} == {}
    assert set(KNOWN_MISSES) - set(failed) == set(), "a known miss passes now: take it off KNOWN_MISSES"


@pytest.mark.parametrize(
    ("question", "topic", "graph"),
    [
        ("When was Stephen Crane born and who was his father?", "Q206534", None),
        ("Who was Stephen Crane's spouse?", "Q206534", None),
        ("In which county was the designer of Ashby Halt born?", "Ashby Halt", RAILWAY),
    ],
)
def test_ask_with_the_topic_linking_finds_gives_the_same_answer(question: str, topic: str, graph: Path | None) -> None:
    extra = ["--kg", str(graph)] if graph else []
    linked = kgcite("ask", "--json", *extra, question)
    given = kgcite("ask", "--json", *extra, "--topic", topic, question)
    assert linked.returncode == 0 and given.returncode == 0, linked.stderr[-1000:] + given.stderr[-1000:]
    a, b = json.loads(linked.stdout), json.loads(given.stdout)
    assert a["answer"] == b["answer"] and a["citations"] == b["citations"]
    assert topic in a["linked"] or any(topic == c[0] for c in a["citations"])


def test_a_missing_fact_of_a_described_thing_is_never_said_missing_of_the_topic() -> None:
    """ "Where was Ziggy's vet born?", the vet's birthplace missing: the [NA] is not "where Ziggy
    was born" (a new user's graph: `tests/data/vet_network.tsv`); Biscuit's vet's is answered."""
    graph = DATA / "vet_network.tsv"
    res = kgcite("ask", "--json", "--kg", str(graph), "Where was Ziggy's vet born?")
    assert res.returncode == 0, res.stderr[-1000:]
    out = json.loads(res.stdout)
    assert "[NA]" in out["answer"] and "where Ziggy was born" not in out["answer"], out["answer"]
    assert not [a for a in out.get("absent", []) if a[0] == "Ziggy"], out.get("absent")
    res = kgcite("ask", "--json", "--kg", str(graph), "Where was Biscuit's vet born?")
    assert res.returncode == 0 and "Port Merrow" in json.loads(res.stdout)["predicted"], res.stdout[-1000:]


def test_an_unknown_topic_is_a_one_line_error() -> None:
    res = kgcite("ask", "--topic", "Q-not-there", "Who was his father?")
    assert res.returncode == 2
    assert "--topic" in res.stderr and "Traceback" not in res.stderr
