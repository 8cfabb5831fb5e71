"""HTTP(S) that reaches only the addresses the policy allows, and gives up at one deadline.

The address is checked where the client connects, not where the URL is read: urllib unquotes the
host (``%31%32%37.0.0.2``), the resolver reads ``2130706433``, ``0x7f.1`` and ``localhost.``, and
a redirect or a site's robots.txt is a new connection. So each connection resolves its host once,
checks every address (:meth:`AddressPolicy.addresses`), and connects to a checked address: no
second resolution, and a name that does not resolve is refused (fail closed).

A socket timeout bounds each read only, so a server that drips its status line and headers a
byte at a time is never cut off by it. A :class:`Deadline` is one wall clock per fetch, headers
and redirects included: at its end every connection of the fetch is shut.
"""

from __future__ import annotations

import functools
import http.client
import socket
import threading
import time
import urllib.request
from typing import Any, Self

from kgcite.retrieve.documents.addresses import AddressPolicy


class Deadline:
    """One fetch's wall clock: :meth:`left` for each blocking step, and at the end every socket
    :meth:`watch`-ed is shut, so a read blocked on a dripping server returns at once."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.expired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, seconds), self._expire)
        self._timer.daemon = True
        self._timer.start()

    @property
    def passed(self) -> bool:
        """Whether the fetch is out of time (a read that timed out at the very end counts)."""
        return self.expired or time.monotonic() >= self.end - 0.05

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            self.expired = True
            raise TimeoutError("the fetch deadline passed")
        return left

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            if self.expired:
                _shut(sock)
            self._socks.append(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._socks:
                _shut(sock)

    def cancel(self) -> None:
        self._timer.cancel()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _connect(host: str, port: int, policy: AddressPolicy, deadline: Deadline) -> socket.socket:
    """A socket connected to a checked address of ``host`` (the first that answers)."""
    last: OSError | None = None
    for family, kind, proto, address in policy.addresses(host, port):
        sock = socket.socket(family, kind, proto)
        deadline.watch(sock)
        try:
            sock.settimeout(deadline.left())
            sock.connect(address)
            return sock
        except OSError as exc:
            sock.close()
            last = exc
    raise last or OSError(f"{host}: no address to connect to")


class _HTTP(http.client.HTTPConnection):
    def __init__(self, *args: Any, policy: AddressPolicy, deadline: Deadline, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.policy, self.deadline = policy, deadline

    def connect(self) -> None:
        self.sock = _connect(self.host, self.port, self.policy, self.deadline)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _HTTPS(http.client.HTTPSConnection):
    def __init__(self, *args: Any, policy: AddressPolicy, deadline: Deadline, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.policy, self.deadline = policy, deadline

    def connect(self) -> None:
        sock = _connect(self.host, self.port, self.policy, self.deadline)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]
        self.deadline.watch(self.sock)


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, policy: AddressPolicy, deadline: Deadline) -> None:
        super().__init__()
        self.policy, self.deadline = policy, deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_HTTP, policy=self.policy, deadline=self.deadline), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, policy: AddressPolicy, deadline: Deadline) -> None:
        super().__init__()
        self.policy, self.deadline = policy, deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        connection = functools.partial(_HTTPS, policy=self.policy, deadline=self.deadline)
        return self.do_open(connection, req, context=self._context)  # type: ignore[attr-defined]


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    """Every redirect hop passes the address policy before it is followed, and goes to http or
    https only (urllib would follow one to ``ftp://``, whose connection is not checked)."""

    def __init__(self, policy: AddressPolicy) -> None:
        self.policy = policy

    def redirect_request(  # type: ignore[no-untyped-def]
        self, req, fp, code, msg, headers, newurl
    ) -> urllib.request.Request | None:
        self.policy.check(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def opener(policy: AddressPolicy, deadline: Deadline) -> urllib.request.OpenerDirector:
    """An opener whose every connection (redirects too) goes only where ``policy`` allows, and
    is shut when ``deadline`` passes. No proxy: a proxy would connect on our behalf unchecked.
    The redirect handler replaces urllib's own (given to ``build_opener``, not added after it,
    where urllib's would answer first)."""
    return urllib.request.build_opener(
        urllib.request.ProxyHandler({}),
        _HTTPHandler(policy, deadline),
        _HTTPSHandler(policy, deadline),
        _CheckedRedirects(policy),
    )
