"""Cold start of `kgcite ask`: a new process answering one question, p50 over runs.

Two graphs: the shipped BioKaLMA default (no graph option) and a store of at least 100k triples
(MetaQA's movie graph, 134k triples, made by `kgcite kg load`). BioKaLMA's questions come in two
rows: names the graph's labels explain, and names that need spaCy's NER (about half of
BioKaLMA's own questions: a name the labels do not find, or a capitalised word they leave
unexplained), which pay for loading it. Each run is a fresh Python
process with an empty cache folder, timed from start to exit. The baseline, in the same run, is
kgcite as it was before loading became lazy (commit ``--baseline``, extracted with `git archive`;
"n/a" without the project's git history); "same answers" compares each row's printed answers
with this tree's. A second row of this tree runs with ``--path-scorer off`` (no graph search, no
grounding model): the ratio of the two p50s is what the path search costs a cold ``ask``, which
should be nothing for a one-hop question whose relation the topic holds.

    python benchmarks/cold_start.py [--runs 5] [--baseline a49d654] [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from baseline_tree import extract

from kgcite.evaluate.records.report import format_table

ROOT = Path(__file__).resolve().parent.parent
#: The last commit that loaded spaCy, the NLI model and the BioKaLMA JSON on every start.
BASELINE = "a49d654"
#: Questions by how they link: "biokalma" and "store" by the graph's labels alone, "ner" through
#: spaCy's NER ("He" begins no label look-up; "Chinese" and "Li Bai" name nothing in the graph).
QUESTIONS = {
    "biokalma": ["Who was Stephen Crane's father?", "Who was Johnny Cash's spouse?", "Where was Cao Cao born?"],
    "ner": ["Who was He Yan's father?", "Where was the Chinese poet Li Bai born?", "Who was Ian Khama's father?"],
    "store": ["who directed Cast Away", "what genre is Cast Away", "which films did Robert Zemeckis direct"],
}


def ask(src: Path, question: str, graph: Sequence[str], cache: Path) -> tuple[float, str]:
    """Seconds from process start to exit, and the answer printed."""
    env = {**os.environ, "PYTHONPATH": str(src), "KGCITE_CACHE_DIR": str(cache)}
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "kgcite.cli", "ask", *graph, question],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=cache,
        timeout=600,
    )
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"kgcite ask failed ({src}): {out.stderr[-2000:]}")
    return seconds, out.stdout


def make_store(kb: Path, lines: int | None, work: Path) -> tuple[Path, int]:
    """A store of MetaQA's movie graph (its first ``lines`` triples with ``lines``)."""
    graph = work / "movies.txt"
    with kb.open(encoding="utf-8") as f, graph.open("w", encoding="utf-8") as out:
        n = 0
        for line in f:
            if lines is not None and n >= lines:
                break
            out.write(line)
            n += 1
    store = work / "movies-store"
    subprocess.run(
        [sys.executable, "-m", "kgcite.cli", "kg", "load", str(graph), "--store", str(store)],
        check=True,
        capture_output=True,
    )
    return store, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs of each question (default 5)")
    ap.add_argument("--baseline", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="one question per graph, a 20k-triple store: a smoke run, not the figures",
    )
    args = ap.parse_args()
    runs = 1 if args.quick else args.runs
    with tempfile.TemporaryDirectory(prefix="kgcite-cold-") as tmp:
        work = Path(tmp)
        kb = ROOT / "src" / "kgcite" / "data" / "metaqa" / "kb.txt"
        store, triples = make_store(kb, 20_000 if args.quick else None, work)
        (work / "base").mkdir()
        off = ["--path-scorer", "off"]
        versions: dict[str, tuple[Path | None, list[str]]] = {
            "now": (ROOT / "src", []),
            "now, --path-scorer off": (ROOT / "src", off),
            f"{args.baseline} (baseline)": (extract(args.baseline, work / "base"), []),
        }
        graphs = {
            "biokalma": ("BioKaLMA (default)", []),
            "ner": ("BioKaLMA, names that need NER", []),
            "store": (f"MetaQA store, {triples:,} triples", ["--store", str(store)]),
        }
        rows, answers = [], {}
        p50: dict[tuple[str, str], float] = {}
        for version, (src, extra) in versions.items():
            for key, (graph_name, option) in graphs.items():
                if src is None:
                    rows.append((version, graph_name, "n/a", "n/a", "n/a", "no git history"))
                    continue
                times, printed = [], []
                for _ in range(runs):
                    for q in QUESTIONS[key][:1] if args.quick else QUESTIONS[key]:
                        cache = Path(tempfile.mkdtemp(dir=work))
                        seconds, out = ask(src, q, [*extra, *option], cache)
                        times.append(seconds)
                        printed.append(out)
                answers[(version, key)] = printed
                p50[(version, key)] = statistics.median(times)
                same = answers.get(("now", key))
                rows.append(
                    (
                        version,
                        graph_name,
                        statistics.median(times),
                        max(times),
                        len(times),
                        "—"
                        if version == "now"
                        else f"{sum(a == b for a, b in zip(printed, same or []))}/{len(printed)}",
                    )
                )
    print(f"cold start of `kgcite ask` (a new process per question, empty cache folder), {runs} run(s) per question")
    print(format_table(["kgcite", "graph", "p50 s", "max s", "runs", "same answers"], rows))
    ratios = [
        (name, f"{p50[('now', key)] / p50[('now, --path-scorer off', key)]:.2f}")
        for key, (name, _) in graphs.items()
        if ("now", key) in p50 and ("now, --path-scorer off", key) in p50
    ]
    print("\nwhat the path search costs a cold ask (p50 now / p50 with --path-scorer off; target <= 1.2)")
    print(format_table(["graph", "ratio"], ratios))


if __name__ == "__main__":
    main()
