"""The written part of the grounding mixture: questions as people ask them, train-split relations only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgcite.kg.model import Triple
from kgcite.text.lexicon import property_label
from kgcite.train.grounding_examples import store_of
from kgcite.train.relation_split import property_split, read_property_names
from kgcite.train.written import read_phrasings, written_film_examples, written_graph_examples


@pytest.mark.fast
def test_the_shipped_phrasings_are_train_split_relations_asked_both_ways() -> None:
    names = read_property_names()
    wikidata = read_phrasings("wikidata")
    assert len(wikidata) >= 200
    assert all(property_split(pid) == "train" and pid in names for pid in wikidata)
    films = read_phrasings("films")
    assert set(films) == {
        "directed_by", "written_by", "starred_actors", "release_year", "in_language",
        "has_genre", "has_tags", "has_imdb_votes", "has_imdb_rating",
    }  # fmt: skip
    for said in [*wikidata.values(), *read_phrasings("schemaorg").values(), *films.values()]:
        assert said.forward and said.backward
        assert all(q.count("[X]") == 1 for q in said.forward + said.backward)


@pytest.mark.fast
def test_a_phrasing_without_one_topic_is_dropped(tmp_path: Path) -> None:
    rows = [
        {"relation": "mentor", "direction": "forward", "questions": ["Who taught [X]?", "Who taught them?"]},
        {
            "relation": "mentor",
            "direction": "backward",
            "questions": ["Whom did [X] train, [X]?", "Who learned from [X]?"],
        },
    ]
    (tmp_path / "films.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    said = read_phrasings("films", tmp_path)["mentor"]
    assert said.forward == ("Who taught [X]?",) and said.backward == ("Who learned from [X]?",)
    assert said.of(True) == said.backward


def test_written_questions_ask_the_relation_they_were_written_for() -> None:
    examples = written_graph_examples(graphs=2, relations=12)
    assert len(examples) >= 40
    assert {e.hops for e in examples} == {1, 2}
    assert all("X" in e.question and "[X]" not in e.question for e in examples)
    assert all(e.positive not in e.negatives and e.negatives for e in examples)
    # each question is one a helper wrote for the gold chain's last relation, topic filled in
    labels = {
        names.label: [q.replace("[X]", "") for q in said.forward + said.backward]
        for pid, said in read_phrasings("wikidata").items()
        for names in [read_property_names()[pid]]
    }
    one_hop = [e for e in examples if e.hops == 1]
    checked = 0
    for e in one_hop:
        relation = property_label(e.positive.removeprefix("reverse of ").split(" (e.g.")[0]).lower()
        if relation in labels:
            stem = e.question.replace("X", "")
            checked += any(stem == q for q in labels[relation])
    assert checked >= len(one_hop) // 3


def test_film_phrasings_fill_the_graphs_own_relations() -> None:
    triples = [
        Triple("Heat", "Heat", "directed_by", "Michael Mann", "Michael Mann"),
        Triple("Heat", "Heat", "starred_actors", "Al Pacino", "Al Pacino"),
        Triple("Thief", "Thief", "directed_by", "Michael Mann", "Michael Mann"),
        Triple("Thief", "Thief", "starred_actors", "James Caan", "James Caan"),
        Triple("Heat", "Heat", "release_year", "1995", "1995"),
    ]
    examples = written_film_examples(store_of(triples), per_direction=4)
    assert examples
    gold = {e.positive.split(" (e.g.")[0] for e in examples}
    assert "directed by" in gold and "reverse of directed by" in gold
    assert all(e.source == "written-films" for e in examples)
