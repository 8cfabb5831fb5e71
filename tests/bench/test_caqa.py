"""CAQA-style generation: property tests on samples built from the shipped MetaQA graph, the
generic JSONL input, determinism, and the command line's acceptance run."""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from kgcite.bench.caqa import CATEGORIES, COMPLEXITIES, CaqaBuilder, CaqaSample, jsonl_samples, metaqa_samples
from kgcite.bench.caqa_query import Query, TripleIndex, answers
from kgcite.bench.metaqa import read_questions
from kgcite.kg import InputError
from kgcite.kg.loaders import read_tsv, shipped_data
from kgcite.kg.model import Triple
from kgcite.train.nli_data import metaqa_template
from tests.helpers import kgcite


@pytest.fixture(scope="module")
def index() -> TripleIndex:
    return TripleIndex(read_tsv(shipped_data("metaqa", "kb.txt")))


@pytest.fixture(scope="module")
def built(index: TripleIndex) -> list[CaqaSample]:
    questions = [q for hops in (1, 2, 3) for q in read_questions(hops)[:400]]
    return [s for s in CaqaBuilder(index, metaqa_template, seed=3).build_all(metaqa_samples(questions))]


def test_every_category_and_complexity(built: list[CaqaSample]) -> None:
    assert set(Counter(s.category for s in built)) == set(CATEGORIES)
    assert set(Counter(s.complexity for s in built)) == set(COMPLEXITIES)


def test_properties_of_every_sample(built: list[CaqaSample], index: TripleIndex) -> None:
    by_source: dict[str, dict[str, CaqaSample]] = defaultdict(dict)
    for s in built:
        by_source[s.source][s.category] = s
    checked = Counter[str]()
    for group in by_source.values():
        sup = group["supportive"]
        gold = answers(index, sup.query)
        shown = set(sup.answers)
        got = answers(set(sup.facts), sup.query)
        assert got and got <= gold and got == shown, sup.id  # supportive: answers the extended query with gold answers
        assert sup.n_supported_subfacts == sup.n_subfacts == len(sup.facts)
        assert all(index.has(f) for f in sup.facts)
        if (con := group.get("contradictory")) is not None:
            assert answers(set(con.facts), con.query) - gold, con.id  # answers it with a non-answer entity
            assert len(con.facts) == len(sup.facts) and con.n_supported_subfacts < con.n_subfacts
        if (par := group.get("partially_supportive")) is not None:
            assert set(par.facts) < set(sup.facts), par.id  # a strict part of the supportive subgraph
            assert not shown <= answers(set(par.facts), par.query), par.id  # it lacks a triple the query needs
            assert par.n_supported_subfacts == len(par.facts) < par.n_subfacts
            assert par.complexity != "single"
        if (irr := group.get("irrelevant")) is not None:
            assert not set(irr.facts) & set(sup.facts), irr.id  # shares no triple with the supportive one
            assert not answers(set(irr.facts), irr.query) & gold
            assert irr.n_supported_subfacts == 0
        checked.update(list(group))
    assert all(checked[c] >= 100 for c in CATEGORIES), checked


def test_citations_state_the_subgraph(built: list[CaqaSample], index: TripleIndex) -> None:
    for s in built[:500]:
        assert len(s.citations) == len(s.facts)
        for text, (subj, _, obj) in zip(s.citations, s.facts, strict=True):
            assert index.label(subj) in text and index.label(obj) in text
        assert s.citation.startswith("[1] ")
        assert all(a in s.answer_statement for a in s.answers)


def test_deterministic_for_a_seed(index: TripleIndex) -> None:
    qs = read_questions(2)[:150]

    def run(seed: int) -> list[dict[str, object]]:
        return [s.to_dict() for s in CaqaBuilder(index, metaqa_template, seed=seed).build_all(metaqa_samples(qs))]

    assert run(5) == run(5)
    assert run(5) != run(6)


KB = [
    ("Alice", "born_in", "Paris"),
    ("Bob", "born_in", "Paris"),
    ("Carol", "born_in", "Rome"),
    ("Alice", "works_for", "Acme"),
    ("Bob", "works_for", "Initech"),
    ("Carol", "works_for", "Acme"),
    ("Acme", "based_in", "Paris"),
    ("Initech", "based_in", "Rome"),
    ("Alice", "likes", "Jazz"),
]


