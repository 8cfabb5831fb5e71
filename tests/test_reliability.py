"""Faults a user meets: output files that are not kgcite's, torn lines, two runs on one file."""

from __future__ import annotations

import json
import random
import string
import subprocess
import time
from pathlib import Path

import pytest

from kgcite.jsonl import appending
from tests.helpers import kgcite, kgcite_cmd, resize_disk

RUN = ("run", "--dataset", "biokalma:specific", "--no-cache")


def answers(path: Path, n: int) -> None:
    res = kgcite(*RUN, "--limit", str(n), "--out", str(path))
    assert res.returncode == 0, res.stderr


def test_resume_never_removes_a_line_it_did_not_tear(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    answers(out, 3)
    lines = out.read_text().splitlines(keepends=True)
    lines[1] = "this line was edited by hand\n"  # a corrupt line in the middle
    out.write_text("".join(lines))
    before = out.read_bytes()
    res = kgcite(*RUN, "--limit", "1", "--out", str(out))
    assert res.returncode == 2 and f"{out}:2:" in res.stderr and "Traceback" not in res.stderr
    assert out.read_bytes() == before  # nothing cut, nothing added


def test_a_file_that_is_not_kgcite_output_is_refused_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "metrics.json"
    out.write_text(json.dumps({"correctness": 1.0}, indent=1) + "\n")
    before = out.read_bytes()
    res = kgcite(*RUN, "--limit", "1", "--out", str(out))
    assert res.returncode == 2 and f"{out}:1:" in res.stderr and "not a line kgcite wrote" in res.stderr
    assert out.read_bytes() == before
    forced = kgcite(*RUN, "--limit", "1", "--out", str(out), "--force")
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "metrics.json.bak").read_bytes() == before and len(out.read_text().splitlines()) == 1
    # a second --force keeps the first backup: the answers it moves aside go to .bak.1
    answered = out.read_bytes()
    again = kgcite(*RUN, "--limit", "1", "--out", str(out), "--force")
    assert again.returncode == 0 and "moved to" in again.stderr and "metrics.json.bak.1" in again.stderr
    assert (tmp_path / "metrics.json.bak").read_bytes() == before
    assert (tmp_path / "metrics.json.bak.1").read_bytes() == answered


def test_an_input_dataset_is_never_taken_for_an_output(tmp_path: Path) -> None:
    """Any JSONL whose lines had an ``id`` was appended to, the input dataset included."""
    data = tmp_path / "questions.jsonl"
    data.write_text(json.dumps({"id": "q1", "question": "Who was Stephen Crane's father?"}) + "\n")
    before = data.read_bytes()
    same = kgcite("run", "--dataset", str(data), "--out", str(data), "--no-cache")
    assert same.returncode == 2 and "is the --dataset file" in same.stderr
    other = tmp_path / "copy.jsonl"
    other.write_bytes(before)
    res = kgcite("run", "--dataset", str(data), "--out", str(other), "--no-cache")
    assert res.returncode == 2 and f"{other}:1: status: no 'status' field" in res.stderr
    assert data.read_bytes() == before and other.read_bytes() == before


def test_the_count_before_the_lock_never_cuts_a_live_run(tmp_path: Path) -> None:
    """A second ``run`` cut a line of the first before it found the file locked."""
    out = tmp_path / "a.jsonl"
    answers(out, 1)
    whole = out.read_bytes()
    with appending(out, "status") as (_, fh):  # a live run, in the middle of writing its line
        fh.write(whole.decode().splitlines()[0][:40])
        fh.flush()
        res = kgcite(*RUN, "--limit", "2", "--out", str(out))
        assert res.returncode == 2 and "another kgcite process is writing this file" in res.stderr
        assert out.read_bytes() == whole + whole[:40]  # the live writer's bytes are all there


