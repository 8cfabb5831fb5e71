"""``kgcite ask --source docs|both`` and ``kgcite eval quotes``: EWEK-QA's quote citations."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kgcite.cli.common import json_option, nli_option, positive_int
from kgcite.errors import InputError, UsageError
from kgcite.evaluate.records.report import format_table, format_timings
from kgcite.generate.citations import attach_marks, format_citation
from kgcite.jsonl import read_jsonl
from kgcite.runtime import Runtime

if TYPE_CHECKING:  # the composer loads with the first quoted answer: a plain ask starts faster
    from kgcite.generate.compose import QuotedAnswer


def format_quoted(answer: QuotedAnswer) -> str:
    """The answer with its ``[n]`` marks, then each quote it was given (cited ones marked *)."""
    lines = [attach_marks(s.text, "".join(format_citation(c) for c in s.citations)) for s in answer.sentences]
    cited = {c for s in answer.sentences for c in s.citations}
    out = [" ".join(lines), ""]
    for q in answer.quotes:
        star = "*" if any(getattr(c, "index", None) == q.index for c in cited) else " "
        text = q.text if len(q.text) <= 300 else q.text[:297] + "..."
        out.append(f"{star}[{q.index}] {q.source}: {text}")
    if any(s.na for s in answer.sentences):
        out.append(" [NA] no quote supports this sentence")
    return "\n".join(out).rstrip()


def cmd_ask_quotes(args: argparse.Namespace, runtime: Runtime) -> int:
    if args.source in ("docs", "both") and not (args.docs or args.search_url):
        raise UsageError.of("--docs", f"--source {args.source} needs documents: --docs FILE|DIR or --search-url URL")
    documents = (
        runtime.documents(
            args.docs or (),
            search_url=args.search_url,
            extractor=args.extractor,
            top_k=args.quotes,
            robots=not args.ignore_robots,
            allow_hosts=args.allow_fetch or (),
        )
        if args.source in ("docs", "both")
        else None
    )
    answerer = runtime.quote_answerer(args.source, documents)
    try:
        answer = answerer.answer(args.question, args.topic or None)
    except InputError:
        raise  # a --docs file or folder that is not there: its own error, not the topic's
    except ValueError as exc:  # an unknown --topic
        raise UsageError.of("--topic", str(exc)) from exc
    if args.json:
        print(json.dumps(answer.to_dict(), ensure_ascii=False, indent=None if args.jsonl else 2))
    else:
        print(format_quoted(answer))
        print(f"\n{args.source} · {answer.model} · {format_timings(answer.timings)}", file=sys.stderr)
    return 0


def add_quote_options(ask: argparse.ArgumentParser) -> None:
    ask.add_argument(
        "--source",
        choices=["kg", "docs", "both"],
        default="kg",
        help="kg (default): KaLMA triple citations; docs or both: EWEK-QA quote citations [n] "
        "(with both, the ToG-E triples are quote 1)",
    )
    ask.add_argument(
        "--docs", action="append", metavar="FILE|DIR", help="HTML/text files or folders to quote (repeatable)"
    )
    ask.add_argument(
        "--search-url", metavar="URL", help="a SearXNG instance (JSON API) to find web pages for the question"
    )
    ask.add_argument(
        "--allow-fetch",
        action="append",
        metavar="HOST|NETWORK",
        help="let search results on this internal host or network be fetched (repeatable; loopback, private "
        "and link-local addresses are refused otherwise)",
    )
    ask.add_argument(
        "--ignore-robots",
        action="store_true",
        help="fetch search results even where a site's robots.txt disallows kgcite (your own servers)",
    )
    ask.add_argument(
        "--extractor",
        choices=["window", "llm", "both", "none"],
        default="window",
        help="evidence extractor beside the paragraph splitter (default: bi-encoder sentence windows)",
    )
    ask.add_argument(
        "--reranker", metavar="SPEC", help="cross-encoder: kgcite (default), hf:PATH, an ONNX folder, or none"
    )
    ask.add_argument("--quotes", type=positive_int, default=5, help="document quotes given to the composer (default 5)")
    ask.add_argument(
        "--topic", action="append", metavar="ENTITY", help="ToG-E topic entity (id or label); default: linked"
    )
    ask.add_argument("--jsonl", action="store_true", help="with --json: one line per answer, to append to a file")


def cmd_eval_quotes(args: argparse.Namespace) -> int:
    from kgcite.evaluate.metrics.quotes import quote_report
    from kgcite.generate.compose import quoted_answer_from_dict
    from kgcite.judge.quotes import NLIQuoteVerifier
    from kgcite.models.nli import load_nli

    answers: list[QuotedAnswer] = []
    path = Path(args.answers)
    if not path.exists():
        raise InputError(args.answers, None, None, "no such answers file")
    for lineno, obj in read_jsonl(path):
        answers.append(quoted_answer_from_dict(obj, args.answers, lineno))
    report = quote_report(answers, NLIQuoteVerifier(None if args.no_nli else load_nli(args.nli)))
    if args.json:
        print(json.dumps(report.to_dict()))
        return 0

    def pct(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}"

    rows = [
        ("answers", str(report.answers)),
        (
            "citation validity (as written)",
            f"{pct(report.validity)} ({report.written - report.invalid}/{report.written})",
        ),
        ("alignment as written", f"{pct(report.written_alignment)} ({report.written_aligned}/{report.written_pairs})"),
        ("alignment as returned", f"{pct(report.alignment)} ({report.aligned}/{report.pairs})"),
        ("extractive answers", str(report.extractive)),
    ]
    rows += [(f"cites {k.replace('_', ' ')}", f"{v:.3f} ({report.sources[k]})") for k, v in report.shares().items()]
    print(format_table(["quote citations", "value"], rows))
    return 0


def register_eval(ev: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    q = ev.add_parser(
        "quotes",
        help="quote citations [n]: validity, NLI alignment, and the share of answers citing KG vs document quotes",
        description="Each JSONL line is an answer of `kgcite ask --source docs|both --json --jsonl`.",
    )
    q.add_argument(
        "--answers",
        required=True,
        metavar="FILE.jsonl",
        help="quoted answers: `kgcite ask --source docs|both --json --jsonl` lines",
    )
    nli_option(q, "NLI model", without="verbatim containment only")
    json_option(q)
    q.set_defaults(func=cmd_eval_quotes)
