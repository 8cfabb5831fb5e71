"""kgcite's errors: one root, so a caller (and ``main``) can tell kgcite's failures from bugs.

``InputError`` and ``UsageError`` are the user's to fix (a bad file line, options that do not
fit together); ``ModelError`` and ``KGError`` are a model or a store failing at run time;
``TrainError`` is training that cannot start (no train extra, bad labels).
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar


class KgciteError(Exception):
    """The root of every error kgcite raises on purpose."""


class InputError(KgciteError, ValueError):
    """Bad input, located: ``file:line: field: problem``."""

    def __init__(self, path: str | Path, line: int | None, field: str | None, problem: str) -> None:
        self.path, self.line, self.field, self.problem = str(path), line, field, problem
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {field}: {problem}" if field else f"{where}: {problem}")


class UsageError(KgciteError, ValueError):
    """Options that do not fit together, or a required one missing."""

    @classmethod
    def of(cls, option: str, problem: str) -> UsageError:
        """``--option: problem``: the option to change, and why."""
        return cls(f"{option}: {problem}")


class TopicError(UsageError):
    """A topic entity given by id or label that the graph does not hold."""


class ModelError(KgciteError, RuntimeError):
    """A model could not be loaded or run (ONNX export, spaCy package, LLM backend)."""


class LLMError(ModelError):
    """An LLM backend failed to answer (unreachable, timeout, HTTP error, unreadable reply)."""


class KGError(KgciteError, RuntimeError):
    """A store could not answer (endpoint down, bad response, unreadable store)."""


class SearchError(KgciteError, RuntimeError):
    """A web search backend could not answer (down, an HTTP error, a reply that is not its JSON)."""


class TrainError(KgciteError, RuntimeError):
    """Training cannot run here (the train extra is missing, a label is unknown)."""


def disk_full(exc: BaseException) -> bool:
    """An error that means the disk (or the user's quota) is full, however it is raised: ``OSError``
    with ENOSPC/EDQUOT, or a store's or SQLite's own words for it."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    text = str(exc).lower()
    return "no space left on device" in text or "database or disk is full" in text or "disk quota exceeded" in text


T = TypeVar("T")
R = TypeVar("R")
E = TypeVar("E", bound=Exception)


def each_or_error(call: Callable[[T], R], items: Iterable[T], catch: type[E]) -> list[R | E]:
    """``call`` on every item in turn; an item whose call raises ``catch`` gets that error in its
    place, so one failure does not lose the rest of a batch."""
    out: list[R | E] = []
    for item in items:
        try:
            out.append(call(item))
        except catch as exc:
            out.append(exc)
    return out
