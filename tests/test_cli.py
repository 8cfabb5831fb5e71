"""The command line as a user runs it: the installed console script in a subprocess."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import FIGURE_2, K, M, kgcite, kgcite_cmd

KEYS = {
    "n_answers",
    "n_citations",
    "correctness",
    "correctness_macro",
    "precision_micro",
    "recall_micro",
    "f1_micro",
    "precision_macro",
    "recall_macro",
    "f1_macro",
    "n_skipped",
    "n_no_graph",
    "n_minimum",
}


def figure_2_record(id_: str = "fig2") -> dict[str, object]:
    kg = [{"qid": qid, "name": f"Entity {qid}", prop: value} for qid, prop, value in K.values()]
    return {"id": id_, "question": "Figure 2?", "answer": FIGURE_2, "kg": kg, "minimum_knowledge": [list(k) for k in M]}


@pytest.fixture
def answers(tmp_path: Path) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(figure_2_record()) + "\n")
    return path


def test_eval_citations_json_contract(answers: Path) -> None:
    res = kgcite("eval", "citations", "--answers", str(answers), "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert KEYS <= out.keys()
    assert (out["n_answers"], out["n_citations"], out["correctness"]) == (1, 6, 1.0)
    assert out["precision_micro"] == pytest.approx(0.5) and out["recall_micro"] == pytest.approx(0.4)
    distinct = json.loads(
        kgcite("eval", "citations", "--answers", str(answers), "--json", "--precision-unit", "distinct").stdout
    )
    assert distinct["precision_micro"] == pytest.approx(2 / 6)


def test_eval_citations_table(answers: Path) -> None:
    res = kgcite("eval", "citations", "--answers", str(answers))
    assert res.returncode == 0
    assert "precision    0.500" in res.stdout and "recall       0.400" in res.stdout
    assert "1 answers, 6 citation triples" in res.stdout


def test_eval_citations_takes_the_datas_own_spelling_and_the_label(tmp_path: Path) -> None:
    """Regressions: ``date_of_birth`` (as the shipped file spells it) and ``name`` were counted incorrect,
    and a minimum set in the data's spelling was never recalled; a graph with no entity is not scored."""
    crane = json.loads(_biokalma_path().read_text(encoding="utf-8"))[0][1]
    answer = (
        "Stephen Crane [Q206534, name: Stephen Crane] was born on 1 November 1871 [Q206534, date_of_birth: 1871-11-01]."
    )
    rows = [
        {
            "id": "a",
            "question": "?",
            "answer": answer,
            "kg": crane,
            "minimum_knowledge": [["Q206534", "date_of_birth", "1871-11-01"]],
        },
        {
            "id": "b",
            "question": "?",
            "answer": "Unknown [Q1, p: v].",
            "kg": [],
            "minimum_knowledge": [["Q1", "p", "v"]],
        },
    ]
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = json.loads(kgcite("eval", "citations", "--answers", str(path), "--json").stdout)
    assert (out["n_answers"], out["n_no_graph"], out["n_citations"]) == (1, 1, 2)
    assert (out["correctness"], out["recall_micro"], out["precision_micro"]) == (1.0, 1.0, 0.5)
    table = kgcite("eval", "citations", "--answers", str(path)).stdout
    assert "1 answers without a graph (not scored)" in table


def test_bad_line_stops_with_file_line_and_field(answers: Path) -> None:
    bad = figure_2_record("bad")
    del bad["minimum_knowledge"]
    worse = figure_2_record("worse")
    worse["kg"] = [{"name": "no qid"}]
    with answers.open("a") as fh:
        fh.write(json.dumps(bad) + "\n" + json.dumps(worse) + "\n{not json\n")
    res = kgcite("eval", "citations", "--answers", str(answers), "--json")
    assert res.returncode == 2 and res.stdout == ""
    assert f"{answers}:2: minimum_knowledge: missing" in res.stderr
    res = kgcite("eval", "citations", "--answers", str(answers), "--json", "--skip-bad")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert (out["n_answers"], out["n_skipped"], out["precision_micro"]) == (1, 3, 0.5)
    assert f"{answers}:3: kg[0].qid: missing" in res.stderr
    assert f"{answers}:4: invalid JSON" in res.stderr


