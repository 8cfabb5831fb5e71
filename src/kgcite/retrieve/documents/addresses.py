"""Which addresses the document fetcher may reach: never an internal one unless allowed by name.

A search engine's results (and the redirects they lead to) are chosen by whoever writes the pages
or steers the query (``site:``); fetching them must not reach the machine's own services or its
private network. A URL is refused when its host resolves to a loopback, private, link-local,
multicast, reserved or unspecified address, on the first request and on every redirect hop, unless
the operator allows the host (by name or address) or a network (``10.0.0.0/8``).

The check resolves the name just before the request; a name that resolves differently a moment
later (DNS rebinding) is not caught here — put a fetching proxy in front for hostile networks.
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field

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
        fetcher must not request; return for one it may."""
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise ValueError(f"{url}: refused: only http and https pages are fetched")
        host = (parts.hostname or "").lower()
        if not host:
            raise ValueError(f"{url}: refused: no host")
        if host in self.allow:
            return
        try:
            infos = socket.getaddrinfo(host, parts.port or (443 if parts.scheme == "https" else 80))
        except (socket.gaierror, UnicodeError):
            return  # unresolvable: the request itself reports it
        networks = self._networks()
        for info in infos:
            ip = ipaddress.ip_address(str(info[4][0]).split("%")[0])
            if _internal(ip) and not any(ip in n for n in networks) and str(ip) not in self.allow:
                raise ValueError(
                    f"{url}: refused: {host} is an internal address ({ip}); "
                    f"allow it with --allow-fetch {host} if it is yours"
                )
