"""Append-only JSONL files that survive a kill: read the complete lines, cut only a torn last one,
and let one process at a time append."""

from __future__ import annotations

import fcntl
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from kgcite.errors import InputError


def loads(text: str | bytes) -> Any:
    """``json.loads`` for files and requests from outside: JSON nested too deep (a
    ``RecursionError`` in the decoder) and ``NaN``/``Infinity`` (not JSON, though Python writes
    them) are ``json.JSONDecodeError``s like any other bad input, so every reader reports them
    as one line naming the file and line."""
    doc = text.decode("utf-8") if isinstance(text, bytes) else text

    def constant(name: str) -> Any:
        raise json.JSONDecodeError(f"{name} is not a JSON value", doc, max(0, doc.find(name)))

    try:
        return json.loads(doc, parse_constant=constant)
    except RecursionError:
        raise json.JSONDecodeError("nested too deep", doc, 0) from None


def read_trimmed(path: Path, mark: str, *, cut: bool = True) -> list[dict[str, Any]]:
    """The rows of an output file kgcite appends to: every line a JSON object with an ``id`` and
    the field ``mark`` that this kind of output always writes (``status`` for answers), so an
    input dataset or another command's output is never taken for it and appended to.

    Only a torn last line, the mark of an interrupted write, is cut off, and that is said on
    stderr; a last line that is complete JSON but lacks its newline gets one. Any other line that
    is not kgcite's is an :class:`~kgcite.kg.loaders.InputError` naming it, and nothing is removed:
    kgcite never truncates a file it did not write. ``cut=False`` reads without changing the file
    (a torn last line is left out): what a process may do before it holds the file's lock."""
    from kgcite.errors import InputError

    if not path.exists():
        return []
    if path.is_dir():
        raise InputError(path, None, None, "is a folder, not an output file")
    data = path.read_bytes()
    *lines, tail = data.split(b"\n")
    rows: list[dict[str, Any]] = []
    for lineno, raw in enumerate(lines, 1):
        if raw.strip():
            rows.append(_own_line(path, lineno, raw, mark))
    if tail.strip():
        try:
            rows.append(_own_line(path, len(lines) + 1, tail, mark))
            if cut:
                with path.open("ab") as fh:  # complete, only the newline is missing
                    fh.write(b"\n")
        except InputError:
            if not tail.lstrip().startswith(b'{"id"'):  # kgcite writes the id first: anything else is not its line
                raise
            if not cut:
                return rows
            log.warning("%s: cut a torn last line (%d bytes) left by an interrupted run", path, len(tail))
            with path.open("r+b") as fh:
                fh.truncate(len(data) - len(tail))
    return rows


def _own_line(path: Path, lineno: int, raw: bytes, mark: str) -> dict[str, Any]:
    from kgcite.errors import InputError

    hint = "not a line kgcite wrote for this output; fix or remove it, or choose another output"
    try:
        obj = loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(path, lineno, None, f"invalid UTF-8 at byte {exc.start}: {hint}") from exc
    except json.JSONDecodeError as exc:
        raise InputError(path, lineno, None, f"not JSON ({exc.msg}): {hint}") from exc
    if not isinstance(obj, dict) or "id" not in obj:
        raise InputError(path, lineno, "id", f"not a JSON object with an id: {hint}")
    if mark not in obj:
        raise InputError(path, lineno, mark, f"no {mark!r} field (an input file, or another command's output?): {hint}")
    return obj


def free_name(path: Path) -> Path:
    """``path``, or ``path.1``, ``path.2``… the first that does not exist: a backup never
    overwrites an earlier one."""
    n, candidate = 0, path
    while candidate.exists() or candidate.is_symlink():
        n += 1
        candidate = path.with_name(f"{path.name}.{n}")
    return candidate


@contextmanager
def appending(path: Path, mark: str) -> Iterator[tuple[list[dict[str, Any]], IO[str]]]:
    """An output file opened for appending by this process alone: ``(its rows, the handle)``;
    ``mark``: the field every line of this kind of output has (:func:`read_trimmed`).

    A second kgcite writing the same file fails at once with a clear error (an advisory lock,
    released when the process ends, however it ends), instead of both doing all the work."""

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        _lock_alone(fh, path, "wait for it to finish or choose another output")
        yield read_trimmed(path, mark), fh


def _lock_alone(fh: IO[str], path: Path, advice: str) -> None:
    """Take the output's advisory lock, or fail at once naming the file: another kgcite process holds it."""
    from kgcite.errors import InputError

    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as exc:
        raise InputError(path, None, None, f"another kgcite process is writing this file; {advice}") from exc


def move_aside(path: Path, to: Path) -> None:
    """Rename an output to ``to`` under its lock: an output another kgcite process is writing is
    never moved (``run --force`` once moved a live run's file, and the work was done twice)."""
    with path.open("a", encoding="utf-8") as fh:
        _lock_alone(fh, path, "--force does not move a live run's output")
        path.replace(to)


def text_lines(path: str | Path) -> Iterator[tuple[int, str | InputError]]:
    """Numbered lines of a UTF-8 text file. A line that is not UTF-8 comes as an
    :class:`~kgcite.kg.loaders.InputError` naming file, line and byte, for the caller to raise or
    skip; a missing file or a folder is an InputError at once."""
    from kgcite.errors import InputError

    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below, after the generator is done
    except IsADirectoryError as exc:
        raise InputError(path, None, None, "is a folder, not a file") from exc
    except OSError as exc:
        raise InputError(path, None, None, f"cannot read: {exc.strerror}") from exc
    with fh:
        for lineno, raw in enumerate(fh, 1):
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):  # a byte order mark (Windows editors) is no text
                raw = raw[3:]
            try:
                yield lineno, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield lineno, InputError(path, lineno, None, f"invalid UTF-8 at byte {exc.start}")


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` of every non-blank line of an input file; a line that is not JSON
    is an :class:`~kgcite.kg.loaders.InputError` naming the file and line. Input files are never modified."""
    from kgcite.errors import InputError

    for lineno, line in text_lines(path):
        if isinstance(line, InputError):
            raise line
        if not line.strip():
            continue
        try:
            obj = loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(path, lineno, None, f"not JSON: {exc.msg}") from exc
        if not isinstance(obj, dict):
            raise InputError(path, lineno, None, "expected a JSON object")
        yield lineno, obj
