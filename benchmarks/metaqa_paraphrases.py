"""MetaQA's relations asked in other words: one-hop questions in 25 phrasings a relation, over the
shipped MetaQA kb.

The phrasings (``data/paraphrases/metaqa.json``) were written for kgcite by a helper who had seen
neither its code, its models nor MetaQA's questions: 25 for each of MetaQA's 13 relation
directions ("who was behind the camera for X", "X is in what tongue", "what films can I see X
in"), many in words the relation's name does not use. Each is asked of entities drawn from the kb
(seed 7) that hold the relation; the gold answers are all the kb's values of it. These questions
are development data (the one-hop lead was chosen on them); MetaQA's own test questions measure
(``kgqa.py``).

Every question is answered through the ``Answerer`` door (``Runtime.generator("grounded")``),
with the topic given as MetaQA gives it: by the default pipeline, by the same pipeline without
the one-hop lead (``PathConfig.lead_floor`` off: a chain no word names answers only above the
model's ``named_threshold``; the baseline, same run), and with the zero-shot scorer. Hits@1 (the
first answer is a gold one) and the `[NA]` rate, per relation direction and overall.

    python benchmarks/metaqa_paraphrases.py [--per-template 2] [--quick]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from kgcite.evaluate.records.report import format_table
from kgcite.generate.pipeline import GroundedGenerator
from kgcite.kg import EmbeddedStore
from kgcite.kg.loaders import shipped_data
from kgcite.runtime import Runtime, RuntimeConfig

PHRASINGS = Path(__file__).resolve().parent / "data" / "paraphrases" / "metaqa.json"
#: MetaQA's qtype words → the kb's relation names.
RELATIONS = {
    "director": "directed_by",
    "writer": "written_by",
    "actor": "starred_actors",
    "year": "release_year",
    "genre": "has_genre",
    "language": "in_language",
    "tags": "has_tags",
    "tag": "has_tags",
    "imdbrating": "has_imdb_rating",
    "imdbvotes": "has_imdb_votes",
}


def direction(qtype: str) -> tuple[str, bool]:
    """``movie_to_director`` → (``directed_by``, False); ``director_to_movie`` → (…, True)."""
    start, end = qtype.split("_to_")
    return (RELATIONS[end], False) if start == "movie" else (RELATIONS[start], True)


def questions(per_template: int, templates: int | None = None) -> list[dict[str, Any]]:
    """Each phrasing asked of ``per_template`` entities holding its relation, gold from the kb."""
    values: dict[tuple[str, str, bool], set[str]] = defaultdict(set)
    for line in shipped_data("metaqa", "kb.txt").read_text(encoding="utf-8").splitlines():
        head, relation, tail = line.split("|")
        values[(head, relation, False)].add(tail)
        values[(tail, relation, True)].add(head)
    holders: dict[tuple[str, bool], list[str]] = defaultdict(list)
    for entity, relation, inverse in values:
        holders[(relation, inverse)].append(entity)
    for names in holders.values():
        names.sort()
    rng = random.Random(7)
    out = []
    for qtype, phrasings in json.loads(PHRASINGS.read_text(encoding="utf-8")).items():
        relation, inverse = direction(qtype)
        for phrasing in phrasings[:templates]:
            for _ in range(per_template):
                topic = rng.choice(holders[(relation, inverse)])
                question = phrasing.replace("X", f"[{topic}]")
                out.append(
                    {"qtype": qtype, "question": question, "topic": topic, "gold": values[(topic, relation, inverse)]}
                )
    return out


def generator(store: EmbeddedStore, scorer: str, *, lead: bool = True) -> GroundedGenerator:
    runtime = Runtime(RuntimeConfig(cache=None, path_scorer=scorer), store=store)
    made = runtime.generator("grounded")
    assert isinstance(made, GroundedGenerator)
    if not lead and runtime.paths is not None:
        runtime.paths.config = replace(runtime.paths.config, lead_floor=float("inf"))
    return made


def answer(made: GroundedGenerator, asked: list[dict[str, Any]]) -> tuple[list[bool], list[bool], list[float]]:
    """Per question: right at 1, `[NA]`, and ms."""
    right, na, ms = [], [], []
    for q in asked:
        t0 = time.perf_counter()
        got = made.answer_many([q["question"]], [(q["topic"],)], strict=False)[0]
        ms.append(1000 * (time.perf_counter() - t0))
        predicted = got.to_dict().get("predicted") or []
        right.append(bool(predicted) and predicted[0] in q["gold"])
        na.append(not predicted)
    return right, na, ms


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-template", type=int, default=2, help="entities each phrasing is asked of (default 2)")
    ap.add_argument("--quick", action="store_true", help="3 phrasings a relation direction, one entity each")
    args = ap.parse_args()
    asked = questions(1, 3) if args.quick else questions(args.per_template)
    t0 = time.perf_counter()
    store = EmbeddedStore()
    store.load(shipped_data("metaqa", "kb.txt"))
    print(f"MetaQA kb loaded in {time.perf_counter() - t0:.1f} s; {len(asked)} questions")
    systems = [
        ("grounding model (default)", generator(store, "grounding")),
        ("grounding, no one-hop lead (baseline)", generator(store, "grounding", lead=False)),
        ("zero-shot", generator(store, "zero-shot")),
    ]
    results = {name: answer(made, asked) for name, made in systems}
    rows = []
    for name, (right, na, ms) in results.items():
        rows.append(
            (
                "all",
                name,
                len(asked),
                f"{sum(right) / len(asked):.3f}",
                f"{sum(na) / len(asked):.3f}",
                f"{statistics.median(ms):.1f}",
            )
        )
    by: dict[str, list[int]] = defaultdict(list)
    for i, q in enumerate(asked):
        by[q["qtype"]].append(i)
    for qtype, idx in by.items():
        for name, (right, na, _) in results.items():
            rows.append(
                (
                    qtype,
                    name,
                    len(idx),
                    f"{sum(right[i] for i in idx) / len(idx):.3f}",
                    f"{sum(na[i] for i in idx) / len(idx):.3f}",
                    "",
                )
            )
    print(format_table(["relation", "system", "n", "Hits@1", "[NA]", "p50 ms"], rows))


if __name__ == "__main__":
    main()
