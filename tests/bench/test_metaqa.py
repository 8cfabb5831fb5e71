from __future__ import annotations

from pathlib import Path

import pytest

from kgcite.bench.metaqa import MetaQAGraph, read_questions
from kgcite.kg.loaders import InputError, read_tsv

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def _write(root: Path, hops: int, qa: str, qtype: str) -> None:
    (root / f"{hops}-hop").mkdir(parents=True, exist_ok=True)
    (root / f"{hops}-hop" / "qa_test.txt").write_text(qa)
    (root / f"{hops}-hop" / "qa_test_qtype.txt").write_text(qtype)


def test_questions_paths_and_reproducibility(tmp_path: Path) -> None:
    (tmp_path / "kb.txt").write_text(
        "Jaws|directed_by|Spielberg\nDuel|directed_by|Spielberg\nDuel|in_language|English\n"
    )
    _write(
        tmp_path,
        2,
        "films by the director of [Jaws]\tDuel\nlanguages of films by the director of [Jaws]\tEnglish|French\n",
        "movie_to_director_to_movie\nmovie_to_director_to_movie_to_language\n",
    )
    qs = read_questions(2, root=tmp_path)
    assert [q.topic for q in qs] == ["Jaws", "Jaws"] and qs[1].answers == ("English", "French")
    assert qs[0].path() == [("directed_by", False), ("directed_by", True)]
    g = MetaQAGraph(read_tsv(tmp_path / "kb.txt"))
    assert g.follow("Jaws", qs[0].path()) == {"Duel"}  # the topic itself is never an answer
    assert g.reproducible(qs[0]) and not g.reproducible(qs[1])


def test_bad_lines_name_file_line_and_field(tmp_path: Path) -> None:
    _write(tmp_path, 1, "ok [Jaws]\tA\nno topic here\tB\n", "movie_to_director\nmovie_to_director\n")
    with pytest.raises(InputError, match=r"qa_test.txt.*2.*question"):
        read_questions(1, root=tmp_path)
    _write(tmp_path, 1, "ok [Jaws]\tA\n", "movie_to_nowhere\n")
    with pytest.raises(InputError, match="qtype"):
        read_questions(1, root=tmp_path)


def test_shipped_split_sizes() -> None:
    assert len(read_questions(1)) == 9947 and len(read_questions(2, "dev")) == 14872
