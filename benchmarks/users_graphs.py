"""Users' own graphs: questions as people ask them, over graphs written as new users write them.

The graphs and questions of ``tests/data`` (publishing, observatory, beekeeping, puppetry, ferries,
squads) were written by people who had seen neither kgcite's code nor its models: relation names
in five or six styles (``writtenBy``, ``PublicationYear``, ``MEMBER_OF``, ``award.won``, ``born
in``), namesakes written "Name (role)", facts left out on purpose, dates in several formats.
``publishing`` is where the rules were developed; the others were each written after the rules
were frozen and measured once. Every question is answered by ``kgcite run`` (as a user runs it)
and graded by :func:`kgcite.evaluate.metrics.graded.graded`: the answer states what was asked,
every citation is a triple of the graph, ``[NA]`` on every missing fact and only there. The
baseline, in the same run, is the commit ``--baseline`` (extracted with `git archive`).

    python benchmarks/users_graphs.py [--baseline 4eb2d5c] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from baseline_tree import extract

from kgcite.evaluate.metrics.graded import graded
from kgcite.evaluate.records.report import format_table
from kgcite.kg.loaders import read_named

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
GRAPHS = ("publishing", "observatory", "beekeeping", "puppetry", "ferries", "squads")
#: The main branch before questions were read once and answers had to be of the kind asked.
BASELINE = "4eb2d5c"


def answer(src: Path, name: str, rows: list[dict[str, object]], work: Path) -> dict[str, dict[str, object]]:
    """`kgcite run` of one graph's questions (ids, questions and any topics) under ``src``."""
    asked = work / f"{name}-{abs(hash(src))}.jsonl"
    keep = ("id", "question", "topic")
    asked.write_text("".join(json.dumps({k: r[k] for k in keep if k in r}) + "\n" for r in rows), encoding="utf-8")
    out = asked.with_suffix(".out.jsonl")
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, "-m", "kgcite.cli", "run", "--dataset", str(asked), "--kg", str(DATA / f"{name}.tsv")]
    res = subprocess.run([*cmd, "--out", str(out)], check=False, capture_output=True, text=True, env=env, timeout=1800)
    if res.returncode != 0:
        raise SystemExit(f"kgcite run failed ({src}, {name}): {res.stderr[-2000:]}")
    return {str(r["id"]): r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    ap.add_argument("--quick", action="store_true", help="a third of the publishing graph's questions: a smoke run")
    ap.add_argument("--show", type=int, default=5, help="misses to print per graph (default 5)")
    args = ap.parse_args()
    graphs = GRAPHS[:1] if args.quick else GRAPHS
    rows, kinds, misses = [], [], []
    with tempfile.TemporaryDirectory(prefix="kgcite-users-") as tmp:
        work = Path(tmp)
        (work / "base").mkdir()
        versions = {"now": ROOT / "src", f"{args.baseline} (baseline)": extract(args.baseline, work / "base")}
        for name in graphs:
            questions = [json.loads(line) for line in (DATA / f"{name}_questions.jsonl").read_text().splitlines()]
            questions = questions[::3] if args.quick else questions  # every kind, a third of them
            triples = {(t.subject_id, t.relation, t.object_value) for t in read_named(DATA / f"{name}.tsv")}
            for version, src in versions.items():
                if src is None:
                    rows.append((name, version, len(questions), "n/a", "n/a", "n/a"))
                    continue
                records = answer(src, name, questions, work)
                why = {str(q["id"]): graded(q, records[str(q["id"])], triples) for q in questions}
                na = [q for q in questions if q.get("expect") == "na"]
                right = sum(w is None for w in why.values())
                na_right = sum(why[str(q["id"])] is None for q in na)
                invented = sum(1 for w in why.values() if w and w.startswith("cites"))
                rows.append(
                    (name, version, len(questions), f"{right / len(questions):.3f}", f"{na_right}/{len(na)}", invented)
                )
                by_kind: Counter[str] = Counter()
                total: Counter[str] = Counter()
                for q in questions:
                    total[str(q.get("kind"))] += 1
                    by_kind[str(q.get("kind"))] += why[str(q["id"])] is None
                kinds += [(name, version, k, f"{by_kind[k]}/{total[k]}") for k in sorted(total)]
                if version == "now":
                    misses += [
                        f"  miss [{name}] {q['question']} -> {why[str(q['id'])]}"
                        for q in questions
                        if why[str(q["id"])]
                    ][: args.show]
    print("users' graphs: right = states what was asked, cites only graph triples, [NA] exactly on missing facts")
    print(format_table(["graph", "kgcite", "n", "right", "[NA] on missing", "invented citations"], rows))
    print()
    print(format_table(["graph", "kgcite", "kind", "right"], kinds))
    print("\n".join(misses))


if __name__ == "__main__":
    main()
