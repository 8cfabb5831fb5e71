"""Answers questions with whatever kgcite is on the path (this tree, or an older one checked out
for the baseline) and writes what the faithfulness benchmark scores. Uses only the API that both
have: a ``Runtime`` over a store with the response cache off and ``generator("grounded")`` (built
from a ``RuntimeConfig`` where there is one, from keyword options in a kgcite before it).

    python benchmarks/faithfulness_run.py QUESTIONS.jsonl OWN_GRAPH.json OUT.jsonl [--no-rewrite]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from kgcite.kg import EmbeddedStore
from kgcite.kg.embedded import biokalma_store
from kgcite.runtime import Runtime


def grounded(store: Any, *, rewrite: bool) -> Any:
    """The grounded generator, over whichever kgcite API is on the path."""
    try:
        from kgcite.runtime import RuntimeConfig
    except ImportError:  # a kgcite from before the frozen config
        return Runtime(store=store, cache=None, rewrite=rewrite).generator("grounded")  # type: ignore[call-arg]
    return Runtime(RuntimeConfig(cache=None, rewrite=rewrite), store=store).generator("grounded")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("questions")
    ap.add_argument("own_graph")
    ap.add_argument("out")
    ap.add_argument("--no-rewrite", action="store_true")
    args = ap.parse_args()
    with open(args.questions, encoding="utf-8") as fh:
        items = [json.loads(line) for line in fh]
    own = EmbeddedStore()
    own.load(args.own_graph)
    stores = {"biokalma": biokalma_store()[0], "own": own}
    with open(args.out, "w", encoding="utf-8") as fh:
        for name, store in stores.items():
            todo = [it for it in items if it["graph"] == name]
            if not todo:
                continue
            generator = grounded(store, rewrite=not args.no_rewrite)
            generator.answer(todo[0]["question"])  # load the models before timing
            for it in todo:
                t0 = time.perf_counter()
                a = generator.answer(it["question"])
                secs = time.perf_counter() - t0
                fh.write(
                    json.dumps(
                        {
                            "question": it["question"],
                            "graph": name,
                            "seconds": secs,
                            "rewritten": a.rewritten,
                            "linked": list(a.linked),
                            "sentences": [
                                {
                                    "text": s.text,
                                    "na": s.na,
                                    "citations": [list(t.key) for t in s.cited_triples() if t.key],
                                }
                                for s in a.sentences
                            ],
                            "retrieved": [
                                [t.subject_id, t.subject_label, t.relation, t.object_value, t.object_id]
                                for t in a.retrieved.triples
                            ],
                            "entities": [[e.id, e.label] for e in a.retrieved.entities],
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )


if __name__ == "__main__":
    main()
