"""What every command shares: the graph and models its options name, the option groups
themselves (defined once), and how an answer is printed."""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from kgcite.errors import InputError, UsageError
from kgcite.generate.citations import attach_marks
from kgcite.generate.pipeline import AttributedAnswer
from kgcite.kg import EmbeddedStore, SparqlStore, open_store
from kgcite.kg.embedded import biokalma_store, is_store
from kgcite.runtime import PathScorer, Runtime, RuntimeConfig, default_cache_path, path_scorer_spec
from kgcite.text.lexicon import property_label


def positive_int(text: str) -> int:
    """An argparse type: a whole number of 1 or more ("--batch-size 0" would loop or divide by zero)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0 ("--timeout 0" or "nan" would never
    wait or never stop)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds above 0, got {text}")
    return value


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free port) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {value}")
    return value


def open_kg(location: str) -> SparqlStore:
    """A store folder (opened read-only) or a graph file in any loader format (loaded in memory)."""
    path = Path(location)
    if path.is_dir():
        return open_store(path, read_only=True)
    if not path.exists():
        raise InputError(location, None, None, "no such graph file or store folder")
    store = EmbeddedStore()
    t0 = time.perf_counter()
    n = store.load(path)
    if not n:  # every answer would be "no entity found": say why now
        raise InputError(location, None, None, "holds no facts (every line is blank, a # comment or a header)")
    print(f"loaded {path.name}: {n:,} quads in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return store


def shipped_biokalma_store(location: str | None, *, quiet: bool = False) -> EmbeddedStore:
    """The shipped BioKaLMA graph, saying whether it was loaded or reopened."""
    t0 = time.perf_counter()
    store, n = biokalma_store(location)
    if not quiet and n:
        print(
            f"loaded BioKaLMA into {location or 'memory'}: {n:,} quads read, {len(store):,} stored, "
            f"{time.perf_counter() - t0:.2f} s",
            file=sys.stderr,
        )
    elif not quiet:
        print(f"reopened {location}: {len(store):,} quads, nothing reloaded", file=sys.stderr)
    return store


def open_graph(args: argparse.Namespace) -> SparqlStore:
    if getattr(args, "kg", None):
        if getattr(args, "store", None) or getattr(args, "endpoint", None):
            raise UsageError.of("--kg", "give one graph: --kg, --store or --endpoint")
        return open_kg(args.kg)
    if getattr(args, "endpoint", None):
        return open_store(args.endpoint, args.scheme)
    if getattr(args, "store", None):
        if not is_store(args.store):  # reading never makes a store where there was none
            what = "no such store folder" if not Path(args.store).exists() else "not a kgcite store"
            raise InputError(args.store, None, None, f"{what} (create one with `kgcite kg load FILE --store DIR`)")
        return open_store(args.store, args.scheme)
    return shipped_biokalma_store(None, quiet=True)


def runtime_from_args(
    args: argparse.Namespace, *, graph: bool = True, path_scorer: PathScorer | None = None
) -> Runtime:
    """The Runtime of any command; options a command does not declare keep their defaults.
    ``graph=False``: the command reads its graph itself, so the options' graph is not opened again;
    ``path_scorer``: the command's own choice over ``--path-scorer``."""
    store = None
    if graph and (getattr(args, "endpoint", None) or getattr(args, "store", None) or getattr(args, "kg", None)):
        store = open_graph(args)
    config = RuntimeConfig(
        model=args.model,
        base_url=args.base_url,
        cache=None if args.no_cache else default_cache_path(),
        rewrite=bool(getattr(args, "rewrite", False)),
        constrained=getattr(args, "constrained", False),
        concurrency=getattr(args, "concurrency", 8),
        timeout=getattr(args, "timeout", 60.0),
        nli_model=getattr(args, "nli", None),
        verifier="rules" if getattr(args, "no_nli", False) else "nli",
        reranker_model=getattr(args, "reranker", None),
        path_scorer=path_scorer or path_scorer_spec(getattr(args, "path_scorer", None)),
        choose=getattr(args, "choose", None) or "score",
    )
    return Runtime(config, store=store)


#: Repairs a reader needs beside the answer: how a name was linked, what a long list left out.
_SHOWN_NOTES = ("linked ", "statements: ", "paths: ")


def format_attributed(answer: AttributedAnswer) -> str:
    """The answer with numbered citation marks and, below, each number's triple in words."""
    numbers: dict[tuple[str, str, str], int] = {}
    by_key = {t.key: t for t in answer.retrieved.triples}
    lines = []
    for sentence in answer.sentences:
        marks = "".join(
            f"[{numbers.setdefault(k, len(numbers) + 1)}]" for t in sentence.cited_triples() if (k := t.key)
        )
        lines.append(attach_marks(sentence.text, marks + ("[NA]" if sentence.na else "")))
    shown = (answer.path or {}).get("shown", len(answer.predicted))
    rest = list(answer.predicted[shown:])
    if rest:
        names = ", ".join(rest[:5]) + (f" and {len(rest) - 5} more" if len(rest) > 5 else "")
        noun = "answer" if len(rest) == 1 else "answers"
        lines.append(f"(… and {len(rest)} more {noun} along the same path: {names}; all with their triples in --json.)")
    out = [" ".join(lines), ""]
    for key, n in numbers.items():
        t = by_key.get(key)
        subject = key[0] if t is None or t.subject_label == key[0] else f"{t.subject_label} ({key[0]})"
        out.append(f"[{n}] {subject} · {property_label(key[1])} · {key[2]}")
    if any(s.na for s in answer.sentences):
        out.append("[NA] the knowledge graph does not hold this")
    out += [f"note: {r}" for r in answer.repairs if r.startswith(_SHOWN_NOTES)]
    return "\n".join(out).rstrip()