def test_missing_answer_file_is_a_clear_error(tmp_path: Path) -> None:
    res = kgcite("eval", "citations", "--answers", str(tmp_path / "nope.jsonl"))
    assert res.returncode == 2 and "nope.jsonl: cannot read" in res.stderr


def test_kg_load_then_show(tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(
        "Kismet|directed_by|William Dieterle\nKismet|release_year|1944\nThe Hunchback|directed_by|William Dieterle\n"
    )
    store = tmp_path / "store"
    res = kgcite("kg", "load", str(kb), "--store", str(store))
    assert res.returncode == 0, res.stderr
    assert "kb.txt:" in res.stdout
    shown = kgcite("kg", "show", "william dieterle", "--store", str(store), "--json")
    assert shown.returncode == 0, shown.stderr
    [entity] = json.loads(shown.stdout)
    assert entity["id"] == "William Dieterle"
    assert sorted(s for s, _, _ in entity["incoming"]) == ["Kismet", "The Hunchback"]
    text = kgcite("kg", "show", "Kismet", "--store", str(store)).stdout
    assert "directed_by" in text and "release_year" in text


def test_kg_load_keeps_earlier_files_when_a_later_one_is_bad(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text("Kismet|directed_by|William Dieterle\n")
    bad.write_text("A|rel|B\nA|rel\n")
    store = tmp_path / "store"
    res = kgcite("kg", "load", str(good), str(bad), "--store", str(store))
    assert res.returncode == 2
    assert f"{bad}:2: expected head|relation|tail" in res.stderr
    assert "nothing of" in res.stderr and "files before it stay" in res.stderr
    shown = kgcite("kg", "show", "Kismet", "--store", str(store), "--json")
    assert json.loads(shown.stdout)[0]["outgoing"] == [["directed_by", "William Dieterle", "William Dieterle"]]
    assert kgcite("kg", "show", "A", "--store", str(store)).returncode == 1  # the bad file left nothing


def test_kg_show_defaults_to_shipped_biokalma() -> None:
    res = kgcite("kg", "show", "Q206534", "--json")
    [entity] = json.loads(res.stdout)
    assert entity["label"] == "Stephen Crane"
    assert ["father", "Jonathan Townley Crane", None] in entity["outgoing"]
    missing = kgcite("kg", "show", "No Such Person Anywhere")
    assert missing.returncode == 1 and "no entity" in missing.stderr
    assert kgcite("kg", "show", "x", "--store", "/nonexistent/store").returncode == 2


def test_demo_runs_and_reopens_its_store(tmp_path: Path) -> None:
    first = kgcite("demo", "--store", str(tmp_path / "s"), "--json")
    assert first.returncode == 0, first.stderr
    assert "loaded BioKaLMA" in first.stderr
    report = json.loads(first.stdout)
    assert report["n_answers"] == 4 and 0 < report["correctness"] < 1  # the samples carry deliberate mistakes
    second = kgcite("demo", "--store", str(tmp_path / "s"), "--json")
    assert "nothing reloaded" in second.stderr
    assert json.loads(second.stdout) == report
    # G read from the store gives the same numbers as G from the answer file itself
    inline = kgcite("eval", "citations", "--answers", str(_sample_path()), "--json")
    assert json.loads(inline.stdout) == report


def _biokalma_path() -> Path:
    from importlib import resources

    return Path(str(resources.files("kgcite") / "data" / "biokalma" / "complex_question_graph.json"))


def _sample_path() -> Path:
    from importlib import resources

    return Path(str(resources.files("kgcite") / "data" / "samples" / "biokalma_sample_answers.jsonl"))


def test_help_describes_the_commands() -> None:
    res = kgcite("--help")
    assert res.returncode == 0 and all(c in res.stdout for c in ("demo", "kg", "eval"))
    assert "--precision-unit" in kgcite("eval", "citations", "--help").stdout


def test_ask_stephen_crane_json_offline(tmp_path: Path) -> None:
    res = kgcite("ask", "Who was Stephen Crane's father?", "--json", "--no-cache")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert ["Q206534", "father", "Jonathan Townley Crane"] in out["citations"]
    assert "[Q206534, father: Jonathan Townley Crane]" in out["answer"]


def test_ask_prints_readable_citations() -> None:
    res = kgcite("ask", "Who was Stephen Crane's father?", "--no-rewrite")
    assert res.returncode == 0, res.stderr
    assert "Stephen Crane's father is Jonathan Townley Crane [1]." in res.stdout
    assert "[1] Stephen Crane (Q206534) · father · Jonathan Townley Crane" in res.stdout


def test_ask_with_an_unreachable_server_fails_clearly() -> None:
    from kgcite.ports import free_port

    res = kgcite(
        "ask",
        "Who was Stephen Crane's father?",
        "--base-url",
        f"http://127.0.0.1:{free_port()}",
        "--no-cache",
        "--rewrite",
    )
    assert res.returncode == 1
    assert "kgcite: error:" in res.stderr and "unreachable" in res.stderr and "Traceback" not in res.stderr


# -- question answering by relation paths -----------------------------------------------------------


def test_run_a_qa_dataset_on_a_graph_file_then_eval_answers(tmp_path: Path) -> None:
    from tests.helpers import BOOKS

    kb = tmp_path / "books.tsv"
    kb.write_text(BOOKS)
    qa = tmp_path / "qa.jsonl"
    lines = [
        {
            "id": "1",
            "question": "which publishers published the books written by Ines Calder",
            "answers": ["Harbor Press", "Northwind"],
            "topic": ["Ines Calder"],
        },
        {"id": "2", "question": "where was the writer of [Night Ferry] born", "answers": ["aarhus"]},
        {"id": "3", "question": "who is the mayor of Lisbon", "answers": ["Someone"], "topic": "Lisbon"},
    ]
    qa.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp_path / "out.jsonl"
    res = kgcite(
        "run", "--dataset", str(qa), "--kg", str(kb), "--path-scorer", "zero-shot", "--out", str(out), "--no-cache"
    )
    assert res.returncode == 0, res.stderr
    assert "kgcite eval answers" in res.stdout
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [sorted(r["predicted"]) for r in rows] == [["Harbor Press", "Northwind"], ["Aarhus"], []]
    assert sorted(map(tuple, rows[0]["citations"])) == [
        ("Salt Roads", "published_by", "Northwind"),
        ("Salt Roads", "written_by", "Ines Calder"),
        ("The Glass Orchard", "published_by", "Harbor Press"),
        ("The Glass Orchard", "written_by", "Ines Calder"),
    ]
    assert all(len(p) == 2 for p in rows[0]["answer_paths"].values())
    assert "[NA]" in rows[2]["answer"] and rows[2]["llm_calls"] == 0
    res = kgcite("eval", "answers", "--answers", str(out), "--json")
    assert res.returncode == 0, res.stderr
    m = json.loads(res.stdout)
    assert (
        m["n"] == 3
        and m["hits_at_1"] == pytest.approx(2 / 3)
        and m["citation_correctness"] == 1.0
        and m["path_cited"] == 1.0
    )
    assert m["na_rate"] == pytest.approx(1 / 3)


def test_ask_a_two_hop_question_of_a_graph_file(tmp_path: Path) -> None:
    from tests.helpers import BOOKS

    kb = tmp_path / "books.tsv"
    kb.write_text(BOOKS)
    ask = ("ask", "--kg", str(kb), "--path-scorer", "zero-shot", "--no-cache")
    res = kgcite(*ask, "--topic", "Night Ferry", "where was the writer of Night Ferry born")
    assert res.returncode == 0, res.stderr
    assert "Night Ferry" in res.stdout and "Aarhus" in res.stdout
    assert (
        "[1] Night Ferry · written by · Tomas Reyl" in res.stdout and "[2] Tomas Reyl · born in · Aarhus" in res.stdout
    )
    # --json reads out what was asked on a walked answer too, not only on a lookup
    res = kgcite(*ask, "--json", "where was the writer of Night Ferry born")
    answer = json.loads(res.stdout)
    assert answer["path"] and answer["asked"]["parts"], answer


def test_eval_answers_names_a_line_without_predictions(tmp_path: Path) -> None:
    bad = tmp_path / "a.jsonl"
    bad.write_text(json.dumps({"id": "1", "answers": ["x"]}) + "\n")
    res = kgcite("eval", "answers", "--answers", str(bad))
    assert res.returncode == 2 and "a.jsonl:1" in res.stderr and "predicted" in res.stderr


def test_version_and_an_empty_question() -> None:
    res = kgcite("--version")
    assert res.returncode == 0 and res.stdout.startswith("kgcite ")
    res = kgcite("ask", "   ")
    assert res.returncode == 2 and "empty question" in res.stderr and "Traceback" not in res.stderr


def test_serve_says_when_it_is_ready(tmp_path: Path) -> None:
    """The ready line comes once the socket accepts requests: a request right after it is answered."""
    import socket
    import time
    import urllib.request

    from tests.helpers import BOOKS

    kb = tmp_path / "books.tsv"
    kb.write_text(BOOKS)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [*kgcite_cmd(), "serve", "--kg", str(kb), "--port", str(port), "--no-cache"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 120
        line = ""
        while time.monotonic() < deadline and "ready on" not in line:
            line = proc.stdout.readline()
        assert f"ready on http://127.0.0.1:{port}/" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as r:
            assert json.loads(r.read())["status"] == "ok"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_errors_share_one_root_and_main_reports_them_in_one_line() -> None:
    from kgcite.errors import InputError, KgciteError, KGError, LLMError, ModelError, TrainError, UsageError

    for cls in (InputError, UsageError, ModelError, LLMError, KGError, TrainError):
        assert issubclass(cls, KgciteError)
    assert issubclass(LLMError, ModelError)
    res = kgcite("train", "evaluator", "--without", "metaqa", "--bench", "x.jsonl", "--out", "/tmp/never")
    assert res.returncode == 2 and res.stderr.startswith("kgcite: error: --without") and "Traceback" not in res.stderr


def test_verbose_logs_what_kgcite_does(tmp_path: Path) -> None:
    graph = tmp_path / "g.tsv"
    graph.write_text("Ann|born_in|Leeds\n")
    quiet = kgcite("ask", "--kg", str(graph), "Where was Ann born?")
    loud = kgcite("--verbose", "ask", "--kg", str(graph), "Where was Ann born?")
    assert quiet.returncode == loud.returncode == 0
    assert "kgcite: " not in quiet.stderr.replace("kgcite: error", "")
    assert "kgcite: kgcite." in loud.stderr


def test_every_option_has_help_that_shows_its_default() -> None:
    import argparse

    from kgcite.cli.main import build_parser

    def walk(p: argparse.ArgumentParser, path: str):  # type: ignore[no-untyped-def]
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for name, sub in a.choices.items():
                    yield from walk(sub, f"{path} {name}")
            elif not isinstance(a, (argparse._HelpAction, argparse._VersionAction)):
                yield path, a

    bad = []
    for path, a in walk(build_parser(), "kgcite"):
        name = f"{path} {'/'.join(a.option_strings) or a.dest}"
        if not a.help:
            bad.append(f"{name}: no help")
        elif a.default not in (None, False) and "default" not in a.help:
            bad.append(f"{name}: default {a.default!r} not shown")
    assert not bad, bad


@pytest.mark.parametrize(
    "args",
    [
        ("retrieve", "tog-e", "Who directed Jaws?", "--width", "0"),
        ("retrieve", "tog-e", "Who directed Jaws?", "--depth", "0"),
        ("evaluate-evaluator", "--bench", "x.jsonl", "--batch-size", "0"),
        ("run", "--dataset", "biokalma:simple", "--out", "x.jsonl", "--batch-size", "-1"),
        ("ask", "Who?", "--concurrency", "0"),
    ],
)
def test_counts_below_one_are_refused_in_one_line(args: tuple[str, ...]) -> None:
    """A zero batch, beam or concurrency looped, hung or raised a traceback; now argparse says why."""
    res = kgcite(*args)
    assert res.returncode == 2 and "must be 1 or more" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("spec", ["metaqa:4-hop", "metaqa:2hop", "biokalma:foo", "nosuch"])
def test_an_unknown_dataset_is_one_line_naming_the_choices(spec: str, tmp_path: Path) -> None:
    res = kgcite("run", "--dataset", spec, "--out", str(tmp_path / "out.jsonl"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert f"unknown dataset '{spec}'" in res.stderr and "metaqa:1-hop" in res.stderr


def test_an_unquoted_question_gets_a_hint_to_quote_it() -> None:
    res = kgcite("ask", "Where", "was", "Stephen", "Crane", "born?")
    assert res.returncode == 2 and "unrecognized arguments: was Stephen Crane born?" in res.stderr
    assert "goes in quotes" in res.stderr
    assert "goes in quotes" not in kgcite("ask", "Who?", "--bogus", "1").stderr  # an unknown option is no question


def test_a_failed_first_load_leaves_no_store_and_csv_graphs_load(tmp_path: Path) -> None:
    bad = tmp_path / "two.tsv"
    bad.write_text("Alpha\tknows\n")
    store = tmp_path / "store"
    res = kgcite("kg", "load", str(bad), "--store", str(store))
    assert res.returncode == 2 and f"{bad}:1: expected head<TAB>relation<TAB>tail, got 2 fields" in res.stderr
    assert "no store was made" in res.stderr and not store.exists()
    good = tmp_path / "people.csv"
    good.write_text('head,relation,tail\n"Smith, John",works at,Acme\n')
    assert kgcite("kg", "load", str(good), "--store", str(store)).returncode == 0
    shown = kgcite("kg", "show", "Smith, John", "--store", str(store), "--json")
    assert json.loads(shown.stdout)[0]["outgoing"] == [["works at", "Acme", "Acme"]]


def test_kg_load_notes_likely_namesakes_in_a_tsv(tmp_path: Path) -> None:
    kb = tmp_path / "people.tsv"
    lines = [f"Person {i}\tborn in\tTown {i}" for i in range(19)]
    kb.write_text("\n".join([*lines, "Anne Hathaway\tborn in\tStratford", "Anne Hathaway\tborn in\tBrooklyn"]) + "\n")
    res = kgcite("kg", "load", str(kb), "--store", str(tmp_path / "store"))
    assert res.returncode == 0, res.stderr
    assert (
        "1 entity holds 2 or more values of born in (Anne Hathaway (2)), which 95% of its entities hold once"
        in res.stderr
    )
    assert "namesakes are one entity" in res.stderr


def test_precision_without_minimum_sets_is_not_a_zero(tmp_path: Path, answers: Path) -> None:
    lines = [json.loads(x) for x in answers.read_text().splitlines() if x.strip()]
    bare = tmp_path / "bare.jsonl"
    bare.write_text("".join(json.dumps({**o, "minimum_knowledge": []}) + "\n" for o in lines))
    res = kgcite("eval", "citations", "--answers", str(bare))
    assert res.returncode == 0, res.stderr
    assert "precision      n/a    n/a" in res.stdout and "n/a (no minimum knowledge sets" in res.stdout
    got = json.loads(kgcite("eval", "citations", "--answers", str(bare), "--json").stdout)
    assert got["precision_micro"] is None and got["precision_macro"] is None and got["n_minimum"] == 0
    assert got["correctness"] is not None


def test_build_caqa_says_what_it_could_not_make(tmp_path: Path) -> None:
    kb = tmp_path / "tiny.txt"
    kb.write_text("A|r|B\nB|s|C\nC|r|D\nD|s|E\n")
    res = kgcite("build", "caqa", "--kg", str(kb), "--generate", "60", "--out", str(tmp_path / "caqa"))
    assert res.returncode == 0, res.stderr
    assert "--generate 60 asked for more questions than the graph gave" in res.stderr
    assert "are empty" in res.stderr or "is empty" in res.stderr


def test_a_plain_ask_loads_no_spacy_and_no_nli_model(tmp_path: Path) -> None:
    """The cold start a user meets first (docs/speed.md): linking, verbalising and judging this
    answer need neither spaCy (over a second to import) nor the NLI model, nor the graph search."""
    res = kgcite(
        "--verbose",
        "ask",
        "Who was Stephen Crane's father?",
        env={"PYTHONPROFILEIMPORTTIME": "1", "KGCITE_CACHE_DIR": str(tmp_path)},
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Jonathan Townley Crane [1]" in res.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in res.stderr.splitlines() if line.startswith("import time:")}
    assert "kgcite.generate.verbalize" in imported  # the profile is there
    assert not {"spacy", "torch", "httpx"} & imported, sorted({"spacy", "torch", "httpx"} & imported)
    assert "NLI" not in res.stderr.replace("import time:", "")
    # one hop its topic holds: no graph search, so neither MiniLM nor the grounding model loads
    assert "no graph search" in res.stderr and "loaded MiniLM" not in res.stderr
    assert "onnxruntime" not in imported


def test_kg_load_tags_new_relation_labels_so_ask_needs_no_spacy(tmp_path: Path) -> None:
    graph = tmp_path / "rail.tsv"
    graph.write_text("Tarn Junction\tdesigned_by\tIvo Marsh\nTarn Junction\tentered service\t1888\n")
    env = {"KGCITE_CACHE_DIR": str(tmp_path / "cache")}
    load = kgcite("kg", "load", str(graph), "--store", str(tmp_path / "store"), env=env)
    assert load.returncode == 0, load.stderr
    tags = json.loads((tmp_path / "cache" / "label_tags.json").read_text())
    assert tags["entered service"][0] == ["entered", "VBD", "VERB"]
    res = kgcite(
        "ask", "--store", str(tmp_path / "store"), "When did Tarn Junction enter service?",
        env={**env, "PYTHONPROFILEIMPORTTIME": "1"},
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.startswith("Tarn Junction entered service in 1888 [1].")
    assert not any(line.rstrip().endswith("| spacy") for line in res.stderr.splitlines())


def test_ask_says_which_graph_it_answers_over_when_none_is_given(tmp_path: Path) -> None:
    graph = tmp_path / "g.tsv"
    graph.write_text("Aster-2\tmissionLead\tDario Finch\n", encoding="utf-8")
    bare = kgcite("ask", "--no-cache", "Who leads the Aster-2 mission?")
    mine = kgcite("ask", "--no-cache", "--kg", str(graph), "Who leads the Aster-2 mission?")
    assert bare.returncode == mine.returncode == 0, bare.stderr + mine.stderr
    assert "answering over the shipped BioKaLMA graph" in bare.stderr
    assert "BioKaLMA" not in mine.stderr and "Dario Finch" in mine.stdout


def test_ask_over_a_graph_file_with_no_facts_is_an_error(tmp_path: Path) -> None:
    """Not a "no entity found" answer to every question: the file is named, with why."""
    empty = tmp_path / "empty.tsv"
    empty.write_text("# a comment\n\nsubject\trelation\tobject\n")
    res = kgcite("ask", "Who is Alpha?", "--kg", str(empty))
    assert res.returncode == 2 and f"{empty}: holds no facts" in res.stderr and not res.stdout.strip()


def test_kg_load_help_names_every_format() -> None:
    shown = kgcite("kg", "load", "--help").stdout
    assert all(ext in shown for ext in (".json", ".tsv", ".csv", ".nt", ".ttl")) and "header line" in shown


def test_the_answer_of_a_walked_question_is_what_the_last_fact_says_of_the_thing_reached(tmp_path: Path) -> None:
    """ "Who trained the owner of X?" walks to the owner; the answer is who mentored her, the
    subject of "Y is a mentor of the owner", not the owner it names (what ``run`` scores)."""
    graph = tmp_path / "forges.tsv"
    graph.write_text(
        "Saltwick Smithy\towned by\tDelia Marsh\nBram Kettering\tmentor of\tDelia Marsh\n"
        "Nell Ashby\tapprenticed_to\tDelia Marsh\nNell Ashby\tworksAt\tSaltwick Smithy\n"
        "Oskar Lind\ttrainedUnder\tBram Kettering\nDelia Marsh\tborn_in\tEddermoor\n"
    )
    res = kgcite("ask", "--kg", str(graph), "--json", "Who trained the owner of Saltwick Smithy?")
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout)
    assert "Bram Kettering" in out["answer"]
    assert out["predicted"] == ["Bram Kettering"]
