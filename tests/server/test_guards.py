"""The guards in front of the service, on their own: Host names and request bodies."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from kgcite.server.guards import BodyLimit, KnownHosts, host_name

pytestmark = pytest.mark.fast  # loads no model, starts no server: `pytest -m fast`


def test_host_names_are_read_with_ports_and_ipv6_brackets() -> None:
    assert host_name("[::1]:8000") == "::1" and host_name("[::1]") == "::1"
    assert host_name("LocalHost:8000") == "localhost" and host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("::1") == "::1"  # a bare IPv6 literal has more than one colon: no port to strip


async def _echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A stand-in app that reads the whole body, then answers 200 with its length."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(len(body)).encode()})


def _call(app: Any, messages: list[dict[str, Any]], delay: float, headers: list[tuple[bytes, bytes]]) -> int:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(delay)
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/ask", "headers": headers}

    async def run() -> None:
        try:
            await app(scope, receive, send)
        except Exception as exc:  # noqa: BLE001 - FastAPI turns HTTPException into a response; here we read it
            sent.append({"type": "http.response.start", "status": getattr(exc, "status_code", 500)})

    asyncio.run(run())
    return int(next(m["status"] for m in sent if m["type"] == "http.response.start"))


def test_a_body_that_drips_in_is_refused_with_408() -> None:
    chunks = [{"type": "http.request", "body": b"x", "more_body": True} for _ in range(50)]
    slow = BodyLimit(_echo, limit=1_000, seconds=0.3)
    assert _call(slow, chunks, delay=0.05, headers=[(b"host", b"localhost")]) == 408


def test_a_body_that_arrives_in_time_passes_and_an_oversized_one_is_413() -> None:
    whole = [{"type": "http.request", "body": b"x" * 10, "more_body": False}]
    assert _call(BodyLimit(_echo, limit=1_000, seconds=5), list(whole), 0.0, []) == 200
    big = [{"type": "http.request", "body": b"x" * 2_000, "more_body": False}]
    assert _call(BodyLimit(_echo, limit=1_000, seconds=5), big, 0.0, []) == 413


def test_only_known_hosts_are_answered() -> None:
    whole = [{"type": "http.request", "body": b"", "more_body": False}]
    guarded = KnownHosts(_echo, ["127.0.0.1", "::1"])
    assert _call(guarded, list(whole), 0.0, [(b"host", b"[::1]:8000")]) == 200
    assert _call(guarded, list(whole), 0.0, [(b"host", b"evil.example")]) == 400
