"""A response cache in SQLite: the same request to the same model is answered once, ever.

The key is a hash of the backend/model name and the full request, so a changed prompt, sampling
setting or grammar is a new entry while a rerun of a finished experiment costs nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

from kgcite.errors import LLMError, disk_full
from kgcite.models.llm import LLM, ChatRequest, ChatResult

log = logging.getLogger(__name__)


def cache_root() -> Path:
    """kgcite's cache folder: ``$KGCITE_CACHE_DIR``, else ``~/.cache/kgcite``."""
    return Path(os.environ.get("KGCITE_CACHE_DIR") or Path.home() / ".cache" / "kgcite")


def open_cache(path: Path, *statements: str) -> sqlite3.Connection:
    """A cache database at ``path`` with its tables, or, where the disk is full, one in memory
    (said once): a cache only saves work, so it never stops the work."""
    try:
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        for sql in statements:
            db.execute(sql)
        return db
    except (OSError, sqlite3.Error) as exc:
        if not disk_full(exc):
            raise
        log.warning("%s: the disk is full; caching in memory for this run", path)
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        for sql in statements:
            db.execute(sql)
        return db


def cache_write(db: sqlite3.Connection, path: Path, sql: str, row: tuple[str, ...]) -> bool:
    """Write one cache row; False (and one warning) when the disk is full, for the caller to
    stop writing while still reading what is there."""
    try:
        db.execute(sql, row)
        return True
    except sqlite3.Error as exc:
        if not disk_full(exc):
            raise
        log.warning("%s: the disk is full; answers are no longer cached (the run goes on)", path)
        return False


_SCHEMA = "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, request TEXT, result TEXT)"


class CachedLLM:
    """Wraps any :class:`~kgcite.models.llm.LLM`; errors are never cached. The cache is optional:
    on a full disk it is read but no longer written (one warning), and answering goes on."""

    def __init__(self, llm: LLM, path: str | Path) -> None:
        self.llm = llm
        self.path = Path(path)
        self._db = open_cache(self.path, _SCHEMA, "PRAGMA journal_mode=WAL")
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        self._writes = True

    @property
    def name(self) -> str:
        return self.llm.name

    def key(self, request: ChatRequest) -> str:
        return hashlib.sha256(f"{self.llm.name}\n{request.to_json()}".encode()).hexdigest()

    def _get(self, key: str) -> ChatResult | None:
        with self._lock:
            row = self._db.execute("SELECT result FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        data["top_logprobs"] = tuple((str(t), float(lp)) for t, lp in data.get("top_logprobs") or ())
        data["token_logprobs"] = tuple(float(x) for x in data.get("token_logprobs") or ())
        return replace(ChatResult(**data), cached=True)

    def _put(self, key: str, request: ChatRequest, result: ChatResult) -> None:
        data = asdict(result)
        data.pop("extra", None)
        with self._lock:
            if self._writes:
                self._writes = cache_write(
                    self._db,
                    self.path,
                    "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                    (key, self.llm.name, request.to_json(), json.dumps(data)),
                )

    def chat_many(self, requests: Sequence[ChatRequest]) -> list[ChatResult | LLMError]:
        keys = [self.key(r) for r in requests]
        out: list[ChatResult | LLMError | None] = [self._get(k) for k in keys]
        todo = [i for i, r in enumerate(out) if r is None]
        self.hits += len(requests) - len(todo)
        self.misses += len(todo)
        if todo:
            fresh = self.llm.chat_many([requests[i] for i in todo])
            for i, res in zip(todo, fresh, strict=True):
                if isinstance(res, ChatResult):
                    self._put(keys[i], requests[i], res)
                out[i] = res
        return [r for r in out if r is not None]

    def chat(self, request: ChatRequest) -> ChatResult:
        result = self.chat_many([request])[0]
        if isinstance(result, LLMError):
            raise result
        return result

    def close(self) -> None:
        self._db.close()
