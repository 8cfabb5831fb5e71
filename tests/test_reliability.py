"""Faults a user meets: output files that are not kgcite's, torn lines, two runs on one file."""

from __future__ import annotations

import json
from pathlib import Path

from kgcite.jsonl import appending
from tests.helpers import kgcite

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
    with appending(out):  # this test process holds the file as a running kgcite would
        res = kgcite(*RUN, "--limit", "1", "--out", str(out))
    assert res.returncode == 2 and "another kgcite process is writing this file" in res.stderr
    assert out.read_text() == ""
    again = kgcite(*RUN, "--limit", "1", "--out", str(out))  # the lock went with its holder
    assert again.returncode == 0 and len(out.read_text().splitlines()) == 1


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