def test_jsonl_input_with_a_tree_query(tmp_path: Path) -> None:
    index = TripleIndex(Triple(s, s, r, o, o) for s, r, o in KB)
    qa = tmp_path / "qa.jsonl"
    rows = [
        {
            "question": "Who was born in Paris and works for Acme?",
            "answers": ["alice"],
            "query": [["?a", "born_in", "Paris"], ["?a", "works_for", "Acme"]],
        },
        {
            "question": "Where is Alice's employer based?",
            "answers": ["Paris"],
            "query": [["Alice", "works_for", "?x"], ["?x", "based_in", "?a"]],
        },
    ]
    qa.write_text("".join(json.dumps(r) + "\n" for r in rows))
    samples = list(jsonl_samples(qa, index))
    assert samples[0].answers == ("Alice",) and samples[0].query.structure() == "tree"
    assert samples[1].query.structure() == "path"
    assert answers(index, samples[0].query) == {"Alice"}
    built = CaqaBuilder(index, lambda t: f"{t.subject_label} {t.relation} {t.object_value}.").build(samples[0])
    assert built and all(s.complexity == "intersection" for s in built)


def test_jsonl_relations_in_any_spelling_use_the_graphs(tmp_path: Path) -> None:
    index = TripleIndex(Triple(s, s, r, o, o) for s, r, o in KB)
    qa = tmp_path / "qa.jsonl"
    qa.write_text(
        json.dumps({"question": "Where was Alice born?", "answers": ["Paris"], "query": [["Alice", "Born In", "?a"]]})
        + "\n"
    )
    (sample,) = jsonl_samples(qa, index)
    assert sample.query.patterns == (("Alice", "born_in", "?a"),)
    assert answers(index, sample.query) == {"Paris"}


def test_the_label_triple_is_no_fact_to_build_on() -> None:
    index = TripleIndex([Triple("Q1", "Ann", "name", "Ann"), Triple("Q1", "Ann", "born_in", "Paris", "Q2")])
    assert set(index.by_relation) == {"born_in"}
    assert index.labels == {"Q1": "Ann", "Q2": "Paris"}


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("not json", ":1: not JSON"),
        ('{"question": "q", "answers": ["Alice"]}', ":1: query:"),
        (
            '{"question": "q", "answers": ["Alice"], "query": [["Nobody", "born_in", "?a"]]}',
            ":1: query[0][0]: 'Nobody'",
        ),
        ('{"question": "q", "answers": ["Alice"], "query": [["Alice", "born_in", "?x"]]}', ":1: query: no pattern"),
        (
            '{"question": "q", "answers": ["Paris"], "query": [["Alice", "lives_in", "?a"]]}',
            ":1: query[0][1]: 'lives_in' is not a relation",
        ),
    ],
)
def test_bad_jsonl_names_line_and_field(tmp_path: Path, line: str, where: str) -> None:
    index = TripleIndex(Triple(s, s, r, o, o) for s, r, o in KB)
    qa = tmp_path / "qa.jsonl"
    qa.write_text(line + "\n")
    with pytest.raises(InputError) as err:
        list(jsonl_samples(qa, index))
    assert where in str(err.value)


def test_build_caqa_cli_acceptance(tmp_path: Path) -> None:
    """From MetaQA: ≥ 20,000 samples, every category and complexity, under 2 minutes (template verbaliser)."""
    d = shipped_data("metaqa")
    t0 = time.perf_counter()
    res = kgcite(
        "build",
        "caqa",
        "--kg",
        str(d / "kb.txt"),
        "--qa",
        str(d / "1-hop/qa_test.txt"),
        "--qa",
        str(d / "2-hop/qa_test.txt"),
        "--qa",
        str(d / "3-hop/qa_test.txt"),
        "--out",
        str(tmp_path / "caqa"),
    )
    seconds = time.perf_counter() - t0
    assert res.returncode == 0, res.stderr
    rows = [
        json.loads(line) for split in ("train", "dev", "test") for line in (tmp_path / "caqa" / f"{split}.jsonl").open()
    ]
    assert len(rows) >= 20_000 and seconds < 120
    assert {r["category"] for r in rows} == set(CATEGORIES) and {r["complexity"] for r in rows} == set(COMPLEXITIES)
    for key in (
        "question",
        "answer_statement",
        "citation",
        "category",
        "complexity",
        "n_subfacts",
        "n_supported_subfacts",
    ):
        assert all(key in r for r in rows[:100])
    splits: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        splits[r["source"]].add(r["split"])
    assert all(len(s) == 1 for s in splits.values())  # a question's samples never straddle splits
    assert "| category | supportive |" in (tmp_path / "caqa" / "stats.md").read_text()
    bad = kgcite(
        "build", "caqa", "--kg", str(d / "kb.txt"), "--qa", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "x")
    )
    assert bad.returncode == 2 and "nope.txt" in bad.stderr


def test_union_queries_answer_as_a_union(index: TripleIndex) -> None:
    q = Query(((("Jaws", "directed_by", "?a"),), (("Alien", "directed_by", "?a"),)))
    assert answers(index, q) == answers(index, Query.of([("Jaws", "directed_by", "?a")])) | answers(
        index, Query.of([("Alien", "directed_by", "?a")])
    )


