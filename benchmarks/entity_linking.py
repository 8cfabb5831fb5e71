"""Entity linking on BioKaLMA: how often the linker finds every entity the dataset authors retrieved.

The store holds all BioKaLMA entities (both splits). For each question with a released graph,
a hit means every QID of that graph is among the linked entities (KaLMA reports 75.9% retrieval
accuracy for its own pipeline), or, in the second row, among the linked entities and the
entities they point to, whose facts the retriever adds to the graph. Baseline in the same run:
NER spans only (no growth of short spans to capitalised runs, no capitalised runs NER missed).

    python benchmarks/entity_linking.py [--limit N] [--quick]
"""

from __future__ import annotations

import argparse
import time

from kgcite.evaluate.records.report import format_table
from kgcite.kg import EmbeddedStore
from kgcite.kg.loaders import read_biokalma, shipped_biokalma
from kgcite.models.ner import Mention, SpacyNER
from kgcite.retrieve.linking import EntityLinker, LinkedEntity, clean_mention
from kgcite.retrieve.question import QuestionAnalyzer


class NerOnlyLinker(EntityLinker):
    """The paper's plain recipe: link exactly the NER spans."""

    def _mentions(self, question: str, mentions: list[Mention]) -> list[tuple[str, str]]:
        return [(clean_mention(m.text), m.label) for m in mentions if clean_mention(m.text)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, help="only the first N questions with a released graph")
    ap.add_argument(
        "--quick", action="store_true", help="the first 40 questions: a smoke run, not the reported numbers"
    )
    args = ap.parse_args()
    if args.quick:
        args.limit = 40
    store = EmbeddedStore()
    for p in shipped_biokalma():
        store.load(p)
    items = [it for p in shipped_biokalma() for it in read_biokalma(p) if it.graph.entities][: args.limit]
    questions = [it.question for it in items]
    ner = SpacyNER().load()
    ner.mentions(questions[:4])  # warm up
    rows = []
    analyzer = QuestionAnalyzer(store.relations())
    asked = [analyzer.analyse(q).relations for q in questions]
    kgcite = EntityLinker(store, ner)
    runs: list[tuple[str, EntityLinker, bool]] = [
        ("kgcite linker", kgcite, False),
        ("kgcite linker + the entities they point to (retrieved)", kgcite, True),
        ("NER spans only (baseline)", NerOnlyLinker(store, ner, fallback=False), False),
    ]
    for name, linker, expand in runs:
        t0 = time.perf_counter()
        links = linker.link_many(questions, asked)
        if expand:
            links = [ls + [LinkedEntity(e, e.label, "", 0) for e in linker.neighbours(ls)] for ls in links]
        ms = (time.perf_counter() - t0) / len(questions) * 1000
        full = sum(
            {e.id for e in it.graph.entities} <= {le.entity.id for le in ls}
            for it, ls in zip(items, links, strict=True)
        )
        some = sum(
            bool({e.id for e in it.graph.entities} & {le.entity.id for le in ls})
            for it, ls in zip(items, links, strict=True)
        )
        extra = sum(
            len({le.entity.id for le in ls} - {e.id for e in it.graph.entities})
            for it, ls in zip(items, links, strict=True)
        )
        rows.append((name, full / len(items), some / len(items), extra / len(items), ms))
    verbatim = sum(all(e.label.lower() in it.question.lower() for e in it.graph.entities) for it in items) / len(items)
    print(f"{len(items)} BioKaLMA questions with a released graph; store: {len(store):,} quads\n")
    print(format_table(["linker", "all QIDs found", "some QID found", "extra entities / q", "ms / question"], rows))
    print(
        f"\nquestions whose released entities are all named verbatim in the question: {verbatim:.3f} "
        "(the rest include entities the question never names)"
    )


if __name__ == "__main__":
    main()
