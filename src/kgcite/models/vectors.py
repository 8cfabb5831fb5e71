"""Text vectors kept on disk, by model and text: what one process encodes (``kgcite kg load``
preparing a graph's search) every later one reads instead of encoding again.

A model is named by a fingerprint of its file (:func:`model_fingerprint`), so a retrained export
never reads another model's vectors. The vectors are stored exactly (float32 bytes): an answer
is the same whether a vector came from the model or from here.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from kgcite.errors import disk_full
from kgcite.models.cache import open_cache

log = logging.getLogger(__name__)

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors (model TEXT, text TEXT, vec BLOB, PRIMARY KEY (model, text)) WITHOUT ROWID"
)
#: Fingerprints already computed, by file, size and modification time: hashing a 23 MB model
#: costs 30 ms of every process that searches paths.
_MODELS = "CREATE TABLE IF NOT EXISTS models (file TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, fingerprint TEXT)"
#: Texts read per query (SQLite's bound-parameter limit is far above it).
_CHUNK = 500


def model_fingerprint(path: str | Path, *, max_length: int) -> str:
    """A model file's identity: a hash of its bytes and the input length it is run with."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return f"{digest.hexdigest()[:24]}:{max_length}"


class DiskVectors:
    """One model's vectors in a SQLite file shared by every model and process. The cache only
    saves work: on a full disk it is still read but no longer written (one warning)."""

    def __init__(self, path: str | Path, model: str) -> None:
        self.path, self.model = Path(path), model
        self._db = open_cache(self.path, _SCHEMA, _MODELS, "PRAGMA journal_mode=WAL")
        self._lock = threading.Lock()
        self._writes = True

    @classmethod
    def of_model(cls, path: str | Path, model_file: Path, *, max_length: int) -> DiskVectors:
        """The vectors of the model in ``model_file``, its fingerprint hashed once per version
        of the file (its size and modification time)."""
        out = cls(path, "")
        st = model_file.stat()
        key = (str(model_file.resolve()), st.st_size, st.st_mtime_ns)
        row = out._db.execute(
            "SELECT fingerprint FROM models WHERE file = ? AND size = ? AND mtime_ns = ?", key
        ).fetchone()
        if row is not None and str(row[0]).endswith(f":{max_length}"):
            out.model = str(row[0])
        else:
            out.model = model_fingerprint(model_file, max_length=max_length)
            try:
                out._db.execute("INSERT OR REPLACE INTO models VALUES (?, ?, ?, ?)", (*key, out.model))
            except sqlite3.Error as exc:
                if not disk_full(exc):
                    raise
        return out

    def get(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The vectors kept for any of ``texts``."""
        out: dict[str, np.ndarray] = {}
        with self._lock:
            for i in range(0, len(texts), _CHUNK):
                part = list(texts[i : i + _CHUNK])
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT text, vec FROM vectors WHERE model = ? AND text IN ({marks})", (self.model, *part)
                ).fetchall()
                out.update((text, np.frombuffer(vec, dtype=np.float32)) for text, vec in rows)
        return out

    def put(self, items: Iterable[tuple[str, np.ndarray]]) -> None:
        rows = [(self.model, text, np.asarray(vec, dtype=np.float32).tobytes()) for text, vec in items]
        if not rows:
            return
        with self._lock:
            if not self._writes:
                return
            try:
                self._db.execute("BEGIN")
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if not disk_full(exc):
                    raise
                log.warning("%s: the disk is full; vectors are no longer kept (the run goes on)", self.path)
                self._writes = False

    def close(self) -> None:
        self._db.close()