def scheme_option(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--scheme", choices=["generic", "wikidata"], default="generic", help=f"{help} (default generic)")


def store_options(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--store", metavar="DIR", help="embedded store folder (default: the shipped BioKaLMA graph, in memory)"
    )
    where.add_argument("--endpoint", metavar="URL", help="a SPARQL 1.1 query endpoint instead of an embedded store")
    scheme_option(p, "IRI spelling of entities and relations (wikidata: wd:/wdt: with rdfs:label)")


#: What ``--kg`` takes, wherever it is offered.
GRAPH_FILE = "a graph file (.json BioKaLMA, .txt/.tsv head|relation|tail or tab-separated, .nt/.ttl/.nq/.trig)"


def kg_option(p: argparse.ArgumentParser, *, required: bool = False) -> None:
    p.add_argument(
        "--kg", required=required, metavar="FILE|DIR", help=f"{GRAPH_FILE}, loaded in memory, or a store folder"
    )


def nli_option(p: argparse.ArgumentParser, role: str, *, without: str | None = None) -> None:
    """``--nli``: the spec :func:`~kgcite.models.nli.load_nli` reads; ``role`` says what the model does
    here. ``without``: the help of ``--no-nli``, for commands that can do without the model."""
    p.add_argument(
        "--nli",
        metavar="SPEC",
        help=f"{role}: kgcite (the shipped model, default), hf:PATH, t5:PATH, or an ONNX export folder",
    )
    if without:
        p.add_argument("--no-nli", action="store_true", help=without)


def json_option(p: argparse.ArgumentParser, what: str = "one JSON object instead of a table") -> None:
    p.add_argument("--json", action="store_true", help=f"print {what}")


def graph_options(p: argparse.ArgumentParser) -> None:
    """After :func:`_model_options`: a graph file loaded in memory, and how relation paths are scored."""
    kg_option(p)
    p.add_argument(
        "--path-scorer",
        metavar="NAME|DIR",
        default=None,
        help="multi-hop questions: grounding (default; the shipped model), zero-shot (no trained model), off "
        "(one-hop answers only), or a `kgcite train paths` export folder",
    )
    p.add_argument(
        "--choose",
        choices=["score", "llm"],
        default="score",
        help="which relation chain answers a multi-hop question: score (default; the path scorer's best, no LLM "
        "call) or llm (the LLM, --base-url or the embedded model, picks among the 5 best chains the graph walks "
        "that clear the scorer's [NA] threshold, or none, in one grammar-constrained call; citations are the "
        "chain's triples either way)",
    )


def model_options(p: argparse.ArgumentParser) -> None:
    """Options of the commands that answer questions: how, with which LLM, over which graph."""
    answer_options(p)
    llm_options(p)
    store_options(p)


def answer_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--mode",
        choices=["grounded", "free"],
        default="grounded",
        help="grounded (default): one sentence per asked relation, citing it by construction, [NA] for what the graph lacks; free: KaLMA's baseline prompt + repair",
    )
    rw = p.add_mutually_exclusive_group()
    rw.add_argument(
        "--rewrite",
        action="store_true",
        help="let the LLM phrase the answer: grounded template sentences (kept only if the judge supports every "
        "citation and nothing is added) or, with --source docs|both, the composed answer (kept only if a citation "
        "survives verification); off by default: no text is generated that could be thrown away",
    )
    rw.add_argument(
        "--no-rewrite",
        action="store_true",
        help="no LLM phrasing (the default): grounded answers stay template text, document answers are extractive",
    )
    p.add_argument(
        "--constrained",
        action="store_true",
        help="free mode: a GBNF grammar lets the model cite only retrieved triples or [NA]",
    )


def llm_options(p: argparse.ArgumentParser) -> None:
    """Which LLM, embedded or on a server, and how it is called."""
    p.add_argument(
        "--model",
        metavar="GGUF|NAME",
        help="a GGUF file for embedded llama.cpp (default: SmolLM2-135M-Instruct), or the model name with --base-url",
    )
    p.add_argument(
        "--base-url",
        metavar="URL",
        help="an OpenAI-compatible server (vLLM, llama.cpp, Ollama, OpenAI); key from $OPENAI_API_KEY",
    )
    p.add_argument(
        "--no-cache", action="store_true", help="do not read or write the response cache ($KGCITE_CACHE_DIR)"
    )
    p.add_argument("--concurrency", type=positive_int, default=8, help="concurrent requests to a server (default 8)")
    p.add_argument("--timeout", type=positive_seconds, default=60.0, help="seconds per server request (default 60)")


def unit_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--precision-unit",
        choices=["citation", "distinct"],
        default="citation",
        help="count precision hits per citation (paper) or once per distinct knowledge (authors' scripts); default citation",
    )
    json_option(p)
