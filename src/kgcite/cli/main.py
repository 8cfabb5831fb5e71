"""``kgcite``: the parser of every command, and ``main``, which turns errors into one line."""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from kgcite import __version__
from kgcite.cli import answering, bench, evaluators, quotes, research, retrieve, serve
from kgcite.cli.terminal import printable_streams
from kgcite.errors import InputError, KgciteError, TrainError, UsageError, disk_full


class _Parser(argparse.ArgumentParser):
    """argparse, with a hint where words it did not expect are most likely an unquoted question."""

    def error(self, message: str) -> NoReturn:
        extra = message.removeprefix("unrecognized arguments: ")
        if extra != message and not any(w.startswith("-") for w in extra.split()):
            message += '; text with spaces goes in quotes: kgcite ask "Where was Stephen Crane born?"'
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kgcite",
        description="Verifiable question answering over knowledge graphs: citations to KG triples, [NA], and their metrics.",
    )
    parser.add_argument("--version", action="version", version=f"kgcite {__version__}")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="log what kgcite is doing (models loaded, stores opened)"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ev = answering.register(sub)
    quotes.register_eval(ev)
    research.register(sub, ev)
    retrieve.register(sub)
    bench.register(sub)
    evaluators.register(sub)
    serve.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command. Any :class:`KgciteError` becomes one ``kgcite: error: …`` line, no traceback:
    exit 2 for what the user fixes (input, options, training set-up), 1 for a model or store
    failing at run time (so scripts can retry those)."""
    with printable_streams():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if getattr(args, "verbose", False) else logging.WARNING,
        format="kgcite: %(name)s: %(message)s",
    )
    try:
        return int(args.func(args))
    except (InputError, UsageError, TrainError) as exc:
        print(f"kgcite: error: {exc}", file=sys.stderr)
        return 2
    except KgciteError as exc:
        print(f"kgcite: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C is how a server is stopped: only other commands say it
        if getattr(getattr(args, "func", None), "__name__", "") != "cmd_serve":
            print("kgcite: interrupted; what was finished is kept", file=sys.stderr)
        return 130
    except (FileExistsError, NotADirectoryError) as exc:  # `--out FILE` where a folder is written
        path = Path(str(exc.filename))
        file = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), path)
        print(f"kgcite: error: {file}: is a file where a folder is expected; give a folder", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `kgcite kg show X | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno() if sys.__stdout__ else 1)
        return 0
    except (OSError, sqlite3.Error) as exc:
        if not disk_full(exc):
            raise
        where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
        print(
            f"kgcite: error: the disk is full{where}; free some space and run the same command again: "
            "what was finished is kept and is not done twice",
            file=sys.stderr,
        )
        return 1
