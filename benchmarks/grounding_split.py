"""Relation grounding on relations held out of training whole (the relation-disjoint split of
`kgcite.train.relation_split`): SimpleQuestions-over-Wikidata questions of the dev and test
properties, each to be matched to its property and direction among the split's candidates.

Every relation is named the way a user's graph might name it (the Wikidata label, camelCase,
snake_case), so the identifier reader is measured too. Scorers: MiniLM with no training (the
baseline), kgcite's zero-shot scorer (the words that name relations + MiniLM), and the shipped
grounding model with its lexical reading (what `kgcite ask` uses), and that model shown
Wikidata's aliases of each property at test time (with label names only). Hits@1 over all the split's
candidates (both directions of every property) and over 10 (the gold one and 9 others, about one
node's relations in a user's graph).

    python benchmarks/grounding_split.py [--per-property 30] [--splits dev test] [--quick]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from kgcite.evaluate.records.report import format_table
from kgcite.models.embed import OnnxMiniLM
from kgcite.retrieve.path_scorers import GROUNDING_FILE, GroundingPathScorer, ZeroShotPathScorer, shipped_grounding
from kgcite.retrieve.paths import Chain, Step
from kgcite.retrieve.scoring import EmbeddingScorer
from kgcite.train.relation_split import GroundingQuestion, held_out, read_property_names, read_simple_questions

Scorer = Callable[[str, Sequence[Chain]], np.ndarray]


def styled(label: str, style: str) -> str:
    """A property label spelled as a graph might: ``label``, ``camelCase`` or ``snake_case``."""
    words = re.findall(r"[A-Za-z0-9]+", label)
    if style == "camelCase" and words:
        return words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])
    if style == "snake_case":
        return "_".join(w.lower() for w in words)
    return label


def grounding(folder: Path, reader: ZeroShotPathScorer) -> GroundingPathScorer:
    """The export in ``folder`` as `kgcite ask` loads it, with no graph to show example values."""
    settings = json.loads((folder / GROUNDING_FILE).read_text(encoding="utf-8"))
    encoder = OnnxMiniLM(folder / "model.onnx", max_length=int(settings.get("max_length", 48)), label=folder.name)
    adapter = settings.get("adapter")
    return GroundingPathScorer(
        EmbeddingScorer(encoder),
        None,
        threshold=float(settings.get("threshold", 0.5)),
        reader=reader,
        adapter=np.load(folder / adapter) if adapter else None,
        lexical_weight=float(settings.get("lexical_weight", 0.0)),
    )


def scorers(
    names: Sequence[str],
    minilm: EmbeddingScorer,
    aliases: dict[str, Sequence[str]] | None = None,
    models: Sequence[Path] = (),
) -> dict[str, Scorer]:
    """The scorers over a candidate vocabulary ``names``; ``aliases`` (name → Wikidata aliases) adds
    the shipped model with aliases at test time; ``models``: other exports to compare."""
    reader = ZeroShotPathScorer(names, minilm)
    shipped = grounding(shipped_grounding(), reader)

    def plain(question: str, chains: Sequence[Chain]) -> np.ndarray:
        return minilm.scores(question, [reader.text(c) for c in chains])

    out: dict[str, Scorer] = {
        "MiniLM, no training (baseline)": plain,
        "zero-shot": reader.scores,
        "grounding model (shipped)": shipped.scores,
    }
    if aliases:
        out["grounding model + Wikidata aliases"] = with_aliases(shipped.scores, aliases)
    for folder in models:
        out[f"grounding model ({folder.name})"] = grounding(folder, reader).scores
    return out


def with_aliases(scorer: Scorer, aliases: dict[str, Sequence[str]]) -> Scorer:
    """``scorer`` with Wikidata's aliases at test time: a one-hop chain scores the mean of its own
    name's score and its best alias's (chosen on the dev split over the best string alone, 0.512,
    and the name alone, 0.497)."""

    def score(question: str, chains: Sequence[Chain]) -> np.ndarray:
        texts = [[c, *((Step(a, c[0].inverse),) for a in aliases.get(c[0].relation, ()))] for c in chains]
        flat = scorer(question, [t for group in texts for t in group])
        out, at = [], 0
        for group in texts:
            own, best = float(flat[at]), float(flat[at : at + len(group)].max())
            out.append((own + best) / 2)
            at += len(group)
        return np.array(out, dtype=np.float32)

    return score


def hits(
    questions: Sequence[GroundingQuestion], spelled: dict[str, str], scorer: Scorer, k: int | None, seed: int = 0
) -> tuple[float, float]:
    """Hits@1 (property and direction) and Hits@1 of the property alone, among all candidates or ``k``."""
    every = [(Step(name, inverse),) for name in spelled.values() for inverse in (False, True)]
    rng = random.Random(seed)
    exact = loose = 0
    for q in questions:
        gold: Chain = (Step(spelled[q.pid], q.inverse),)
        chains = every if k is None else [gold, *rng.sample([c for c in every if c != gold], k - 1)]
        best = chains[int(np.argmax(scorer(q.question, chains)))]
        exact += best == gold
        loose += best[0].relation == gold[0].relation
    return exact / max(1, len(questions)), loose / max(1, len(questions))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-property", type=int, default=30, help="questions per property and direction")
    ap.add_argument("--splits", nargs="+", default=["dev", "test"], choices=["train", "dev", "test"])
    ap.add_argument("--model", type=Path, action="append", default=[], help="another export folder to compare")
    ap.add_argument("--styles", nargs="+", default=["label", "camelCase", "snake_case"])
    ap.add_argument("--quick", action="store_true", help="dev only, 3 questions per property: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.per_property, args.splits = 3, ["dev"]
    names = read_property_names()
    questions = read_simple_questions()
    minilm = EmbeddingScorer(OnnxMiniLM())
    rows = []
    for split in args.splits:
        qs = held_out(questions, split, per_property=args.per_property)  # type: ignore[arg-type]
        props = sorted({q.pid for q in qs})
        for style in args.styles:
            spelled = {p: styled(names[p].label, style) for p in props}
            aliases = {spelled[p]: names[p].aliases[:8] for p in props} if style == "label" else None
            for system, scorer in scorers(list(spelled.values()), minilm, aliases, args.model).items():
                t0 = time.perf_counter()
                all_exact, all_prop = hits(qs, spelled, scorer, None)
                ten_exact, _ = hits(qs, spelled, scorer, 10)
                ms = (time.perf_counter() - t0) * 1000 / max(1, 2 * len(qs))
                rows.append(
                    (
                        split,
                        style,
                        system,
                        str(len(qs)),
                        str(2 * len(props)),
                        f"{all_exact:.3f}",
                        f"{all_prop:.3f}",
                        f"{ten_exact:.3f}",
                        f"{ms:.1f}",
                    )
                )
    print("Relation grounding on properties held out of training whole (SimpleQuestions-Wikidata)")
    head = ["split", "relation names", "scorer", "questions", "candidates", "Hits@1", "property Hits@1", "Hits@1 of 10"]
    print(format_table([*head, "ms/q"], rows))


if __name__ == "__main__":
    main()
