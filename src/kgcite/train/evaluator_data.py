"""CAQA-style samples from graphs of different domains, for an evaluator that reads its evidence.

Three sources, each built with :class:`~kgcite.bench.caqa.CaqaBuilder` (humanised names, varied
phrasings, declarative statements):

- ``metaqa``: the movie graph and MetaQA's 1–3-hop test questions (split by source question);
- ``biokalma``: the biographies graph, linked by name, with 2–3-hop path questions and
  single-triple questions made from it;
- ``synthetic``: random graphs with invented names and relations (:mod:`kgcite.bench.synthetic`);
  training uses graphs 1…K, tests use graphs 101, 102, … that no model ever trains on.

Every row is a ``CaqaSample.to_dict()`` plus ``graph`` and ``split``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from kgcite.bench.caqa import CaqaBuilder, KGQASample, metaqa_samples, single_triple_samples, split_of
from kgcite.bench.caqa_paths import link_by_name, path_samples
from kgcite.bench.caqa_query import TripleIndex
from kgcite.bench.synthetic import synthetic_graph
from kgcite.evaluate.metrics.attribution import CATEGORIES
from kgcite.kg.model import Triple

GRAPHS = ("metaqa", "biokalma", "synthetic")
Row = dict[str, Any]


def caqa_rows(
    graph: str, index: TripleIndex, samples: Sequence[KGQASample], seed: int, split: str | None = None
) -> list[Row]:
    """The samples of one graph, each tagged with the graph and its split (by source question)."""
    builder = CaqaBuilder(index, seed=seed)
    out = []
    for s in builder.build_all(samples):
        row = s.to_dict()
        row["graph"], row["split"] = graph, split or split_of(s.source, s.complexity, seed)
        out.append(row)
    return out


def metaqa_rows(n: int, seed: int = 0) -> list[Row]:
    """Up to ``n`` MetaQA questions per hop count, as CAQA rows (train/dev/test by source)."""
    from kgcite.bench.metaqa import read_questions
    from kgcite.kg.loaders import read_tsv, shipped_data

    index = TripleIndex(read_tsv(shipped_data("metaqa", "kb.txt")))
    rng = random.Random(f"metaqa:{seed}")
    questions = []
    for hops in (1, 2, 3):
        qs = read_questions(hops)
        questions += rng.sample(qs, min(n, len(qs)))
    return caqa_rows("metaqa", index, list(metaqa_samples(questions)), seed)


def biokalma_rows(n: int, seed: int = 0) -> list[Row]:
    """``n`` 2–3-hop path questions and ``n`` single-triple questions over BioKaLMA."""
    from kgcite.train.nli_data import biokalma_triples

    index = TripleIndex(link_by_name(biokalma_triples()))
    samples = path_samples(index, n, seed, hops=(2, 3)) + single_triple_samples(index, n, seed)
    return caqa_rows("biokalma", index, samples, seed)


def synthetic_rows(graph_seeds: Sequence[int], n: int, seed: int = 0, split: str | None = None) -> list[Row]:
    """``n`` 1–3-hop path questions on each synthetic graph."""
    out: list[Row] = []
    for g in graph_seeds:
        index = TripleIndex(synthetic_graph(g))
        out += caqa_rows(f"synthetic-{g}", index, path_samples(index, n, seed), seed, split)
    return out


#: Source questions per graph (per hop count for MetaQA, per kind for BioKaLMA, per synthetic graph).
RECIPE = {"metaqa": 2500, "biokalma": 1200, "synthetic": 500}


def graph_rows(graph: str, n: int | None = None, seed: int = 0, *, test: bool = False) -> list[Row]:
    """The rows of a named source (``n`` source questions, default :data:`RECIPE`'s).
    ``test``: the synthetic source's held-out graphs (101, 102)."""
    if graph not in RECIPE:
        raise ValueError(f"unknown graph {graph!r}: choose from {', '.join(GRAPHS)}")
    n = RECIPE[graph] if n is None else n
    builders: dict[str, Callable[[], list[Row]]] = {
        "metaqa": lambda: metaqa_rows(n, seed),
        "biokalma": lambda: biokalma_rows(n, seed),
        "synthetic": lambda: (
            synthetic_rows((101, 102), n, seed, "test") if test else synthetic_rows(range(1, 7), n, seed, "train")
        ),
    }
    return builders[graph]()


def train_rows(graphs: Sequence[str], n: int | None = None, seed: int = 0) -> list[Row]:
    """The train split of each named source, together: what ``kgcite train evaluator --graphs`` trains on."""
    return [r for g in graphs for r in graph_rows(g, n, seed) if r["split"] == "train"]


def rows_from_triples(name: str, triples: Sequence[Triple], n: int, seed: int = 0) -> list[Row]:
    """Test rows from any graph (a user's, say): path questions made from it, all in ``test``."""
    index = TripleIndex(link_by_name(triples))
    return caqa_rows(name, index, path_samples(index, n, seed), seed, "test")


def balanced_mix(rows: Sequence[Row], n: int, seed: int) -> list[Row]:
    """Up to ``n`` rows, the same number per (graph source, category) where the data allows."""
    rng = random.Random(seed)
    groups: dict[tuple[str, str], list[Row]] = {}
    for r in rows:
        groups.setdefault((str(r.get("graph", "")).split("-")[0], r["category"]), []).append(r)
    per = max(1, n // max(1, len(groups)))
    out: list[Row] = []
    for key in sorted(groups):
        group = groups[key]
        rng.shuffle(group)
        out += group[:per]
    rng.shuffle(out)
    return out


def category_counts(rows: Sequence[Row]) -> dict[str, int]:
    return {c: sum(r["category"] == c for r in rows) for c in CATEGORIES}
