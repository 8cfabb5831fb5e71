"""One worker thread owns the local models; concurrent requests wait in line for it.

llama.cpp, the ONNX sessions and the response cache are loaded once and are not meant to be
driven from many threads at once, so every model call goes through this queue. Requests of the
same kind that are waiting together go to the model as one batch (``answer_many`` batches the
LLM calls), which is what keeps 50 concurrent questions fast on two cores.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any


class QueueFull(RuntimeError):
    """More requests are waiting than the server accepts; the client should retry later."""


class Stopping(RuntimeError):
    """The server is shutting down: requests still waiting are answered 503 at once."""


@dataclass
class _Job:
    key: Hashable
    run: Callable[[Sequence[Any]], Sequence[Any]]
    item: Any
    future: asyncio.Future[Any] = field(repr=False)


class ModelQueue:
    """``await queue.submit(key, run_many, item)`` → ``run_many([item, ...])[i]``, run on the model thread.

    Jobs with the same ``key`` that are waiting when the worker becomes free are run together,
    at most ``max_batch`` at a time, in arrival order. An exception of ``run_many`` fails every
    job of that batch; an exception *returned* in the result list fails only its own job.
    """

    def __init__(self, *, max_batch: int = 8, max_waiting: int = 256) -> None:
        self.max_batch, self.max_waiting = max_batch, max_waiting
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgcite-model")
        self._jobs: deque[_Job] = deque()
        self._wake: asyncio.Event | None = None
        self._worker: asyncio.Task[None] | None = None
        self.batches = 0  # batches run so far, for /health and tests
        self.busy_since: float | None = None  # when the running batch started (time.monotonic), None when idle
        self._stopping = False

    @property
    def waiting(self) -> int:
        return len(self._jobs)

    def busy_for(self) -> float:
        """Seconds the running batch has taken so far (0 when idle): how /health sees a stuck model."""
        return 0.0 if self.busy_since is None else time.monotonic() - self.busy_since

    async def call(self, fn: Callable[[], Any]) -> Any:
        """Run one function on the model thread (loading models, a one-off lookup)."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    def stop(self) -> None:
        """Refuse new jobs and fail those waiting (:class:`Stopping`); the running batch finishes."""
        self._stopping = True
        while self._jobs:
            job = self._jobs.popleft()
            if not job.future.done():
                job.future.set_exception(Stopping("the server is shutting down; retry on another or later"))

    async def submit(self, key: Hashable, run_many: Callable[[Sequence[Any]], Sequence[Any]], item: Any) -> Any:
        if self._stopping:
            raise Stopping("the server is shutting down; retry on another or later")
        if len(self._jobs) >= self.max_waiting:
            raise QueueFull(f"{len(self._jobs)} requests are already waiting for the model; retry later")
        self._ensure_worker()
        job = _Job(key, run_many, item, asyncio.get_running_loop().create_future())
        self._jobs.append(job)
        assert self._wake is not None
        self._wake.set()
        return await job.future

    def _ensure_worker(self) -> None:
        if self._worker is None or self._worker.done():
            self._wake = asyncio.Event()
            self._worker = asyncio.get_running_loop().create_task(self._work())

    def _next_batch(self) -> list[_Job]:
        first = self._jobs.popleft()
        batch, rest = [first], deque[_Job]()
        while self._jobs and len(batch) < self.max_batch:
            job = self._jobs.popleft()
            (batch if job.key == first.key else rest).append(job)
        self._jobs.extendleft(reversed(rest))
        return [j for j in batch if not j.future.cancelled()]  # a client that went away costs nothing

    async def _work(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            if not self._jobs:
                self._wake.clear()
                await self._wake.wait()
                continue
            batch = self._next_batch()
            if not batch:
                continue
            self.busy_since = time.monotonic()
            try:
                results = await loop.run_in_executor(self._executor, batch[0].run, [j.item for j in batch])
            except Exception as exc:  # noqa: BLE001 - handed to every waiting request
                for j in batch:
                    if not j.future.done():
                        j.future.set_exception(exc)
                continue
            finally:
                self.batches += 1
                self.busy_since = None
            for j, r in zip(batch, results, strict=True):
                if j.future.done():
                    continue
                if isinstance(r, BaseException):
                    j.future.set_exception(r)
                else:
                    j.future.set_result(r)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)
