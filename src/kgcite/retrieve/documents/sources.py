"""Where documents come from: local files and folders, or a web search backend; fetched in
parallel and parsed once, with the parsed text kept in a SQLite cache.

A local file's cache key includes its size and modification time, so an edited file is read
again; a URL is fetched once per cache. Network backends are optional: nothing here is needed
to answer from local documents.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import urllib.robotparser
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from kgcite.errors import InputError, SearchError
from kgcite.jsonl import loads
from kgcite.models.cache import cache_write, open_cache
from kgcite.retrieve.documents.addresses import AddressPolicy
from kgcite.retrieve.documents.guarded import Deadline, opener
from kgcite.retrieve.documents.html import html_to_text, looks_like_html
from kgcite.retrieve.documents.model import Document

TEXT_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".txt", ".md", ".text"})
#: Bytes read of one file or page (streamed: a bigger one is never held whole).
MAX_BYTES = 5_000_000
#: Characters of text kept of one document after parsing: 5 MB of prose took 412 s to rank for
#: one question; this much (about 30,000 words) ranks in seconds.
MAX_TEXT = 200_000
USER_AGENT = "kgcite/0.1 (+research; document retrieval)"


def parse(source: str, raw: str, *, as_html: bool | None = None) -> Document:
    """A document from raw file or page content (HTML when told, or when it looks like it)."""
    if as_html if as_html is not None else looks_like_html(raw):
        title, text = html_to_text(raw)
    else:
        lines = [" ".join(ln.split()) for ln in raw.splitlines()]
        text, title = "\n".join(ln for ln in lines if ln), ""
    return Document(source, title or Path(urllib.parse.urlparse(source).path).name or source, text[:MAX_TEXT])


def _own(f: Path, root: Path) -> bool:
    """A regular file of the folder's own: its real path inside it, and no other name on the disk
    (a hard link to a file elsewhere has no path outside to see, so any second name is refused)."""
    return f.is_file() and f.resolve().is_relative_to(root) and f.stat().st_nlink == 1


def local_files(paths: Iterable[str | Path]) -> list[Path]:
    """The given files, and every HTML/text file under the given folders, in a stable order. A
    link inside a folder to a file outside it (symbolic or hard) is left out: serving a folder
    never serves the rest of the disk."""
    out: list[Path] = []
    for given in paths:
        if str(given).startswith(("http://", "https://")):
            raise InputError(str(given), None, None, "--docs reads files and folders; web pages come from --search-url")
        p = Path(given)
        if p.is_dir():
            root = p.resolve()
            out.extend(sorted(f for f in p.rglob("*") if f.suffix.lower() in TEXT_SUFFIXES and _own(f, root)))
        elif p.is_file():
            out.append(p)
        else:
            raise InputError(str(p), None, None, "no such document file or folder")
    return out


def read_local(path: Path) -> Document:
    """A local file's first :data:`MAX_BYTES`, read without loading the rest."""
    with path.open("rb") as f:
        raw = f.read(MAX_BYTES).decode("utf-8", errors="replace")
    return parse(str(path), raw, as_html=path.suffix.lower() in (".html", ".htm", ".xhtml") or None)


class RobotsRules:
    """Each site's robots.txt, read once and obeyed for kgcite's user agent, so a retriever
    pointed at the open web fetches only what the site allows. Thread-safe."""

    def __init__(self, user_agent: str = USER_AGENT, timeout: float = 10.0) -> None:
        self.user_agent, self.timeout = user_agent, timeout
        self._sites: dict[str, urllib.robotparser.RobotFileParser] = {}
        self._site_locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def allowed(self, url: str, policy: AddressPolicy | None = None) -> bool:
        """Whether the site's rules let kgcite fetch ``url``; robots.txt is read under ``policy``
        (the page's own: its redirects reach no internal host either)."""
        parts = urllib.parse.urlsplit(url)
        site = f"{parts.scheme}://{parts.netloc}"
        with self._lock:
            site_lock = self._site_locks.setdefault(site, threading.Lock())
        with site_lock:  # pages of one site fetched in parallel wait for one read of its rules
            if site not in self._sites:
                self._sites[site] = self._read(site, policy or AddressPolicy())
            rules = self._sites[site]
        return rules.can_fetch(self.user_agent, url)

    def _read(self, site: str, policy: AddressPolicy) -> urllib.robotparser.RobotFileParser:
        """As crawlers do: 401/403 or a server error forbid the site, another 4xx or no answer
        means no rules (the page fetch then reports its own error). A robots.txt that redirects
        to an address the policy refuses forbids the site."""
        url = f"{site}/robots.txt"
        rules = urllib.robotparser.RobotFileParser(url)
        req = urllib.request.Request(url, headers={"User-Agent": self.user_agent})
        try:
            with Deadline(self.timeout) as deadline, opener(policy, deadline).open(req) as resp:
                raw = read_before(resp, deadline.end, url, 500_000)
                if deadline.expired:
                    raise TimeoutError(f"{url}: robots.txt did not arrive within the fetch deadline")
                rules.parse(raw.decode("utf-8", errors="replace").splitlines())
        except urllib.error.HTTPError as exc:  # rules written out, not the parser's private flags
            rules.parse(["User-agent: *", "Disallow: /"] if exc.code in (401, 403) or exc.code >= 500 else [])
        except ValueError:
            rules.parse(["User-agent: *", "Disallow: /"])
        except (OSError, http.client.HTTPException):
            rules.parse([])
        return rules