FREEBASE_STYLE = """enno_iii_count_of_ostfriesland	parent	edzard_ii_count_of_ostfriesland
enno_iii_count_of_ostfriesland	spouse	anna_of_holstein-gottorp
rudolf_christian_count_of_ostfriesland	parent	enno_iii_count_of_ostfriesland
rudolf_christian_count_of_ostfriesland	parent	anna_of_holstein-gottorp
anna_of_holstein-gottorp	children	rudolf_christian_count_of_ostfriesland
anna_of_holstein-gottorp	children	ulrich_ii_count_of_ostfriesland
ulrich_ii_count_of_ostfriesland	parent	enno_iii_count_of_ostfriesland
ulrich_ii_count_of_ostfriesland	place_of_death	aurich
rudolf_christian_count_of_ostfriesland	place_of_death	leerort
enno_iii_count_of_ostfriesland	place_of_death	aurich
edzard_ii_count_of_ostfriesland	place_of_death	aurich
anna_of_holstein-gottorp	place_of_birth	gottorf_castle
aurich	containedby	east_frisia
leerort	containedby	east_frisia
edzard_ii_count_of_ostfriesland	religion	lutheranism
enno_iii_count_of_ostfriesland	religion	lutheranism
ulrich_ii_count_of_ostfriesland	religion	calvinism
edzard_ii_count_of_ostfriesland	spouse	katarina_vasa
katarina_vasa	parent	gustav_i_of_sweden
katarina_vasa	place_of_birth	stockholm
gustav_i_of_sweden	place_of_death	stockholm
"""


def test_build_caqa_from_a_graph_without_questions(tmp_path: Path) -> None:
    """Identifier-style names are humanised, questions are generated, the same seed rebuilds the same bytes."""
    graph = tmp_path / "fb.tsv"
    graph.write_text(FREEBASE_STYLE)
    outs = []
    for name in ("a", "b"):
        res = kgcite(
            "build", "caqa", "--kg", str(graph), "--generate", "30", "--seed", "5", "--out", str(tmp_path / name)
        )
        assert res.returncode == 0, res.stderr
        outs.append(
            {f: (tmp_path / name / f).read_bytes() for f in ("train.jsonl", "dev.jsonl", "test.jsonl", "skipped.jsonl")}
        )
    assert outs[0] == outs[1]
    rows = [
        json.loads(line)
        for f in ("train.jsonl", "dev.jsonl", "test.jsonl")
        for line in outs[0][f].decode().splitlines()
    ]
    assert len(rows) > 20 and {r["category"] for r in rows} == set(CATEGORIES)
    text = " ".join(r["question"] + r["answer_statement"] + r["citation"] for r in rows)
    assert "_" not in text and "Count of Ostfriesland" in text and "aurich" not in text
    assert all(not r["answer_statement"].startswith("The answer to") for r in rows)
    skipped = [json.loads(line) for line in outs[0]["skipped.jsonl"].decode().splitlines()]
    assert all({"id", "reason"} <= set(s) for s in skipped)
    none = kgcite("build", "caqa", "--kg", str(graph), "--out", str(tmp_path / "c"))
    assert none.returncode == 2 and "--generate" in none.stderr


def test_an_interrupted_write_leaves_the_previous_benchmark_whole(tmp_path: Path, monkeypatch: Any) -> None:
    """Killed while writing, a build left new train/dev splits beside the old test split; killed
    between renames, 416 ids were in both the new train and the old test split. Either way the
    folder now holds one whole benchmark, and the next build finishes a half-done swap."""
    from kgcite.bench.caqa_files import settle, write_together

    out = tmp_path / "caqa"
    out.mkdir()
    old = {name: f"old {name}\n" for name in ("train.jsonl", "dev.jsonl", "test.jsonl")}
    for name, text in old.items():
        (out / name).write_text(text)
    (out / "notes.txt").write_text("mine\n")
    new = {name: f"new {name}\n" for name in old}

    def contents() -> dict[str, str]:
        return {p.name: p.read_text() for p in out.iterdir()}

    real_open = open

    def full_disk(path: Any, *args: Any, **kwargs: Any) -> Any:
        if Path(path).name == "test.jsonl":
            raise OSError(28, "No space left on device")
        return real_open(path, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr("builtins.open", full_disk)
        with pytest.raises(OSError):
            write_together(out, new)
    assert contents() == old | {"notes.txt": "mine\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["caqa"]  # nothing half-written beside it

    real_rename = Path.rename

    def killed_after_first_folder(self: Path, target: Any) -> Any:
        if self == out:  # the old folder moved aside: the build dies before the new one takes its place
            real_rename(self, target)
            raise KeyboardInterrupt
        return real_rename(self, target)

    with monkeypatch.context() as m:
        m.setattr(Path, "rename", killed_after_first_folder)
        with pytest.raises(KeyboardInterrupt):
            write_together(out, new)
    assert not out.exists()  # never a mix: no folder at all for the moment
    settle(out)
    assert contents() == new | {"notes.txt": "mine\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["caqa"]
