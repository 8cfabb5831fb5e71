"""Faults a user meets: output files that are not kgcite's, torn lines, two runs on one file."""

from __future__ import annotations

import json
from pathlib import Path

from kgcite.jsonl import appending
from tests.test_cli import kgcite

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
