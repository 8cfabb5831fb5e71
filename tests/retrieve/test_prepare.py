"""Preparing a graph's search: its chains read off the graph, encoded once, kept on disk, and
answers unchanged; with the real embedded store and the shipped grounding model."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from kgcite.kg import EmbeddedStore
from kgcite.models.embed import CachedEmbedder, OnnxMiniLM
from kgcite.models.vectors import DiskVectors, model_fingerprint
from kgcite.retrieve.path_scorers import GroundingPathScorer, shipped_grounding
from kgcite.retrieve.paths import GraphWalker, PathReasoner, Step
from kgcite.runtime import Runtime, RuntimeConfig
from tests.helpers import BOOKS, kgcite


@pytest.fixture(scope="module")
def store(books_store: EmbeddedStore) -> EmbeddedStore:
    return books_store


def _answers(runtime: Runtime, questions: list[str]) -> list[str]:
    generator = runtime.generator("grounded")
    return [" ".join(s.text for s in generator.answer(q).sentences) for q in questions]  # type: ignore[attr-defined]


QUESTIONS = [
    "Where was the writer of Night Ferry born?",
    "Which publishers published the books written by Ines Calder?",
    "In which languages are the books by the writer of Salt Roads?",
]


def test_the_schema_holds_the_chains_a_search_walks(store: EmbeddedStore) -> None:
    chains = GraphWalker(store).schema(3)
    assert (Step("written_by"), Step("born_in")) in chains
    assert (Step("written_by", True), Step("published_by")) in chains
    assert (Step("written_by"), Step("written_by", True), Step("in_language")) in chains
    assert [len(c) for c in chains] == sorted(len(c) for c in chains)  # shortest first
    assert len(set(chains)) == len(chains)
    # nothing past a value: born_in ends on places with no relation of their own here
    assert not any(c[0] == Step("in_language") and len(c) > 1 and not c[1].inverse for c in chains)
    assert len(GraphWalker(store).schema(3, limit=5)) == 5


def test_prepared_questions_encode_only_themselves_and_answer_the_same(store: EmbeddedStore) -> None:
    cold = Runtime(RuntimeConfig(cache=None), store=store)
    warm = Runtime(RuntimeConfig(cache=None), store=store)
    assert warm.paths is not None and cold.paths is not None
    prepared = warm.paths.prepare()
    assert prepared.chains > 10 and prepared.new > 10
    scorer = warm.paths.scorer
    assert isinstance(scorer, GroundingPathScorer)
    before = scorer.embedding.encoded
    assert _answers(warm, QUESTIONS) == _answers(cold, QUESTIONS)
    # each question is encoded once (masked); the chains were all ready
    assert scorer.embedding.encoded - before <= len(QUESTIONS)
    cold_scorer = cold.paths.scorer
    assert isinstance(cold_scorer, GroundingPathScorer) and cold_scorer.embedding.encoded > 2 * len(QUESTIONS)
    assert warm.paths.prepare().new == 0  # nothing left to do


def test_vectors_kept_on_disk_are_the_models_own(tmp_path: Path) -> None:
    model = shipped_grounding() / "model.onnx"
    key = model_fingerprint(model, max_length=48)
    texts = ["born in (e.g. Aarhus)", "reverse of written by", "Where was the writer of X born?"]
    first = CachedEmbedder(OnnxMiniLM(model, max_length=48), disk=DiskVectors(tmp_path / "v.sqlite", key))
    fresh = first.encode(texts)
    assert first.encoded == 3
    # a later process: read from disk, nothing encoded, the very same numbers
    second = CachedEmbedder(OnnxMiniLM(model, max_length=48), disk=DiskVectors(tmp_path / "v.sqlite", key))
    assert np.array_equal(second.encode(texts[::-1]), fresh[::-1]) and second.encoded == 0
    # another model (or input length) never reads them
    other = CachedEmbedder(OnnxMiniLM(model, max_length=32), disk=DiskVectors(tmp_path / "v.sqlite", f"{key}x"))
    other.encode(texts[:1])
    assert other.encoded == 1
    rows = sqlite3.connect(tmp_path / "v.sqlite").execute("SELECT count(*) FROM vectors").fetchone()[0]
    assert rows == 4
    # the fingerprint is hashed once per version of the file, then read back
    assert DiskVectors.of_model(tmp_path / "v.sqlite", model, max_length=48).model == key
    assert DiskVectors.of_model(tmp_path / "v.sqlite", model, max_length=48).model == key
    assert DiskVectors.of_model(tmp_path / "v.sqlite", model, max_length=32).model != key
    copy = tmp_path / "model.onnx"
    data = model.read_bytes()
    copy.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # another version of the file
    assert DiskVectors.of_model(tmp_path / "v.sqlite", copy, max_length=48).model != key


def test_kg_load_prepares_the_search_and_ask_reads_it(tmp_path: Path) -> None:
    books_tsv = tmp_path / "books.tsv"
    books_tsv.write_text(BOOKS)
    env = {"KGCITE_CACHE_DIR": str(tmp_path / "cache")}
    res = kgcite("kg", "load", str(books_tsv), "--store", str(tmp_path / "st"), env=env)
    assert res.returncode == 0, res.stderr
    assert "graph search prepared:" in res.stdout and "encoded now" in res.stdout
    assert (tmp_path / "cache" / "vectors.sqlite").exists()
    again = kgcite("kg", "load", str(books_tsv), "--store", str(tmp_path / "st"), env=env)
    assert ", 0 encoded now" in again.stdout  # the second load finds every chain kept
    ask = kgcite("ask", "--store", str(tmp_path / "st"), "Where was the writer of Night Ferry born?", env=env)
    assert ask.returncode == 0 and "Aarhus" in ask.stdout, ask.stdout + ask.stderr
    skipped = kgcite("kg", "load", str(books_tsv), "--store", str(tmp_path / "s2"), "--no-prepare", env=env)
    assert skipped.returncode == 0 and "prepared" not in skipped.stdout


def test_prepare_is_optional_for_a_scorer_without_it(store: EmbeddedStore) -> None:
    from kgcite.retrieve.path_scorers import ZeroShotPathScorer

    done = PathReasoner(store, ZeroShotPathScorer(store.relations())).prepare()
    assert done.chains > 0 and done.new == 0
