"""Report folders: found under the root, read whole, and never a path outside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgcite.server.reports import ReportFolder, ReportNotFound

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in ("eval", "runs/removal"):
        d = tmp_path / "reports" / name
        d.mkdir(parents=True)
        (d / "report.md").write_text(f"# {name}\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n")
        (d / "plot.png").write_bytes(b"\x89PNG fake")
    (tmp_path / "reports" / "eval" / "metrics.json").write_text(json.dumps({"f1": 0.5}))
    (tmp_path / "reports" / "eval" / "notes.txt").write_text("not shown")
    (tmp_path / "secret.png").write_bytes(b"outside")
    (tmp_path / "reports" / "empty").mkdir()
    return tmp_path / "reports"


def test_lists_and_reads_reports(root: Path) -> None:
    folder = ReportFolder(root)
    assert folder.names() == ["eval", "runs/removal"]
    r = folder.read("eval")
    assert r["metrics"] == {"f1": 0.5} and r["images"] == ["plot.png"] and r["markdown"].startswith("# eval")
    assert folder.read("runs/removal")["metrics"] is None
    assert folder.image("eval", "plot.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("..", "secret.png"),
        ("eval/..", "secret.png"),
        ("eval", "../../secret.png"),
        ("eval", "notes.txt"),
        ("empty", "x.png"),
        ("/etc", "x.png"),
    ],
)
def test_nothing_outside_a_report_is_served(root: Path, name: str, file: str) -> None:
    with pytest.raises(ReportNotFound):
        ReportFolder(root).image(name, file)


def test_symlinks_out_of_the_reports_folder_are_not_followed(root: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.json").write_text(json.dumps({"password": "x"}))
    (root / "eval" / "leak.png").symlink_to(tmp_path / "secret.png")
    (root / "eval" / "metrics.json").unlink()
    (root / "eval" / "metrics.json").symlink_to(tmp_path / "secret.json")
    linked = root / "linked"
    linked.mkdir()
    (linked / "report.md").symlink_to(tmp_path / "secret.json")
    folder = ReportFolder(root)
    with pytest.raises(ReportNotFound):
        folder.image("eval", "leak.png")
    r = folder.read("eval")
    assert r["metrics"] is None and "leak.png" not in r["images"]
    with pytest.raises(ReportNotFound):
        folder.read("linked")
    assert "linked" not in folder.names() and "eval" in folder.names()  # it was listed, then refused
