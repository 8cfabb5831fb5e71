"""``kgcite serve`` started for real, as a user starts it, on a free port of 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kgcite.server.launch import served
from tests.helpers import EVIL_LABEL, EVIL_VALUE, kgcite


@pytest.fixture(scope="session")
def evil_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A graph whose labels are markup: a page that renders them as HTML would run them."""
    d = tmp_path_factory.mktemp("evil")
    graph = [
        [
            "Who was Ada Lovelace's father?",
            [
                {
                    "qid": "Q7259",
                    "name": "Ada Lovelace",
                    "father": EVIL_LABEL,
                    "motto": EVIL_VALUE,
                    "occupation": "mathematician",
                    "instance of": "human",
                },
                {"qid": "Q5679", "name": EVIL_LABEL, "occupation": "poet", "instance of": "human"},
            ],
        ]
    ]
    (d / "evil.json").write_text(json.dumps(graph))
    res = kgcite("kg", "load", str(d / "evil.json"), "--store", str(d / "store"))
    assert res.returncode == 0, res.stderr
    return d / "store"


@pytest.fixture(scope="session")
def reports_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real evaluation report: `kgcite eval all` over the shipped sample answers."""
    from importlib import resources

    out = tmp_path_factory.mktemp("reports") / "samples"
    answers = Path(str(resources.files("kgcite") / "data" / "samples" / "biokalma_sample_answers.jsonl"))
    res = kgcite("eval", "all", "--answers", str(answers), "--out", str(out), "--no-nli")
    assert res.returncode == 0, res.stderr
    return out.parent


@pytest.fixture(scope="session")
def evil_docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A page to quote; its escaped markup becomes literal text once parsed."""
    d = tmp_path_factory.mktemp("docs")
    (d / "ada.html").write_text(
        "<html><body><p>Augusta Ada King, Countess of Lovelace, was an English mathematician and writer, chiefly known "
        "for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.</p>"
        "<p>Ada Lovelace was the only legitimate child of the poet Lord Byron and the reformer Anne Isabella Milbanke; "
        "her notes were signed &lt;script&gt;alert(3)&lt;/script&gt; by a prankster editor in this test page.</p></body></html>"
    )
    return d


@pytest.fixture(scope="session")
def evil_server(evil_store: Path, evil_docs: Path, reports_dir: Path) -> Iterator[str]:
    with served(
        ["--no-cache", "--store", str(evil_store), "--docs", str(evil_docs), "--reports", str(reports_dir)]
    ) as url:
        yield url


@pytest.fixture(scope="session")
def tsv_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A graph of the kind a user writes first: TSV, entities named by their text, snake_case relations."""
    d = tmp_path_factory.mktemp("tsv")
    (d / "rail.tsv").write_text(
        "Tarn Junction\tdesigned_by\tIvo Marsh\nTarn Junction\tlocated_in\tVellmoor\n"
        "Ivo Marsh\tborn_in\tHarrowgate\nVellmoor\tcountry\tTarnland\n"
    )
    res = kgcite("kg", "load", str(d / "rail.tsv"), "--store", str(d / "store"))
    assert res.returncode == 0, res.stderr
    with served(["--no-cache", "--store", str(d / "store")]) as url:
        yield url


@pytest.fixture(scope="session")
def biokalma_server() -> Iterator[str]:
    """The default set-up: shipped BioKaLMA graph, SmolLM2 through embedded llama.cpp."""
    with served(["--no-cache"]) as url:
        yield url


@pytest.fixture(scope="session")
def hub_server(hub_store: Path) -> Iterator[str]:
    """On IPv6 loopback: ``serve --host ::1`` answered 400 to everything."""
    # the TSV beside the store, loaded in memory: a server holding the store would lock out the CLI tests
    with served(["--no-cache", "--kg", str(hub_store.parent / "hub.tsv")], host="::1") as url:
        yield url
