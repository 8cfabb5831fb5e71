"""Start ``kgcite serve`` in a child process and wait until it answers ``/health``: for tests,
benchmarks and scripts that drive the service as a user would."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import httpx

from kgcite.ports import free_port


def kgcite_command() -> list[str]:
    exe = shutil.which("kgcite")
    return [exe] if exe else [sys.executable, "-m", "kgcite.cli"]


@contextmanager
def served(
    args: Sequence[str] = (),
    *,
    port: int | None = None,
    startup_s: float = 180.0,
    host: str = "127.0.0.1",
    output: list[str] | None = None,
    processes: list[subprocess.Popen[str]] | None = None,
) -> Iterator[str]:
    """Yields the base URL of a running ``kgcite serve ARGS`` on ``host``; stops it afterwards
    (as Ctrl-C does) and, with ``output``, appends what it printed; ``processes`` gets the server's
    process (a benchmark reads its memory)."""
    port = port or free_port()
    proc = subprocess.Popen(
        [*kgcite_command(), "serve", "--host", host, "--port", str(port), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    if processes is not None:
        processes.append(proc)
    try:
        deadline = time.monotonic() + startup_s
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read() if proc.stdout else ""
                raise RuntimeError(f"kgcite serve exited with {proc.returncode}:\n{out}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"kgcite serve did not answer /health within {startup_s:.0f} s")
            time.sleep(0.5)
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        if output is not None:
            output.append(out or "")