def test_a_run_whose_every_item_failed_exits_nonzero(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    res = kgcite(
        *RUN, "--limit", "2", "--out", str(out), "--mode", "free", "--base-url", "http://127.0.0.1:9/v1", "--model", "x",
        "--timeout", "2",
    )  # fmt: skip
    assert res.returncode == 1 and "every item of this run failed" in res.stderr, res.stderr
    assert [json.loads(x)["status"] for x in out.read_text().splitlines()] == ["failed", "failed"]


def test_only_a_torn_last_line_is_cut_and_it_is_said(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    answers(out, 2)
    whole = out.read_text()
    out.write_text(whole + whole.splitlines()[0][:40])  # killed in the middle of a write
    res = kgcite(*RUN, "--limit", "2", "--out", str(out))
    assert res.returncode == 0 and "cut a torn last line" in res.stderr
    assert out.read_text() == whole  # both answers were kept and not redone


def test_a_second_process_on_the_same_output_fails_at_once(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    with appending(out, "status"):  # this test process holds the file as a running kgcite would
        res = kgcite(*RUN, "--limit", "1", "--out", str(out))
    assert res.returncode == 2 and "another kgcite process is writing this file" in res.stderr
    assert out.read_text() == ""
    again = kgcite(*RUN, "--limit", "1", "--out", str(out))  # the lock went with its holder
    assert again.returncode == 0 and len(out.read_text().splitlines()) == 1


def test_force_never_moves_a_live_runs_output(tmp_path: Path) -> None:
    """`run --force` moved the file a running kgcite was writing, and the work was done twice."""
    out = tmp_path / "a.jsonl"
    answers(out, 1)
    before = out.read_bytes()
    with appending(out, "status"):  # a live run holds it
        res = kgcite(*RUN, "--limit", "1", "--out", str(out), "--force")
    assert res.returncode == 2 and "--force does not move a live run's output" in res.stderr, res.stderr
    assert out.read_bytes() == before and not list(tmp_path.glob("*.bak"))


def test_invalid_utf8_is_a_located_error_in_every_reader(tmp_path: Path) -> None:
    tsv = tmp_path / "g.txt"
    tsv.write_bytes(b"Crane|born in|Newark\nBad|x|\xff\xfe\n")
    biokalma = tmp_path / "g.json"
    biokalma.write_bytes(b'[["q",\n [{"qid": "Q1", "name": "\xff"}]]]')
    good = json.dumps({"id": "1", "question": "q", "answer": "a", "kg": [], "minimum_knowledge": []})
    answers_file = tmp_path / "a.jsonl"
    answers_file.write_bytes(
        good.encode() + b"\n" + good.replace('"a"', '"\xff"').replace('"1"', '"2"').encode("latin-1") + b"\n"
    )
    bench = tmp_path / "b.jsonl"
    bench.write_bytes(b'{"question": "q\xff", "answer_statement": "a", "citation": "c", "category": "supportive"}\n')
    cases = [
        (("kg", "load", str(tsv), "--store", str(tmp_path / "s1")), f"{tsv}:2: invalid UTF-8"),
        (("kg", "load", str(biokalma), "--store", str(tmp_path / "s2")), f"{biokalma}:2: invalid UTF-8"),
        (("eval", "citations", "--answers", str(answers_file)), f"{answers_file}:2: invalid UTF-8"),
        (
            ("eval", "all", "--answers", str(answers_file), "--out", str(tmp_path / "e")),
            f"{answers_file}:2: invalid UTF-8",
        ),
        (
            ("run", "--dataset", str(answers_file), "--out", str(tmp_path / "r.jsonl")),
            f"{answers_file}:2: invalid UTF-8",
        ),
        (("evaluate-evaluator", "--bench", str(bench), "--evaluator", "nli"), f"{bench}:1: invalid UTF-8"),
        (("eval", "citations", "--answers", str(tmp_path)), "is a folder, not a file"),
        (("kg", "load", str(tmp_path / "missing.txt"), "--store", str(tmp_path / "s3")), "cannot read: No such file"),
    ]
    for args, message in cases:
        res = kgcite(*args)
        assert res.returncode == 2 and message in res.stderr and "Traceback" not in res.stderr, (args, res.stderr)
    skipped = kgcite("eval", "citations", "--answers", str(answers_file), "--skip-bad", "--json")
    assert skipped.returncode == 0 and json.loads(skipped.stdout)["n_skipped"] == 1


def test_stores_that_cannot_be_opened_are_clear_errors(tmp_path: Path) -> None:
    from kgcite.kg import EmbeddedStore

    graph = tmp_path / "g.txt"
    graph.write_text("Marla Quenby|founded|Quenby Bakery\n")
    other = tmp_path / "papers"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    big = tmp_path / "big.nt"
    big.write_text('<http://a> <http://b> "' + "x" * (17 * 1024 * 1024) + '" .\n')
    held = EmbeddedStore(tmp_path / "held")  # this test process has the store open, as a running load would
    held.load(graph)
    cases = [
        (("kg", "load", str(graph), "--store", str(tmp_path / "held")), "the store is in use by another process"),
        (("kg", "load", str(graph), "--store", str(other)), "is a folder but not a kgcite store"),
        (("kg", "show", "Marla Quenby", "--store", str(other)), "not a kgcite store"),
        (("kg", "load", str(big), "--store", str(tmp_path / "s")), "a term too large to parse"),
        (("kg", "load", str(tmp_path), "--store", str(tmp_path / "s2")), "unknown graph format"),
        (("ask", "Who was \udced\udca0\udc80 Crane?"), "not valid text"),
    ]
    for args, message in cases:
        res = kgcite(*args)
        assert res.returncode == 2 and message in res.stderr and "Traceback" not in res.stderr, (args, res.stderr)
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt"]  # nothing written into a folder of other files
    shown = kgcite("kg", "show", "x://a b")
    assert shown.returncode == 1 and "no entity" in shown.stderr and "Traceback" not in shown.stderr


def test_a_30_kb_question_is_answered_in_linear_time(biokalma_store) -> None:  # type: ignore[no-untyped-def]
    import random
    import time

    from kgcite.generate.pipeline import GroundedGenerator
    from kgcite.models.ner import SpacyNER
    from kgcite.retrieve.linking import EntityLinker
    from kgcite.retrieve.retriever import KGRetriever

    generator = GroundedGenerator(KGRetriever(biokalma_store, EntityLinker(biokalma_store, SpacyNER().load())), None)
    generator.answer("Who was Stephen Crane's father?")  # load the models
    rng = random.Random(0)
    words = " ".join(
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(6000)
    )
    for text in (words[:30_000], ("Who was Stephen Crane's father and where was he born " * 600)[:30_000]):
        t0 = time.perf_counter()
        answer = generator.answer(text)
        assert time.perf_counter() - t0 < 10 and answer.sentences


def test_files_left_by_a_killed_load_are_removed_on_the_next_load(tmp_path: Path) -> None:
    graph = tmp_path / "g.txt"
    graph.write_text("Marla Quenby|founded|Quenby Bakery\n")
    store = tmp_path / "store"
    assert kgcite("kg", "load", str(graph), "--store", str(store)).returncode == 0
    (store / "bulk-1234567890.sst").write_bytes(b"\0" * 1_000_000)  # what a load killed mid-insert leaves
    res = kgcite("kg", "load", str(graph), "--store", str(store))
    assert res.returncode == 0 and "removed 1 files (1.0 MB) left by an interrupted load" in res.stderr
    assert not list(store.glob("bulk-*.sst"))
    shown = kgcite("kg", "show", "Marla Quenby", "--store", str(store))
    assert shown.returncode == 0 and "Quenby Bakery" in shown.stdout  # the store itself is untouched


def test_a_hub_is_answered_in_bounded_time_saying_what_it_left_out(hub_store: Path) -> None:
    """3,000 values of one relation: verification was quadratic (3,000 did not finish in 200 s)."""
    t0 = time.monotonic()
    res = kgcite("ask", "Who are the employees of Acme Corp?", "--store", str(hub_store), "--json", timeout=120)
    took = time.monotonic() - t0
    assert res.returncode == 0, res.stderr
    a = json.loads(res.stdout)
    assert len(a["predicted"]) == 100 and all(p.startswith("Worker Number ") for p in a["predicted"])
    assert "statements: Acme Corp has 3,000 values of employee; 100 are stated" in a["repairs"]
    assert a["timings"]["verify"] < 5 and took < 60, (a["timings"], took)
    text = kgcite("ask", "Who are the employees of Acme Corp?", "--store", str(hub_store)).stdout
    assert "note: statements: Acme Corp has 3,000 values of employee; 100 are stated" in text
    # a count never rests on the part of a hub that was read ("So that makes 200 employees")
    count = json.loads(
        kgcite("ask", "How many employees does Acme Corp have?", "--store", str(hub_store), "--json").stdout
    )
    assert "that makes" not in count["answer"] and 200 not in count["predicted"] and "200" not in count["predicted"]
    assert "statements: Acme Corp has 3,000 values of employee; 100 are stated" in count["repairs"]
    # the hub's employees do not crowd the founder out of the facts retrieved around it
    two = kgcite("ask", "Who founded Acme Corp and where was she born?", "--store", str(hub_store)).stdout
    assert two.startswith("Acme Corp was founded by Jane Roe [1]. Jane Roe was born in Brackenford [2]."), two
    # a chain past the hub is still followed, its hub edges cut before they are read
    chain = kgcite("ask", "Where was the founder of Acme Corp born?", "--store", str(hub_store)).stdout
    assert chain.startswith("Acme Corp was founded by Jane Roe [1]. Jane Roe was born in Brackenford [2].")


def test_a_full_disk_is_one_line_and_a_rerun_resumes_with_nothing_lost_or_doubled(small_disk: Path) -> None:
    out = small_disk / "a.jsonl"
    full = kgcite(*RUN, "--limit", "6", "--batch-size", "1", "--out", str(out))  # a line is 0.5-1.8 KB
    assert full.returncode == 1, full.stderr
    assert "kgcite: error: the disk is full" in full.stderr and "Traceback" not in full.stderr
    kept = [json.loads(x)["id"] for x in out.read_text().splitlines() if x.endswith("}")]
    assert 1 <= len(kept) < 6
    resize_disk(small_disk, "1m")
    again = kgcite(*RUN, "--limit", "6", "--batch-size", "1", "--out", str(out))
    assert again.returncode == 0, again.stderr
    ids = [json.loads(x)["id"] for x in out.read_text().splitlines()]
    assert ids[: len(kept)] == kept and len(ids) == len(set(ids)) == 6


def test_a_full_disk_in_the_other_writers_is_one_line(small_disk: Path, tmp_path: Path) -> None:
    """`eval all` and `build caqa` write their outputs through the same handler as `run`."""
    (small_disk / "filler").write_bytes(b"x" * 4096)
    sample = tmp_path / "s.jsonl"
    answers(sample, 2)
    graph = tmp_path / "g.tsv"
    graph.write_text("".join(f"Person {i}\tborn in\tTown {i % 5}\n" for i in range(60)))
    for args in (
        ("eval", "all", "--answers", str(sample), "--out", str(small_disk / "eval"), "--no-nli"),
        ("build", "caqa", "--kg", str(graph), "--generate", "20", "--out", str(small_disk / "caqa")),
    ):
        res = kgcite(*args)
        assert res.returncode == 1 and "the disk is full" in res.stderr and "Traceback" not in res.stderr, (
            args,
            res.stderr[-500:],
        )


def test_a_full_disk_during_kg_load_is_one_line_and_a_rerun_completes(small_disk: Path, tmp_path: Path) -> None:
    graph = tmp_path / "g.tsv"
    graph.write_text("".join(f"Person {i}\tborn in\tTown {i % 50}\n" for i in range(3000)))
    resize_disk(small_disk, "256k")
    store = small_disk / "store"
    full = kgcite("kg", "load", str(graph), "--store", str(store))
    assert full.returncode == 1 and "the disk is full" in full.stderr and "Traceback" not in full.stderr
    resize_disk(small_disk, "64m")
    again = kgcite("kg", "load", str(graph), "--store", str(store))
    assert again.returncode == 0, again.stderr
    shown = kgcite("kg", "show", "Person 2999", "--store", str(store))
    assert "Town 49" in shown.stdout


def test_a_full_cache_folder_does_not_stop_an_answer(small_disk: Path) -> None:
    """The response cache is optional: ``ask`` failed when its folder was full."""
    (small_disk / "filler").write_bytes(b"x" * 4096)
    res = kgcite("ask", "Who was Stephen Crane's father?", env={"KGCITE_CACHE_DIR": str(small_disk / "cache")})
    assert res.returncode == 0 and "Jonathan Townley Crane" in res.stdout, res.stderr


def test_a_pasted_page_of_capitalised_words_is_linked_in_bounded_time() -> None:
    """30 KB of capitalised words ran past 300 s: every sub-span of the run was looked up."""
    rng = random.Random(1)
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(4, 9))).title() for _ in range(4000)]
    question = "Who was " + " ".join(words)[:30_000] + "?"
    t0 = time.monotonic()
    res = kgcite("ask", question, timeout=120)
    assert res.returncode == 0 and time.monotonic() - t0 < 60, res.stderr