def fetch_url(
    url: str, timeout: float = 10.0, robots: RobotsRules | None = None, policy: AddressPolicy | None = None
) -> Document:
    """A web page as a document; with ``robots``, only when the site's robots.txt allows it; never
    from an internal address ``policy`` (default: none allowed) does not allow, on any redirect hop
    or robots.txt either. The
    whole fetch (connecting, headers, redirects, body) has ``timeout`` seconds."""
    policy = policy or AddressPolicy()
    policy.check(url)
    if robots is not None and not robots.allowed(url, policy):
        raise ValueError(f"{url}: disallowed by the site's robots.txt for {robots.user_agent.split('/')[0]}")
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    with Deadline(timeout) as deadline:
        try:
            with opener(policy, deadline).open(req, timeout=timeout) as resp:
                kind = resp.headers.get_content_type()
                if kind not in ("text/html", "text/plain", "application/xhtml+xml"):
                    raise ValueError(f"{url}: content type {kind} is not a text page")
                charset = resp.headers.get_content_charset() or "utf-8"
                body = read_before(resp, deadline.end, url)
                if deadline.expired:  # the connection was shut at the deadline: what came is not the page
                    raise TimeoutError(f"{url}: the page did not arrive within the fetch deadline")
                raw = body.decode(charset, errors="replace")
        except (OSError, http.client.HTTPException) as exc:
            if deadline.passed:
                raise TimeoutError(f"{url}: the page did not arrive within the fetch deadline") from exc
            if isinstance(exc, OSError):
                raise
            raise OSError(f"{url}: {exc!r}") from exc
    return parse(url, raw, as_html=kind != "text/plain")


def read_before(resp: http.client.HTTPResponse, deadline: float, url: str, limit: int = MAX_BYTES) -> bytes:
    """The body's first ``limit`` bytes, read in chunks against one deadline: the socket's
    timeout bounds each read only, and a server that drips a byte a second never trips it."""
    sock = getattr(getattr(resp.fp, "raw", None), "_sock", None)  # CPython's socket under the response
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{url}: the page did not arrive within the fetch deadline")
        if sock is not None:
            sock.settimeout(left)
        try:
            chunk = resp.read1(min(65_536, limit - size))
        except TimeoutError as exc:
            raise TimeoutError(f"{url}: the page did not arrive within the fetch deadline") from exc
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


