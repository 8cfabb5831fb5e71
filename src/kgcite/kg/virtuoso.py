"""A private Virtuoso on 127.0.0.1: what the tests and the scale benchmark start, and a quick way
to try kgcite over a real SPARQL engine (Debian and Ubuntu: ``apt install virtuoso-opensource``).

The database lives in a folder of its own; the server listens on loopback only, on ports chosen
free. Data goes in either through kgcite (``kgcite kg load FILE --endpoint URL``: SPARQL updates,
for which :meth:`Virtuoso.allow_updates` grants the anonymous SPARQL user the right), or through
Virtuoso's own bulk loader (:meth:`Virtuoso.bulk_load`, for millions of triples).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path
from types import TracebackType
from typing import Self

import httpx

from kgcite.kg.sparql import KGCITE_GRAPH
from kgcite.ports import free_port

#: The Debian/Ubuntu package that provides the server and ``isql-vt``.
PACKAGE = "virtuoso-opensource"
#: The graph kgcite writes into (Virtuoso queries the union of all graphs by default).
GRAPH = KGCITE_GRAPH


def binary() -> str | None:
    """The Virtuoso server program, or None when it is not installed."""
    return shutil.which("virtuoso-t")


class Virtuoso:
    """Start with ``with Virtuoso(folder) as v:``; ``v.endpoint`` is the SPARQL URL.
    ``buffers``: 8 KB pages of cache (Virtuoso's guide: about two thirds of the RAM it may use).
    Queries are refused only by their real time (``query_timeout_s``), not by Virtuoso's cost
    estimate (``MaxQueryCostEstimationTime = 0``), which once put a 60 ms query at 1,181 s."""

    def __init__(self, folder: str | Path, *, buffers: int = 20_000, query_timeout_s: int = 60) -> None:
        exe = binary()
        if exe is None:
            raise FileNotFoundError(f"virtuoso-t is not installed (the Debian/Ubuntu package {PACKAGE})")
        self.exe, self.folder = exe, Path(folder).resolve()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.sql_port, self.http_port = free_port(), free_port()
        self.buffers, self.query_timeout_s = buffers, query_timeout_s
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/sparql"

    def _ini(self) -> Path:
        d = self.folder
        ini = d / "virtuoso.ini"
        ini.write_text(
            f"""[Database]
DatabaseFile = {d}/virtuoso.db
ErrorLogFile = {d}/virtuoso.log
LockFile = {d}/virtuoso.lck
TransactionFile = {d}/virtuoso.trx
xa_persistent_file = {d}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = {d}/virtuoso-temp.db
TransactionFile = {d}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:{self.sql_port}
DisableUnixSocket = 1
MaxClientConnections = 20
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = ., {d}
NumberOfBuffers = {self.buffers}
MaxDirtyBuffers = {self.buffers * 3 // 4}
ThreadsPerQuery = 2
AsyncQueueMaxThreads = 4

[HTTPServer]
ServerPort = 127.0.0.1:{self.http_port}
ServerRoot = {d}
MaxClientConnections = 20
ServerThreads = 20
KeepAliveTimeout = 10
Charset = UTF-8

[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime = {self.query_timeout_s}
"""
        )
        return ini

    def start(self, timeout_s: float = 120.0) -> str:
        """Start the server and wait until its SPARQL endpoint answers; returns its URL."""
        log = open(self.folder / "stdout.log", "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [self.exe, "+foreground", "+configfile", str(self._ini())],
            cwd=self.folder,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"virtuoso-t exited with {self.proc.returncode}: {self.log_tail()}")
            try:
                r = httpx.get(self.endpoint, params={"query": "ASK {}"}, timeout=2)
                if r.status_code == 200:
                    return self.endpoint
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"Virtuoso did not answer within {timeout_s:.0f} s: {self.log_tail()}")

    def log_tail(self, lines: int = 15) -> str:
        log = self.folder / "virtuoso.log"
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) if log.exists() else ""

    def isql(self, sql: str, timeout_s: float = 3600) -> str:
        """Run SQL statements (``;``-separated) as the ``dba`` user through ``isql-vt``."""
        isql = shutil.which("isql-vt") or shutil.which("isql")
        if isql is None:
            raise FileNotFoundError(f"isql-vt is not installed (the Debian/Ubuntu package {PACKAGE})")
        res = subprocess.run(
            [isql, f"127.0.0.1:{self.sql_port}", "dba", "dba", "VERBOSE=OFF", "BANNER=OFF", f"EXEC={sql}"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
        if res.returncode != 0 or "*** Error" in res.stdout + res.stderr:
            raise RuntimeError(f"isql: {(res.stdout + res.stderr).strip()[-500:]}")
        return res.stdout

    def allow_updates(self) -> None:
        """Let the anonymous SPARQL user write (a private, loopback-only server)."""
        self.isql('GRANT SPARQL_UPDATE TO "SPARQL"')

    def bulk_load(self, path: str | Path, graph: str = GRAPH) -> None:
        """Virtuoso's bulk loader on an N-Triples / N-Quads / Turtle file inside the server's folder."""
        p = Path(path).resolve()
        if not p.is_relative_to(self.folder):
            raise ValueError(f"{p}: the bulk loader reads only files under {self.folder}")
        self.isql(
            f"ld_dir('{p.parent}', '{p.name}', '{graph}'); rdf_loader_run(); checkpoint;",
        )

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
