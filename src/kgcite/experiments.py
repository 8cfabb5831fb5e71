"""KaLMA's two ablations as runners: remove minimum knowledge (§5.2, Table 5 and Figure 4) and
degrade retrieval by swapping in irrelevant graphs (§5.3, Figure 5).

Each condition is a complete resumable run (``kgcite run``'s JSONL, with ``absent_knowledge``
where knowledge was removed) followed by the full evaluation; rows of the paper's table come out.
Conditions are derived deterministically from the seed, so a rerun reproduces and resumes them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgcite.errors import LLMError
from kgcite.evaluate.records.answer_file import AnswerRecord, read_records
from kgcite.evaluate.records.suite import FullEvaluation
from kgcite.generate.pipeline import AttributedAnswer, Generator
from kgcite.kg.keys import TripleKey, canonical_key, canonical_keys
from kgcite.kg.loaders import subgraph_to_biokalma
from kgcite.kg.model import Subgraph
from kgcite.retrieve.base import Retrieval
from kgcite.retrieve.linking import LinkedEntity
from kgcite.runs import append_answers, finished_ids


@dataclass(frozen=True)
class Condition:
    """One item as the generator will see it: its (edited) graph and what was taken out."""

    id: str
    question: str
    graph: Subgraph
    minimum: tuple[TripleKey, ...]
    absent: tuple[TripleKey, ...] | None = None


def items_with_minimum(path: str | Path) -> list[AnswerRecord]:
    """Dataset items (answer-file shape: id, question, kg, minimum_knowledge); items without a
    minimum knowledge set cannot take part and are left out."""
    items = [r for r in read_records(path, answer_field=None) if isinstance(r, AnswerRecord)]
    return [r for r in items if r.minimum]


def remove_knowledge(item: AnswerRecord, k: int, seed: int) -> Condition:
    """Drop ``k`` pieces of the item's minimum knowledge set from its graph (fewer if M is smaller)."""
    rng = random.Random(f"{seed}:{item.id}:remove")
    order = list(item.minimum)
    rng.shuffle(order)  # the same order for every k: removing 2 removes the 1 of k=1 plus one more
    gone = canonical_keys(order[:k])  # M may spell a property otherwise than the graph
    graph = Subgraph(item.graph.entities, tuple(t for t in item.graph.triples if canonical_key(t.key) not in gone))
    return Condition(item.id, item.question, graph, item.minimum, tuple(order[:k]))


def replace_graphs(items: Sequence[AnswerRecord], accuracy: int, seed: int) -> list[Condition]:
    """Keep the gold graph of ``accuracy`` % of the items; the rest get another item's graph.

    Nested: the items swapped at 60 % include those swapped at 80 %."""
    rng = random.Random(f"{seed}:retrieval")
    order = list(range(len(items)))
    rng.shuffle(order)
    n_wrong = round(len(items) * (100 - accuracy) / 100)
    wrong = set(order[:n_wrong])
    out = []
    for i, item in enumerate(items):
        graph = item.graph
        if i in wrong and len(items) > 1:
            own = {e.id for e in item.graph.entities}
            candidates = [j for j in range(len(items)) if j != i and not own & {e.id for e in items[j].graph.entities}]
            pick = random.Random(f"{seed}:{item.id}:donor").choice(
                candidates or [j for j in range(len(items)) if j != i]
            )
            graph = items[pick].graph
        out.append(Condition(item.id, item.question, graph, item.minimum))
    return out


def _retrieval(c: Condition) -> Retrieval:
    linked = tuple(LinkedEntity(e, e.label, "GIVEN", 0) for e in c.graph.entities)
    return Retrieval(c.question, linked, c.graph)


def _record(c: Condition, result: AttributedAnswer | LLMError) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": c.id,
        "question": c.question,
        "kg": subgraph_to_biokalma(c.graph),
        "minimum_knowledge": [list(k) for k in c.minimum],
    }
    if c.absent is not None:
        base["absent_knowledge"] = [list(k) for k in c.absent]
    if isinstance(result, LLMError):
        return {**base, "status": "failed", "error": str(result), "answer": ""}
    return {**base, "status": "ok", "answer": result.answer, "model": result.model, "mode": result.mode}


def answer_conditions(
    generator: Generator,
    conditions: Sequence[Condition],
    out: Path,
    *,
    batch_size: int = 8,
    on_progress: Callable[[int], None] | None = None,
) -> None:
    """Answer the conditions not yet answered in ``out`` (append-only, resumable, as ``kgcite run``)."""
    done_before = len(finished_ids(out) & {c.id for c in conditions})
    if on_progress:
        on_progress(done_before)
    append_answers(
        conditions,
        out,
        lambda batch: generator.generate([_retrieval(c) for c in batch]),
        _record,
        batch_size=batch_size,
        on_progress=(lambda n, _failed: on_progress(n)) if on_progress else None,
    )


def removal_conditions(
    items: Sequence[AnswerRecord], ks: Sequence[int], seed: int
) -> Iterator[tuple[str, list[Condition]]]:
    for k in ks:
        yield f"removed-{k}", [remove_knowledge(it, k, seed) for it in items]


def retrieval_conditions(
    items: Sequence[AnswerRecord], accuracies: Sequence[int], seed: int
) -> Iterator[tuple[str, list[Condition]]]:
    for acc in accuracies:
        yield f"accuracy-{acc}", replace_graphs(items, acc, seed)


def run_experiment(
    conditions: Iterator[tuple[str, list[Condition]]],
    generator: Generator,
    evaluation: FullEvaluation,
    out_dir: Path,
    *,
    batch_size: int = 8,
    on_progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Answer and evaluate every condition; one metrics row per condition (also in ``results.json``)."""
    rows = []
    for name, conds in conditions:
        answers = out_dir / f"{name}.jsonl"
        answer_conditions(generator, conds, answers, batch_size=batch_size, on_progress=on_progress)
        metrics, _ = evaluation.run(read_records(answers), out_dir / f"{name}.eval")
        rows.append({"condition": name, **metrics})
    (out_dir / "results.json").write_text(json.dumps(rows, indent=1) + "\n")
    return rows
