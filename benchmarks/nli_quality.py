"""Quality of the NLI model and of the support judge on kgcite's held-out sets.

- SICK held-out (pair_ID % 5 == 0): the model's 3-way accuracy.
- MetaQA attribution pairs (a movie graph never trained on, its own phrasing): entailed-or-not
  accuracy and false acceptance (non-entailments called supported) of
  the value-occurs rule (the old verifier), the model alone, value-or-model (the old judge), the
  judge (rules + model), the judge naming the subject in the NLI hypothesis ("Stephen Crane
  place of birth: Newark"), the judge with only the graph's own relation words as cues (no shipped
  paraphrases for that graph: how it does on a graph the lexicon never saw), and the rules alone.
- BioKaLMA attribution pairs: the same rows (the model trained on this graph; the rules did not).
- KaLMA Appendix F: the 23 (sentence, citation) pairs the paper counts as aligned.

    python benchmarks/nli_quality.py [--model SPEC] [--quick]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from kgcite.bench.kalma_examples import answers, crane_graph
from kgcite.evaluate.metrics.alignment import AttributionScorer
from kgcite.evaluate.metrics.classification import binary_accuracy, false_acceptance
from kgcite.evaluate.records.report import format_table
from kgcite.judge.rules import Claim
from kgcite.judge.support import SupportJudge, value_relations
from kgcite.kg.keys import property_key
from kgcite.kg.loaders import read_tsv, shipped_data
from kgcite.kg.model import Triple
from kgcite.models.nli import LABELS, CachedNLI, load_nli
from kgcite.text.lexicon import LEXICON, Lexicon
from kgcite.text.values import states_value
from kgcite.train.nli import score
from kgcite.train.nli_data import LabelledPair, biokalma_triples, kg_pairs, metaqa_pairs, sick_split


def claims_of(pairs: Sequence[LabelledPair], triples: Sequence[Triple]) -> list[Claim]:
    """The pairs as the judge reads them, with the graph's relations for each (subject, value)."""
    held = value_relations(triples)
    ids = {t.subject_label: t.subject_id for t in triples}
    out = []
    for p in pairs:
        relation, _, value = p.hypothesis.partition(": ")
        out.append(
            Claim(
                p.premise,
                p.subject or None,
                relation,
                value,
                "",
                held.get((ids.get(p.subject, p.subject), value), frozenset()),
            )
        )
    return out


def attribution_rows(
    name: str, pairs: list[LabelledPair], triples: list[Triple], model: CachedNLI, foreign: Lexicon
) -> list[tuple]:
    gold = [p.label for p in pairs]
    claims = claims_of(pairs, triples)

    def model_alone() -> list[bool]:  # the second call (old judge) is served by the model's cache
        return [
            r.label == "entailment" for r in model.predict([p.premise for p in pairs], [p.hypothesis for p in pairs])
        ]

    def value() -> list[bool]:
        return [states_value(p.premise, p.hypothesis.split(": ", 1)[-1]) for p in pairs]

    judges: list[tuple[str, Callable[[], list[bool]]]] = [
        ("value-occurs rule (old verifier)", value),
        (f"model alone ({model.name})", model_alone),
        ("value or model (old judge)", lambda: [v or m for v, m in zip(value(), model_alone(), strict=True)]),
        ("judge: rules + model", lambda: SupportJudge(model).judge(claims)),
        (
            "judge, subject named in the NLI hypothesis",
            lambda: SupportJudge(model, subject_in_hypothesis=True).judge(claims),
        ),
        ("judge, graph's own words as cues", lambda: SupportJudge(model, lexicon=foreign).judge(claims)),
        ("rules alone (undecided = no)", lambda: SupportJudge().judge(claims)),
    ]
    rows = []
    for label, run in judges:
        t0 = time.perf_counter()
        supported = run()
        pred = ["entailment" if s else "neutral" for s in supported]
        rows.append(
            (
                name,
                label,
                len(gold),
                binary_accuracy(gold, pred),
                false_acceptance(gold, pred),
                f"{len(gold) / max(time.perf_counter() - t0, 1e-9):.0f}",
            )
        )
    return rows


def appendix_f(model: CachedNLI) -> list[tuple]:
    parsed = answers()
    graphs = [crane_graph(*parsed)] * len(parsed)
    rows = []
    for label, judge in (
        ("model alone", SupportJudge(model, rules=False)),
        ("judge: rules + model", SupportJudge(model)),
        ("rules alone", SupportJudge()),
    ):
        report = AttributionScorer(judge).alignment(parsed, graphs)
        rows.append(("KaLMA Appendix F", label, report.n_pairs, f"{report.n_aligned}/{report.n_pairs}"))
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", help="kgcite (default), hf:PATH, t5:PATH or an ONNX export folder")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="small samples (a smoke run, about 10 s): the numbers are not the reported ones",
    )
    args = ap.parse_args(argv)
    model = load_nli(args.model)
    n = 60 if args.quick else 1500
    sick = sick_split("test")[: 300 if args.quick else None]
    s = score(model, sick)
    print(
        format_table(
            ["test set", "model", "n", "3-way acc", *(f"F1 {label[:3]}" for label in LABELS)],
            [("SICK held-out", model.name, s["n"], s["accuracy"], *(s["f1"][label] for label in LABELS))],
        )
    )
    film = {
        property_key(r)
        for r in (
            "directed_by",
            "written_by",
            "starred_actors",
            "release_year",
            "in_language",
            "has_genre",
            "has_tags",
            "has_imdb_rating",
            "has_imdb_votes",
        )
    }
    metaqa = list(read_tsv(shipped_data("metaqa", "kb.txt")))
    bio = biokalma_triples()
    rows = attribution_rows(
        "MetaQA (held out)",
        metaqa_pairs(n),
        metaqa,
        model,
        Lexicon().extended({k: v for k, v in LEXICON.items() if k not in film}),
    )
    rows += attribution_rows(
        "BioKaLMA",
        kg_pairs(bio, n_premises=n, seed=99, source="biokalma"),
        bio,
        model,
        Lexicon().extended({k: v for k, v in LEXICON.items() if k in film}),
    )
    print()
    print(format_table(["attribution pairs", "judge", "n", "entailed-or-not acc", "false accept", "pairs/s"], rows))
    print()
    print(format_table(["answers", "judge", "pairs", "supported"], appendix_f(model)))
    print("\ntargets: MetaQA judge accuracy >= 0.93, false acceptance <= 0.05; Appendix F >= 21/23; SICK 3-way >= 0.85")


if __name__ == "__main__":
    main()