class DocumentCache:
    """SQLite: parsed documents by key, search results by query. Safe to share between threads.
    Optional like every cache: on a full disk it is read but no longer written."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = str(path) if path else ":memory:"
        self._db = open_cache(
            Path(self.path),
            "CREATE TABLE IF NOT EXISTS documents (key TEXT PRIMARY KEY, source TEXT, title TEXT, text TEXT)",
            "CREATE TABLE IF NOT EXISTS searches (key TEXT PRIMARY KEY, hits TEXT)",
        )
        self._lock = threading.Lock()
        self._writes = True

    def get(self, key: str) -> Document | None:
        with self._lock:
            row = self._db.execute("SELECT source, title, text FROM documents WHERE key = ?", (key,)).fetchone()
        return Document(*row) if row else None

    def _write(self, sql: str, row: tuple[str, ...]) -> None:
        with self._lock:
            if self._writes:
                self._writes = cache_write(self._db, Path(self.path), sql, row)

    def put(self, key: str, doc: Document) -> None:
        self._write("INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?)", (key, doc.source, doc.title, doc.text))

    def get_search(self, key: str) -> list[SearchHit] | None:
        with self._lock:
            row = self._db.execute("SELECT hits FROM searches WHERE key = ?", (key,)).fetchone()
        return [SearchHit(**h) for h in json.loads(row[0])] if row else None

    def put_search(self, key: str, hits: Sequence[SearchHit]) -> None:
        payload = json.dumps([{"url": h.url, "title": h.title, "snippet": h.snippet} for h in hits])
        self._write("INSERT OR REPLACE INTO searches VALUES (?, ?)", (key, payload))

    def close(self) -> None:
        self._db.close()


def _local_key(path: Path) -> str:
    st = path.stat()
    return f"file:{path.resolve()}|{st.st_size}|{st.st_mtime_ns}"


def fetch_documents(
    locations: Sequence[Path | str],
    cache: DocumentCache,
    *,
    workers: int = 8,
    on_error: Callable[[str, Exception], None] | None = None,
    robots: RobotsRules | None = None,
    policy: AddressPolicy | None = None,
) -> tuple[list[Document], int]:
    """Read (files) or download (``http(s)://`` URLs) and parse, in parallel; ``(documents, cache hits)``.

    A source that fails is reported to ``on_error`` and left out; the others are still returned.
    With ``robots``, a URL its site's robots.txt disallows is such a failure; with ``policy``, a URL
    on an internal address (:mod:`~kgcite.retrieve.documents.addresses`)."""
    keys: list[str] = []
    kept: list[Path | str] = []
    for loc in locations:
        try:
            keys.append(f"url:{loc}" if str(loc).startswith(("http://", "https://")) else _local_key(Path(loc)))
            kept.append(loc)
        except OSError as exc:
            if on_error is None:
                raise
            on_error(str(loc), exc)
    found = [cache.get(k) for k in keys]
    todo = [(k, loc) for k, loc, d in zip(keys, kept, found, strict=True) if d is None]

    def load(loc: Path | str) -> Document:
        s = str(loc)
        if s.startswith(("http://", "https://")):
            return fetch_url(s, robots=robots, policy=policy)
        return read_local(Path(loc))

    fresh: dict[str, Document] = {}
    if todo:
        with ThreadPoolExecutor(max_workers=max(1, min(workers, len(todo)))) as pool:
            futures = [(k, loc, pool.submit(load, loc)) for k, loc in todo]
            for k, loc, fut in futures:
                try:
                    fresh[k] = fut.result()
                except (OSError, ValueError) as exc:
                    if on_error is None:
                        raise
                    on_error(str(loc), exc)
                    continue
                cache.put(k, fresh[k])
    docs = [d if d is not None else fresh[k] for k, d in zip(keys, found, strict=True) if d is not None or k in fresh]
    return docs, sum(d is not None for d in found)


# -- web search -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchHit:
    url: str
    title: str = ""
    snippet: str = ""


@runtime_checkable
class SearchBackend(Protocol):
    @property
    def name(self) -> str: ...

    def search(self, query: str, k: int) -> list[SearchHit]:
        """The top ``k`` pages for a query."""
        ...


class SearxngSearch:
    """A SearXNG instance's JSON API (``GET /search?q=…&format=json``; enable the json format
    in its settings). Results are ``{"results": [{"url", "title", "content"}, ...]}``."""

    def __init__(self, base_url: str, *, timeout: float = 10.0) -> None:
        self.base_url, self.timeout = base_url.rstrip("/"), timeout

    @property
    def name(self) -> str:
        return f"searxng:{self.base_url}"

    def search(self, query: str, k: int) -> list[SearchHit]:
        """The hits; a backend that is down, answers an HTTP error or sends something other than
        SearXNG's JSON is a :class:`~kgcite.errors.SearchError` naming it (one line, no traceback)."""
        url = f"{self.base_url}/search?" + urllib.parse.urlencode({"q": query, "format": "json"})
        try:
            with urllib.request.urlopen(url, timeout=self.timeout) as resp:
                data = loads(read_before(resp, time.monotonic() + self.timeout, self.name))
            results = data.get("results", []) if isinstance(data, dict) else None
            if not isinstance(results, list):
                raise TypeError("no list of results")
            hits = [
                SearchHit(str(r["url"]), str(r.get("title") or ""), str(r.get("content") or ""))
                for r in results
                if isinstance(r, dict) and isinstance(r.get("url"), str)
            ]
        except urllib.error.HTTPError as exc:
            raise SearchError(f"the search backend {self.base_url} answered HTTP {exc.code} ({exc.reason})") from None
        except (OSError, http.client.HTTPException) as exc:
            why = getattr(exc, "reason", None) or exc
            raise SearchError(f"the search backend {self.base_url} cannot be reached ({why})") from None
        except (ValueError, TypeError, KeyError) as exc:
            raise SearchError(
                f"the search backend {self.base_url} sent no SearXNG JSON ({exc}); is its json format on?"
            ) from None
        return [h for h in hits if h.url.startswith(("http://", "https://"))][:k]


def cached_search(backend: SearchBackend, query: str, k: int, cache: DocumentCache) -> tuple[list[SearchHit], bool]:
    """Search results, from the cache when this backend answered this query before."""
    key = json.dumps([backend.name, query, k])
    hits = cache.get_search(key)
    if hits is not None:
        return hits, True
    hits = backend.search(query, k)
    cache.put_search(key, hits)
    return hits, False
