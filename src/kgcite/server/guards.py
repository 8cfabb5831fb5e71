"""What keeps one client from holding the service: Host names, request deadlines, slow senders.

* :class:`KnownHosts` answers only the Host names the server serves (against DNS rebinding),
  IPv6 literals included (``[::1]:8000``; Starlette's own check splits at the first colon).
* :class:`BodyLimit` refuses bodies over a size and bodies that take longer than a deadline to
  arrive (a client sending a byte a second).
* :func:`header_deadline_protocol` closes a connection whose request line and headers have not
  all arrived within a deadline of its opening (slowloris, and connections that send nothing):
  uvicorn's keep-alive timer is reset by every byte, and ASGI middleware runs only once the
  headers are complete; past a number of open connections it closes the oldest idle one.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from fastapi import HTTPException
from fastapi.responses import JSONResponse, PlainTextResponse


def host_name(header: str) -> str:
    """The host of a Host header, without port or IPv6 brackets, lower-case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class KnownHosts:
    """400 for a request whose Host is not one of ``allowed`` (``*``: any)."""

    def __init__(self, app: Any, allowed: Sequence[str]) -> None:
        self.app = app
        self.any = "*" in allowed
        self.allowed = {host_name(h) for h in allowed}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and not self.any:
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            if host_name(host) not in self.allowed:
                await PlainTextResponse("Invalid host header", 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """413 for a body over ``limit`` bytes, whether or not Content-Length says so; 408 for a
    body that has not arrived ``seconds`` after the request began."""

    def __init__(self, app: Any, limit: int, seconds: float) -> None:
        self.app, self.limit, self.seconds = app, limit, seconds

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await JSONResponse({"detail": f"request body over {self.limit:,} bytes"}, 413)(scope, receive, send)
            return
        seen, deadline = 0, time.monotonic() + self.seconds
        done = False

        async def limited() -> dict[str, Any]:
            nonlocal seen, done
            if done:  # the body is in: what is left to receive is the client going away
                message: dict[str, Any] = await receive()
                return message
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError as exc:
                raise HTTPException(408, f"the request body did not arrive within {self.seconds:g} s") from exc
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise HTTPException(413, f"request body over {self.limit:,} bytes")
            done = message.get("type") != "http.request" or not message.get("more_body", False)
            return message

        await self.app(scope, limited, send)


def header_deadline_protocol(seconds: float, max_connections: int = 1000) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request has not been fully announced
    (request line and headers) ``seconds`` after it was opened: one that sends nothing at all is
    closed too (20,000 such connections once used up every file descriptor). Past
    ``max_connections`` open at once, the oldest connection still waiting for its headers is
    closed to make room, so a storm of idle connections never starves ``/health`` or ``/ask``.
    Closings are logged once per ``seconds``, with their count, not once each."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    waiting: OrderedDict[int, HeaderDeadline] = OrderedDict()  # connections without a full request, oldest first
    closed = {"slow": 0, "evicted": 0, "logged_at": 0.0}

    class HeaderDeadline(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def _waiting_for_headers(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()
            if len(self.connections) > max_connections and waiting:
                _, oldest = waiting.popitem(last=False)
                oldest._close("evicted")

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self._waiting_for_headers():
                self._arm()
            super().data_received(data)
            if not self._waiting_for_headers():
                self._disarm()

        def on_response_complete(self) -> None:
            self._disarm()  # the next request on this connection gets its own deadline
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._deadline = self.loop.call_later(seconds, self._too_slow)
            waiting[id(self)] = self

        def _disarm(self) -> None:
            waiting.pop(id(self), None)
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self._waiting_for_headers():
                self._close("slow")

        def _close(self, why: str) -> None:
            self._disarm()
            if self.transport is not None and not self.transport.is_closing():
                self.transport.close()
                closed[why] += 1
            now = self.loop.time()
            if now - closed["logged_at"] >= seconds and (closed["slow"] or closed["evicted"]):
                self.logger.info(
                    "closed %d connection(s) whose request headers took over %g s and %d idle one(s) past %d open",
                    closed["slow"],
                    seconds,
                    closed["evicted"],
                    max_connections,
                )
                closed.update(slow=0, evicted=0, logged_at=now)

    return HeaderDeadline
