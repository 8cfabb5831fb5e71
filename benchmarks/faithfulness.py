"""Faithfulness of `kgcite ask` (grounded): is every claim true to its citation, is every asked
part answered or flagged [NA], is nothing padded?

Questions: BioKaLMA questions (evenly spaced over both splits) plus the questions of
``benchmarks/data/faithfulness/questions.jsonl`` — written for this benchmark, half over the
shipped BioKaLMA graph, half over a fictional graph of our own (``own_graph.json``): two-part,
lower-case, misspelt, namesakes, relations the graph lacks, summaries — each with the relations
it asks for. Pipelines, in the same run: this tree's default ``ask`` (template sentences), the
same with ``--rewrite`` (SmolLM2 rephrases, kept only when the guard passes), and the pipeline of
an earlier commit (``--baseline-rev``, checked out in a temporary git worktree) with its default
then, the SmolLM2 rewrite.

Scores: pairs the judge (rules + NLI) supports, over all questions; on the written questions,
asked parts answered (a cited triple of the entity and relation) or flagged (an [NA] sentence
naming the relation), padding (cited triples of relations not asked, non-summary questions),
and the right entity linked; p50 seconds per question.

    python benchmarks/faithfulness.py [--bio 200] [--baseline-rev 1d51e42] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kgcite.evaluate.metrics.alignment import alignment_claims, names_gap
from kgcite.evaluate.records.report import format_table
from kgcite.generate.citations import NACitation, ParsedAnswer, Sentence, cite_triples
from kgcite.judge.support import SupportJudge
from kgcite.kg.keys import property_key
from kgcite.kg.model import Entity, Subgraph, Triple
from kgcite.models.nli import load_nli
from kgcite.runs import dataset

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "faithfulness"
ROOT = HERE.parent


def run_pipeline(src: Path, questions: Path, out: Path, *, rewrite: bool) -> list[dict[str, Any]]:
    """Answer with the kgcite under ``src`` (its own process, so an older tree imports cleanly)."""
    cmd = [sys.executable, str(HERE / "faithfulness_run.py"), str(questions), str(DATA / "own_graph.json"), str(out)]
    if not rewrite:
        cmd.append("--no-rewrite")
    subprocess.run(cmd, check=True, env={**os.environ, "PYTHONPATH": str(src)})
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def baseline_tree(rev: str, into: Path) -> Path | None:
    """``rev`` checked out in a temporary worktree; None (and a note) where git cannot."""
    done = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(into), rev],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        print(f"baseline skipped: git worktree add {rev} failed: {done.stderr.strip()}", file=sys.stderr)
        return None
    return into / "src"


def parsed(answer: dict[str, Any]) -> tuple[ParsedAnswer, Subgraph]:
    triples = tuple(Triple(s, sl, r, v, o) for s, sl, r, v, o in answer["retrieved"])
    graph = Subgraph(tuple(Entity(i, label) for i, label in answer["entities"]), triples)
    sentences = tuple(
        Sentence(s["text"], cite_triples(tuple(c) for c in s["citations"]) + ((NACitation(),) if s["na"] else ()))
        for s in answer["sentences"]
    )
    return ParsedAnswer(sentences), graph


def score(answers: Sequence[dict[str, Any]], gold: dict[str, dict[str, Any]], judge: SupportJudge) -> dict[str, Any]:
    claims, per_answer = [], []
    for a in answers:
        p, g = parsed(a)
        cs = alignment_claims(p, g)
        claims.extend(cs)
        per_answer.append((a, p, g))
    verdicts = judge.judge(claims)
    asked = answered = cited_total = padded = linked_right = n_gold = 0
    for a, p, g in per_answer:
        want = gold.get(a["question"])
        if want is None:
            continue
        n_gold += 1
        linked_right += want["entity"] in a["linked"]
        cited = [tuple(c) for s in p.sentences for t in s.cited_triples() if (c := t.key) is not None]
        na_texts = [s.text for s in p.sentences if s.na]
        for group in want["asks"]:
            keys = {property_key(r) for r in group}
            asked += 1
            subject = next((e.label for e in g.entities if e.id == want["entity"]), None)
            answered += any(property_key(c[1]) in keys for c in cited) or any(
                names_gap(t, subject, r) for t in na_texts for r in group
            )
        if not want["summary"]:
            allowed = {property_key(r) for group in want["asks"] for r in group}
            cited_total += len(cited)
            padded += sum(property_key(c[1]) not in allowed for c in cited)
    return {
        "n": len(answers),
        "pairs": len(claims),
        "supported": sum(verdicts) / len(verdicts) if verdicts else None,
        "answered": answered / asked if asked else None,
        "padding": padded / cited_total if cited_total else None,
        "linked": linked_right / n_gold if n_gold else None,
        "rewritten": sum(a["rewritten"] for a in answers),
        "p50": statistics.median(a["seconds"] for a in answers),
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bio", type=int, default=200, help="BioKaLMA questions (evenly spaced over both splits)")
    ap.add_argument(
        "--baseline-rev", default="1d51e42", help="the earlier commit whose pipeline is the baseline ('' to skip)"
    )
    ap.add_argument("--quick", action="store_true", help="a smoke run: 6 + 6 questions, template only, no baseline")
    ap.add_argument("--out", help="keep the answers (JSONL per pipeline) in this folder")
    args = ap.parse_args(argv)
    written = [json.loads(line) for line in (DATA / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    bio_all = dataset("biokalma")
    n_bio = 6 if args.quick else args.bio
    step = max(1, len(bio_all) // max(1, n_bio))
    bio = [{"question": it.question, "graph": "biokalma"} for it in bio_all[::step][:n_bio]]
    if args.quick:
        written = written[:3] + written[50:53]
    gold = {q["question"]: q for q in written}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out) if args.out else Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        qfile = out / "questions.jsonl"
        qfile.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in bio + written), encoding="utf-8")
        runs: dict[str, list[dict[str, Any]]] = {}
        if not args.quick:
            runs["this tree, --rewrite (SmolLM2)"] = run_pipeline(
                ROOT / "src", qfile, out / "rewrite.jsonl", rewrite=True
            )
        runs["this tree, default ask (template)"] = run_pipeline(
            ROOT / "src", qfile, out / "template.jsonl", rewrite=False
        )
        if args.baseline_rev and not args.quick:
            src = baseline_tree(args.baseline_rev, Path(tmp) / "baseline")
            if src is not None:
                try:
                    runs[f"{args.baseline_rev} (before), its default ask (rewrite)"] = run_pipeline(
                        src, qfile, out / "baseline.jsonl", rewrite=True
                    )
                finally:
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(Path(tmp) / "baseline")],
                        check=False,
                    )
    judge = SupportJudge(load_nli(None))
    rows = []
    for name, answers in runs.items():
        for part, subset in (
            ("BioKaLMA", [a for a in answers if a["question"] not in gold]),
            ("written", [a for a in answers if a["question"] in gold]),
            ("all", answers),
        ):
            s = score(subset, gold, judge)
            rows.append(
                (
                    name,
                    part,
                    s["n"],
                    s["pairs"],
                    s["supported"],
                    s["answered"],
                    s["padding"],
                    s["linked"],
                    s["rewritten"],
                    s["p50"],
                )
            )
    print(
        format_table(
            [
                "pipeline",
                "questions",
                "n",
                "pairs",
                "judge-supported",
                "asked parts answered/[NA]",
                "padding",
                "right entity",
                "rewrites kept",
                "p50 s",
            ],
            rows,
        )
    )
    print("\ntargets (default ask): supported >= 0.98, padding <= 0.05, asked parts answered or flagged >= 0.95")


if __name__ == "__main__":
    main()
