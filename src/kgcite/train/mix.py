"""How much a grounding export adapted to a user's graph leans on the words that name relations,
chosen on the user's own examples.

The shipped mix (the model's cosine plus ``lexical_weight`` × the zero-shot reading) was chosen on
kgcite's dev questions. A graph whose questions say its relations' own names is answered better
by the words; one whose questions say them in other words, by the model. A few examples tell
which. The weight is cross-fitted: the examples are split in ``folds``, the model is adapted on
all but one and answers that one with each weight, so the adapter's fit to its own examples does
not favour the model. Answers go through the whole pipeline (``answerer``), as `kgcite ask`
answers; a weight replaces the export's only where it answers more of them right.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kgcite.errors import TrainError
from kgcite.evaluate.metrics.answers import first_is_gold
from kgcite.kg.store import KGStore
from kgcite.retrieve.path_scorers import GROUNDING_FILE, GroundingPathScorer
from kgcite.train.grounding import Answerer, adapt_grounding
from kgcite.train.grounding_examples import examples_for
from kgcite.train.paths import QAItem

#: The lexical weights tried besides the export's own (0.25 for the shipped model).
MIX_WEIGHTS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)

#: A user's graph and its examples (gold chains recovered).
ExampleSet = tuple[KGStore, Sequence[QAItem]]


@dataclass(frozen=True)
class MixChoice:
    weight: float  # the lexical weight chosen
    default: float  # the export's own
    right: dict[float, int]  # per weight tried, examples answered right when held out
    asked: int  # examples held out, over all folds

    def table(self) -> str:
        """One line per weight: how many held-out examples it answered right."""
        rows = []
        for w in sorted(self.right):
            notes = ("  (the export's)" if w == self.default else "") + ("  <- chosen" if w == self.weight else "")
            rows.append(f"  {w:>5g}  {self.right[w]:>3}/{self.asked}{notes}")
        return "lexical weight, examples right when held out:\n" + "\n".join(rows)


def choose_mix(
    sets: Sequence[ExampleSet],
    base: Path,
    answerer: Answerer,
    *,
    weights: Sequence[float] = MIX_WEIGHTS,
    folds: int = 2,
    seed: int = 0,
    progress: bool = True,
) -> MixChoice:
    """The lexical weight under which the model adapted on the other folds answers the most
    held-out examples right (ties: the export's own, then the smaller). Each fold is adapted as
    `train paths --qa` adapts (five wrong chains an example, ``seed``)."""
    default = float(json.loads((base / GROUNDING_FILE).read_text(encoding="utf-8")).get("lexical_weight", 0.0))
    tried = sorted({default, *weights})
    right = dict.fromkeys(tried, 0)
    asked = 0
    split = [_folds(items, folds, seed) for _, items in sets]
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(folds):
            examples = [
                e
                for (store, _), parts in zip(sets, split, strict=True)
                for e in examples_for(store, _rest(parts, k), negatives=5, seed=seed, source=f"fold {k + 1}")
            ]
            folder = adapt_grounding(examples, base, Path(tmp) / f"fold{k}") if examples else base
            for (store, _), parts in zip(sets, split, strict=True):
                held = parts[k]
                if not held:
                    continue
                generator = answerer(store, folder)
                paths = generator.planner.paths
                if paths is None or not isinstance(paths.scorer, GroundingPathScorer):
                    raise TrainError(f"{base}: choosing a mix needs a grounding export (model.onnx, grounding.json)")
                for w in tried:
                    paths.scorer.lexical_weight = w
                    answers = generator.answer_many(
                        [it.question for it in held], [[it.topic.id] for it in held], strict=False
                    )
                    right[w] += sum(
                        first_is_gold(list(getattr(a, "predicted", ())), it.answers)
                        for it, a in zip(held, answers, strict=True)
                    )
                asked += len(held)
            if progress:
                print(f"mix: fold {k + 1}/{folds} answered", file=sys.stderr, flush=True)
    weight = max(tried, key=lambda w: (right[w], w == default, -w))
    return MixChoice(weight, default, right, asked)


def _folds(items: Sequence[QAItem], folds: int, seed: int) -> list[list[QAItem]]:
    order = list(items)
    random.Random(seed).shuffle(order)
    return [order[k::folds] for k in range(folds)]


def _rest(parts: Sequence[Sequence[QAItem]], k: int) -> list[QAItem]:
    return [it for j, part in enumerate(parts) if j != k for it in part]