def test_control_characters_from_a_graph_never_reach_the_terminal(tmp_path: Path) -> None:
    graph = tmp_path / "g.tsv"
    graph.write_text("Evil\x1b[2JCorp\tfounded by\tJane\x9b31mRoe\n", encoding="utf-8")
    store = str(tmp_path / "store")
    assert kgcite("kg", "load", str(graph), "--store", store).returncode == 0
    shown = kgcite("kg", "show", "Evil\x1b[2JCorp", "--store", store)
    assert shown.returncode == 0, shown.stderr
    for out in (shown.stdout, kgcite("ask", "Who founded Evil\x1b[2JCorp?", "--store", store).stdout):
        assert "\x1b" not in out and "\x9b" not in out
        assert "Evil\\u001b[2JCorp" in out  # shown, escaped
    as_json = kgcite("kg", "show", "Evil\x1b[2JCorp", "--store", store, "--json").stdout
    assert json.loads(as_json)[0]["label"] == "Evil\x1b[2JCorp"  # the data itself is unchanged


def test_a_carriage_return_or_bidi_override_in_a_label_is_shown_escaped(tmp_path: Path) -> None:
    """A label's carriage return drew the rest of the line over its start, and U+202E turned
    what followed it around (`kg show`)."""
    graph = tmp_path / "g.nt"  # N-Triples writes a carriage return in a label as \\r
    graph.write_text(
        '<http://example.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "Harmless\\rEVIL" .\n'
        '<http://example.org/b> <http://www.w3.org/2000/01/rdf-schema#label> "gpj\\u202Eexe" .\n',
        encoding="utf-8",
    )
    store = str(tmp_path / "store")
    loaded = kgcite("kg", "load", str(graph), "--store", store)
    assert loaded.returncode == 0, loaded.stderr
    for label, escaped in (("Harmless\rEVIL", "Harmless\\u000dEVIL"), ("gpj\u202eexe", "gpj\\u202eexe")):
        shown = kgcite("kg", "show", label, "--store", store)
        assert shown.returncode == 0, shown.stderr
        assert "\r" not in shown.stdout and "\u202e" not in shown.stdout and escaped in shown.stdout


