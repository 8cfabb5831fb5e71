"""Which addresses the document fetcher may reach: never an internal one unless allowed by name.

A search engine's results (and the redirects they lead to) are chosen by whoever writes the pages
or steers the query (``site:``); fetching them must not reach the machine's own services or its
private network. A URL is refused when its host resolves to a loopback, private, link-local,
multicast, reserved or unspecified address, on the first request and on every redirect hop, unless
the operator allows the host (by name or address) or a network (``10.0.0.0/8``).

The host is read as the client connects to it (urllib unquotes ``%31%32%37.0.0.2``; the resolver
reads ``2130706433``, ``0x7f.1``, ``localhost.``, ``[fe80::1%lo]``), resolved once, and every
address checked; the connection is then made to a checked address
(:mod:`~kgcite.retrieve.documents.guarded`), so a name that resolves elsewhere a moment later
(DNS rebinding) is not reached either. A name that does not resolve is refused.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import urllib.parse
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _internal(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast or ip.is_reserved or ip.is_unspecified


@dataclass(frozen=True)
class AddressPolicy:
    """``allow``: host names, addresses or networks the fetcher may reach though they are internal."""

    allow: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def allowing(cls, hosts: Iterable[str]) -> AddressPolicy:
        return cls(frozenset(h.strip().lower() for h in hosts if h.strip()))

    def _networks(self) -> list[Network]:
        out = []
        for a in self.allow:
            try:
                out.append(ipaddress.ip_network(a, strict=False))
            except ValueError:
                continue  # a host name
        return out

    def check(self, url: str) -> None:
        """Raise ``ValueError`` (one line: the URL, the address, how to allow it) for a URL the
        fetcher must not request; return for one it may. The host is the one the client will
        connect to (unquoted, brackets and user info dropped)."""
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise ValueError(f"{url}: refused: only http and https pages are fetched")
        try:
            host, port = _client_host(url)
        except ValueError as exc:
            raise ValueError(f"{url}: refused: {exc}") from None
        if not host:
            raise ValueError(f"{url}: refused: no host")
        try:
            self.addresses(host, port or (443 if parts.scheme == "https" else 80))
        except ValueError as exc:
            raise ValueError(f"{url}: {exc}") from None

    def addresses(self, host: str, port: int) -> list[tuple[socket.AddressFamily, socket.SocketKind, int, Any]]:
        """``host``'s addresses to connect to, each checked: ``(family, type, proto, sockaddr)``.
        Raises ``ValueError`` for a host that does not resolve or resolves to an internal
        address not allowed."""
        name = host.lower().rstrip(".")
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError, ValueError) as exc:
            raise ValueError(f"refused: {host} does not resolve ({exc})") from None
        out: list[tuple[socket.AddressFamily, socket.SocketKind, int, Any]] = [
            (family, kind, proto, address) for family, kind, proto, _, address in infos
        ]
        if name in self.allow:
            return out
        networks = self._networks()
        for *_, address in out:
            ip = ipaddress.ip_address(str(address[0]).split("%")[0])
            if _internal(ip) and not any(ip in n for n in networks) and str(ip) not in self.allow:
                raise ValueError(
                    f"refused: {host} is an internal address ({ip}); allow it with --allow-fetch {host} if it is yours"
                )
        return out


def _client_host(url: str) -> tuple[str, int | None]:
    """The host and port urllib and http.client connect to for ``url``: unquoted, user info and
    IPv6 brackets dropped (``http://a@%31%32%37.0.0.1:80`` → ``127.0.0.1``, 80)."""
    request = urllib.request.Request(url)
    host = request.host.rsplit("@", 1)[-1]
    return http.client.HTTPConnection(host)._get_hostport(host, None)  # type: ignore[attr-defined,no-any-return]
