"""The model queue's scheduling, with a deterministic batch function (pure logic, no model)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import pytest

from kgcite.server.queue import ModelQueue, QueueFull


class Recorder:
    """A batch function that remembers its batches and the threads it ran on."""

    def __init__(self, delay: float = 0.0) -> None:
        self.batches: list[list[str]] = []
        self.threads: set[int] = set()
        self.delay = delay

    def __call__(self, items: Sequence[str]) -> list[object]:
        import time

        time.sleep(self.delay)
        self.batches.append(list(items))
        self.threads.add(threading.get_ident())
        return [ValueError(i) if i.startswith("bad") else i.upper() for i in items]


def test_waiting_requests_of_one_kind_share_a_batch_in_order() -> None:
    async def main() -> tuple[list[object], Recorder]:
        q, rec = ModelQueue(max_batch=4), Recorder(delay=0.05)
        jobs = [q.submit("k", rec, f"q{i}") for i in range(9)]
        out = await asyncio.gather(*jobs)
        q.close()
        return out, rec

    out, rec = asyncio.run(main())
    assert out == [f"Q{i}" for i in range(9)]
    assert [len(b) for b in rec.batches] == [4, 4, 1]  # the first 4 were waiting together, then 4, then 1
    assert [x for b in rec.batches for x in b] == [f"q{i}" for i in range(9)]
    assert len(rec.threads) == 1 and threading.get_ident() not in rec.threads  # one model thread, not the loop's


def test_kinds_are_never_mixed_and_errors_stay_with_their_request() -> None:
    async def main() -> tuple[list[object], Recorder, Recorder]:
        q, a, b = ModelQueue(max_batch=8), Recorder(), Recorder()
        jobs = [q.submit("a", a, "x1"), q.submit("b", b, "y1"), q.submit("a", a, "bad"), q.submit("a", a, "x2")]
        out = await asyncio.gather(*jobs, return_exceptions=True)
        q.close()
        return out, a, b

    out, a, b = asyncio.run(main())
    assert out[0] == "X1" and out[1] == "Y1" and out[3] == "X2"
    assert isinstance(out[2], ValueError)
    assert all(x.startswith(("x", "bad")) for batch in a.batches for x in batch)
    assert b.batches == [["y1"]]


def test_a_failing_batch_fails_its_requests_and_the_queue_goes_on() -> None:
    def boom(items: Sequence[str]) -> list[str]:
        raise RuntimeError("model crashed")

    async def main() -> tuple[list[object], object]:
        q = ModelQueue()
        out = await asyncio.gather(q.submit("k", boom, "a"), q.submit("k", boom, "b"), return_exceptions=True)
        after = await q.submit("k", Recorder(), "c")
        q.close()
        return out, after

    out, after = asyncio.run(main())
    assert all(isinstance(o, RuntimeError) for o in out) and after == "C"


def test_full_queue_refuses_instead_of_growing() -> None:
    async def main() -> None:
        q = ModelQueue(max_batch=1, max_waiting=2)
        first = [asyncio.ensure_future(q.submit("k", Recorder(delay=0.2), str(i))) for i in range(2)]
        await asyncio.sleep(0)  # both are waiting now
        with pytest.raises(QueueFull):
            await q.submit("k", Recorder(), "one too many")
        assert await asyncio.gather(*first) == ["0", "1"]
        q.close()

    asyncio.run(main())


def test_a_running_batch_shows_how_long_the_model_has_been_busy() -> None:
    async def main() -> tuple[float, float]:
        q = ModelQueue()
        task = asyncio.create_task(q.submit("k", Recorder(delay=0.6), "a"))
        await asyncio.sleep(0.3)
        during = q.busy_for()
        await task
        return during, q.busy_for()

    during, after = asyncio.run(main())
    assert during >= 0.2 and after == 0.0  # /health answers 503 "stuck" past ServeConfig.stuck_after_s


def test_a_request_its_client_abandoned_is_never_run() -> None:
    async def main() -> list[list[str]]:
        q = ModelQueue(max_batch=1)
        slow = Recorder(delay=0.3)
        first = asyncio.create_task(q.submit("k", slow, "first"))
        await asyncio.sleep(0.05)  # "first" is running; the next two wait
        gone = asyncio.create_task(q.submit("k", slow, "gone"))
        kept = asyncio.create_task(q.submit("k", slow, "kept"))
        await asyncio.sleep(0.05)
        gone.cancel()  # the client disconnected: the server cancels its handler
        await first
        await kept
        return slow.batches

    assert asyncio.run(main()) == [["first"], ["kept"]]