def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path: Path) -> None:
    graph = tmp_path / "g.tsv"
    graph.write_bytes("Alpha\tfounded by\tBeta\n".encode("utf-8-sig"))
    store = str(tmp_path / "store")
    assert kgcite("kg", "load", str(graph), "--store", store).returncode == 0
    shown = kgcite("kg", "show", "Alpha", "--store", store, "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)[0]["id"] == "Alpha", shown.stderr


def test_a_docs_folder_never_quotes_a_file_linked_from_outside_it(tmp_path: Path) -> None:
    outside = tmp_path / "private.txt"
    outside.write_text("Stephen Crane died in Secretville, the admin password is hunter2, as records show.\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "crane.txt").write_text("Stephen Crane died in Badenweiler, Germany, of tuberculosis in June 1900.\n")
    (docs / "link.txt").symlink_to(outside)
    (docs / "hard.txt").hardlink_to(outside)  # a hard link has no path outside to see: it was read
    res = kgcite("ask", "Where did Stephen Crane die?", "--source", "docs", "--docs", str(docs), "--no-cache")
    assert res.returncode == 0, res.stderr
    assert "Badenweiler" in res.stdout and "hunter2" not in res.stdout and "link.txt" not in res.stdout
    assert "hard.txt" not in res.stdout


def test_out_naming_a_file_where_a_folder_is_written_is_one_line(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    sample = tmp_path / "s.jsonl"
    answers(sample, 1)
    for out in (afile, afile / "sub"):
        res = kgcite("eval", "all", "--answers", str(sample), "--out", str(out), "--no-nli")
        assert res.returncode == 2 and "Traceback" not in res.stderr
        assert f"{afile}: is a file where a folder is expected" in res.stderr
    assert afile.read_text() == "mine\n"


def test_output_cut_short_by_a_pipe_is_no_error(hub_store: Path) -> None:
    """`kgcite kg show HUB | head` printed a BrokenPipeError traceback."""
    show = subprocess.Popen(
        [*kgcite_cmd(), "kg", "show", "Acme Corp", "--store", str(hub_store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert show.stdout is not None and show.stderr is not None
    show.stdout.readline()
    show.stdout.close()  # as `head -1` does
    err = show.stderr.read().decode()
    assert show.wait(timeout=60) == 0 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_a_store_being_loaded_is_not_read_as_empty(tmp_path: Path) -> None:
    """`retrieve tog-e --kg STORE` during a load gave 0 triples and exit 0."""
    graph = tmp_path / "g.tsv"
    graph.write_text("".join(f"Person {i}\tborn in\tTown {i % 50}\n" for i in range(400_000)))
    store = tmp_path / "store"
    load = subprocess.Popen([*kgcite_cmd(), "kg", "load", str(graph), "--store", str(store)], stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (store / "LOCK").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        res = kgcite("retrieve", "tog-e", "--kg", str(store), "--question", "Where was Person 7 born?", "--json")
        assert load.poll() is None, "the load finished before it could be read; make the graph bigger"
        assert res.returncode == 2 and "open for writing by another process" in res.stderr, res.stderr
    finally:
        load.wait(timeout=300)
    done = kgcite("retrieve", "tog-e", "--kg", str(store), "--question", "Where was Person 7 born?", "--json")
    assert done.returncode == 0 and "Town 7" in done.stdout, done.stderr


def test_a_value_kgcite_cannot_read_is_unreadable_not_an_error(tmp_path: Path) -> None:
    """A date in another script's digits (`April 12 ፩፪፫`) or with a year of 5,000 digits reached
    ``int()``: a traceback in `ask`, and in `serve` the other questions of the batch got 500. Such
    a value is no date: the comparison ranks what it can read and says `[NA]` for the rest."""
    graph = tmp_path / "bridges.tsv"
    graph.write_text(
        f"Old Bridge\topened\tApril 12 ፩፪፫\nNew Bridge\topened\t1902\nLong Bridge\topened\tMay 3 {'1' * 5000}\n",
        encoding="utf-8",
    )
    for question in (
        "Which bridge is older, Old Bridge or New Bridge?",
        "Which bridge is older, Long Bridge or New Bridge?",
    ):
        res = kgcite("ask", "--json", "--kg", str(graph), question)
        assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-1500:]
        record = json.loads(res.stdout)
        assert "[NA]" in record["answer"] and ["New Bridge", "opened", "1902"] in record["citations"]


@pytest.mark.parametrize(
    "args",
    [
        ("ask", "x", "--timeout", "0"),
        ("ask", "x", "--timeout", "-5"),
        ("ask", "x", "--timeout", "nan"),
        ("ask", "x", "--timeout", "inf"),
        ("serve", "--port", "99999"),
        ("serve", "--port", "-1"),
        ("retrieve", "tog-e", "x", "--max-neighbours", "0"),
        ("ask", "x", "--quotes", "0"),
        ("run", "--limit", "-1"),
        ("kg", "show", "x", "--limit", "0"),
    ],
)
def test_an_impossible_number_is_a_one_line_usage_error(args: tuple[str, ...]) -> None:
    """`--timeout 0|-5|nan` raised a ValueError traceback, `--timeout inf` never timed out, `serve
    --port 99999` an OverflowError; `--quotes 0` and `--limit -1` were taken silently."""
    res = kgcite(*args)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr[-1500:]
    assert f"error: argument {args[-2]}" in res.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("name", "text", "command", "why"),
    [
        ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n", ("run", "--dataset"), "nested too deep"),
        ("nan.jsonl", '{"id": NaN, "question": "Who?"}\n', ("run", "--dataset"), "NaN is not a JSON value"),
        ("deep.json", "[" * 100_000 + "]" * 100_000, ("kg", "load"), "nested too deep"),
        ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n", ("eval", "citations", "--answers"), "nested too deep"),
    ],
    ids=["run-deep", "run-nan", "kg-load-deep", "eval-citations-deep"],
)
def test_json_nested_too_deep_or_with_nan_is_a_located_error(
    tmp_path: Path, name: str, text: str, command: tuple[str, ...], why: str
) -> None:
    """Deeply nested JSON raised RecursionError (a traceback); `"id": NaN` was taken silently."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    extra = {"run": ("--out", str(tmp_path / "out.jsonl")), "kg": ("--store", str(tmp_path / "store"))}
    res = kgcite(*command, str(path), *extra.get(command[0], ()))
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr[-1500:]
    assert f"{path}:1:" in res.stderr and why in res.stderr


@pytest.mark.parametrize(
    ("docs", "said"),
    [
        (
            "http://example.org/x",
            "http://example.org/x: --docs reads files and folders; web pages come from --search-url",
        ),
        ("/no/such/folder", "/no/such/folder: no such document file or folder"),
    ],
)
def test_a_docs_location_that_is_no_file_is_its_own_error(docs: str, said: str) -> None:
    """Both were reported as a `--topic` error, the URL as `http:/example.org/x`."""
    res = kgcite("ask", "Who founded Quenby Bakery?", "--source", "docs", "--docs", docs)
    assert res.returncode == 2 and res.stderr.strip().splitlines()[-1] == f"kgcite: error: {said}", res.stderr


@pytest.mark.parametrize("args", [("--premise", "", "--hypothesis", "x"), ("--premise", "x", "--hypothesis", "  ")])
def test_nli_refuses_an_empty_text(args: tuple[str, ...]) -> None:
    """`kgcite nli` gave entailment 0.856 for an empty premise."""
    res = kgcite("nli", *args)
    assert res.returncode == 2 and "an empty text entails and contradicts nothing" in res.stderr, res.stderr


@pytest.mark.parametrize(
    ("question", "value"), [("When was Ida Marr born?", "1999-13-45"), ("How long is the Vell Canal?", "1e308 m")]
)
def test_an_odd_value_the_graph_holds_is_stated_not_na(tmp_path: Path, question: str, value: str) -> None:
    """A date no calendar has and a number in exponent form were `[NA]`, though the graph gives them."""
    graph = tmp_path / "odd.tsv"
    graph.write_text("Ida Marr\tbirthDate\t1999-13-45\nVell Canal\tlength\t1e308 m\n", encoding="utf-8")
    res = kgcite("ask", "--json", "--kg", str(graph), question)
    assert res.returncode == 0, res.stderr[-1500:]
    record = json.loads(res.stdout)
    assert "[NA]" not in record["answer"] and any(c[2] == value for c in record["citations"]), record["answer"]


def test_a_wide_entity_is_answered_in_bounded_work_saying_what_it_left_out(tmp_path: Path) -> None:
    """An entity with 3,000 relations of one value each: every one was scored as a chain (50,000
    took 542 s); the search scores at most ``max_chains`` a depth, those the question asks first,
    and says so. 3,000 people born in one city were 200 listed sentences with no note."""
    rng = random.Random(3)
    syllables = ["ka", "lo", "mi", "ran", "tu", "pel", "so", "vi", "dor", "en"]

    def word() -> str:
        return "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))

    graph = tmp_path / "wide.tsv"
    rows = ["Wide\tfounder\tAda Stone", "Ada Stone\tborn in\tPortlow"]
    rows += [f"Wide\t{word()} {word()} {i}\t{word().title()} {i}" for i in range(3_000)]
    rows += [f"Person {i}\tborn in\tBigcity" for i in range(3_000)]
    graph.write_text("\n".join(rows) + "\n", encoding="utf-8")
    chain = kgcite("ask", "Where was the founder of Wide born?", "--kg", str(graph), timeout=120)
    assert chain.returncode == 0, chain.stderr[-1500:]
    assert chain.stdout.startswith("Wide's founder is Ada Stone [1]. Ada Stone was born in Portlow [2]."), chain.stdout
    assert "note: paths: 2,501 relation chains around Wide were not scored" in chain.stdout
    born = kgcite("ask", "Who was born in Bigcity?", "--kg", str(graph), "--json")
    assert born.returncode == 0, born.stderr[-1500:]
    record = json.loads(born.stdout)
    assert len(record["citations"]) == 100
    assert "statements: 3,000 entities are linked to Bigcity by born in; 100 are stated" in record["repairs"]
