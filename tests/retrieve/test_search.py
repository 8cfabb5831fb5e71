"""The web path of the document retriever over real HTTP on 127.0.0.1: a SearXNG-shaped JSON
endpoint (a stand-in: no SearXNG can be installed here) and pages served by the same server."""

from __future__ import annotations

import json
import resource
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from kgcite.models.embed import OnnxMiniLM
from kgcite.ports import free_port
from kgcite.retrieve.documents import AddressPolicy, DocumentCache, DocumentRetriever, SearxngSearch, TwoStageRanker
from kgcite.retrieve.documents.sources import MAX_TEXT, RobotsRules, cached_search, fetch_url, read_local
from tests.helpers import kgcite

DOCS = Path(__file__).parent / "data" / "docs"
LOCAL = AddressPolicy.allowing(["127.0.0.1"])  # the test's own web server is on loopback: allowed by name
SECRET = b"<html><body><p>INTERNAL-SECRET-TOKEN: the admin password is hunter2.</p></body></html>"


class _Web(BaseHTTPRequestHandler):
    queries: ClassVar[list[str]] = []
    pages = 0
    robots: ClassVar[tuple[int, str]] = (404, "")  # status and body of /robots.txt
    robots_reads = 0
    extra: ClassVar[list[str]] = []  # paths a search also returns
    robots_to = ""  # where /robots.txt redirects, if anywhere

    def do_GET(self) -> None:
        url = urllib.parse.urlparse(self.path)
        if url.path == "/drip.html":  # one byte every half second for two minutes: never a whole page
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            for _ in range(240):
                try:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.5)
            return
        if url.path == "/drip-headers.html":  # the status line and headers a byte every half second
            for byte in b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Slow: " + b"y" * 400:
                try:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.5)
            return
        if url.path.startswith("/slow-hop/"):  # a chain of redirects, each answered after 1.5 s
            n = int(url.path.rsplit("/", 1)[1])
            time.sleep(1.5)
            self.send_response(302)
            self.send_header("Location", f"/slow-hop/{n + 1}" if n < 9 else "/crane.html")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path == "/to" or (url.path == "/robots.txt" and type(self).robots_to):
            target = urllib.parse.parse_qs(url.query).get("u", [type(self).robots_to])[0]
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path.startswith("/gone/"):  # a search backend that is not there any more
            self.send_error(404)
            return
        if url.path == "/robots.txt":
            type(self).robots_reads += 1
            status, text = type(self).robots
            body = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if url.path == "/search":
            args = urllib.parse.parse_qs(url.query)
            type(self).queries.append(args["q"][0])
            base = f"http://127.0.0.1:{self.server.server_port}"
            body = json.dumps(
                {
                    "results": [
                        {"url": f"{base}/crane.html", "title": "Crane", "content": "…"},
                        {"url": f"{base}/volcanoes.html", "title": "Volcanoes"},
                        {"url": "ftp://example.org/x", "title": "not http"},
                        {"url": f"{base}/image.png", "title": "not text"},
                        *({"url": f"{base}{path}"} for path in type(self).extra),
                    ]
                }
            ).encode()
            kind = "application/json"
        elif url.path == "/redirect":  # to the machine's IPv6 loopback: another internal host, not allowed
            self.send_response(302)
            self.send_header("Location", f"http://[::1]:{self.server.server_port}/secret.html")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        elif url.path == "/secret.html":
            type(self).pages += 1
            body, kind = SECRET, "text/html; charset=utf-8"
        elif url.path.endswith(".html"):
            type(self).pages += 1
            body, kind = (DOCS / url.path.lstrip("/")).read_bytes(), "text/html; charset=utf-8"
        else:
            body, kind = b"\x89PNG", "image/png"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def web() -> Iterator[str]:
    _Web.queries, _Web.pages, _Web.robots, _Web.robots_reads, _Web.extra = [], 0, (404, ""), 0, []
    _Web.robots_to = ""
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), _Web)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_search_fetch_and_cache_over_http(web: str, embedder: OnnxMiniLM, tmp_path: Path) -> None:
    question = 'Where did "Stephen Crane" die? & why #1'
    backend = SearxngSearch(web)
    hits = backend.search(question, 10)
    assert _Web.queries == [question]  # the query arrives intact: escaped, not spliced
    assert [h.url.rsplit("/", 1)[1] for h in hits] == ["crane.html", "volcanoes.html", "image.png"]  # ftp dropped

    db = tmp_path / "documents.sqlite"
    errors: list[str] = []

    def run() -> tuple[int, list[str]]:
        r = DocumentRetriever(
            TwoStageRanker(embedder, None),
            cache=DocumentCache(db),
            search=backend,
            on_error=lambda source, exc: errors.append(source),
            policy=LOCAL,
        ).retrieve(question)
        return r.cache_hits, [q.passage.source for q in r.quotes]

    first_hits, sources = run()
    assert first_hits == 0 and sources and all(s.startswith(web) for s in sources)
    assert any("image.png" in e for e in errors)  # not a text page: skipped, the rest kept
    assert _Web.pages == 2
    second_hits, again = run()
    assert second_hits == 3 and again == sources  # the search result and both pages from the cache
    assert len(_Web.queries) == 2 and _Web.pages == 2  # 1 direct search + 1 through the retriever; nothing refetched
    assert cached_search(backend, question, 10, DocumentCache(db))[1] is True


def test_robots_txt_is_obeyed(web: str, embedder: OnnxMiniLM) -> None:
    _Web.robots = (200, "User-agent: *\nDisallow: /private/\n\nUser-agent: kgcite\nDisallow: /volcanoes.html\n")
    errors: list[tuple[str, str]] = []
    retriever = DocumentRetriever(
        TwoStageRanker(embedder, None),
        search=SearxngSearch(web),
        on_error=lambda source, exc: errors.append((source, str(exc))),
        policy=LOCAL,
    )
    sources = {q.passage.source for q in retriever.retrieve("Where did Stephen Crane die?").quotes}
    assert _Web.pages == 1 and sources == {f"{web}/crane.html"}  # the disallowed page was never requested
    assert any(src.endswith("volcanoes.html") and "robots.txt" in msg for src, msg in errors)
    retriever.retrieve("Where was Stephen Crane born?")
    assert _Web.robots_reads == 1  # read once per site, not per page or question

    ignoring = DocumentRetriever(TwoStageRanker(embedder, None), search=SearxngSearch(web), robots=None, policy=LOCAL)
    ignoring.retrieve("Where did Stephen Crane die?")
    assert _Web.pages == 3 and _Web.robots_reads == 1  # its own cache: both pages fetched, robots.txt never read


@pytest.mark.parametrize(("status", "allowed"), [(404, True), (403, False), (500, False)])
def test_robots_txt_errors(web: str, status: int, allowed: bool) -> None:
    _Web.robots = (status, "")
    assert RobotsRules().allowed(f"{web}/crane.html", LOCAL) is allowed


def test_internal_addresses_are_refused_unless_allowed(web: str, embedder: OnnxMiniLM) -> None:
    """A search result on the machine's own address is never fetched by default (SSRF): the
    refusal names the address and the option that allows it."""
    errors: list[tuple[str, str]] = []
    retriever = DocumentRetriever(
        TwoStageRanker(embedder, None),
        search=SearxngSearch(web),
        on_error=lambda source, exc: errors.append((source, str(exc))),
    )
    assert retriever.retrieve("Where did Stephen Crane die?").quotes == ()
    assert _Web.pages == 0 and _Web.robots_reads == 0  # nothing on the internal host was requested
    assert errors and all("internal address (127.0.0.1)" in msg and "--allow-fetch" in msg for _, msg in errors)
    for url in ("http://localhost/x", "http://10.0.0.8/x", "http://169.254.169.254/latest/meta-data/", "http://[::1]/"):
        with pytest.raises(ValueError, match="internal address"):
            AddressPolicy().check(url)
    AddressPolicy.allowing(["10.0.0.0/8"]).check("http://10.1.2.3/x")  # a network allowed by the operator


def test_a_redirect_to_an_internal_host_is_refused(web: str) -> None:
    with pytest.raises(ValueError, match=r"::1 is an internal address"):
        fetch_url(f"{web}/redirect", policy=LOCAL)  # the first hop is allowed, the redirect is checked too
    assert _Web.pages == 0  # the secret page was never requested


def test_cli_never_quotes_an_internal_page_from_a_search(web: str) -> None:
    """The door users use: `ask --source docs --search-url` with results on loopback."""
    args = ("ask", "Where did Stephen Crane die?", "--source", "docs", "--search-url", web, "--no-cache")
    refused = kgcite(*args)
    assert "internal address (127.0.0.1)" in refused.stderr and "crane.html" not in refused.stdout
    allowed = kgcite(*args, "--allow-fetch", "127.0.0.1")
    assert allowed.returncode == 0, allowed.stderr
    assert "crane.html" in allowed.stdout


def test_a_dripping_page_cannot_outlast_the_fetch_deadline(web: str) -> None:
    """Each read got its byte before the socket timeout, so the fetch ran as long as the server."""
    t0 = time.monotonic()
    with pytest.raises(TimeoutError, match="did not arrive within the fetch deadline"):
        fetch_url(f"{web}/drip.html", timeout=2, policy=LOCAL)
    assert time.monotonic() - t0 < 5


def test_cli_skips_a_dripping_page_and_answers_from_the_others(web: str) -> None:
    _Web.extra = ["/drip.html"]
    t0 = time.monotonic()
    res = kgcite(
        "ask", "Where did Stephen Crane die?", "--source", "docs", "--search-url", web, "--no-cache",
        "--allow-fetch", "127.0.0.1",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert time.monotonic() - t0 < 90  # the page drips for 120 s; the fetch deadline is 10 s
    assert "drip.html: the page did not arrive within the fetch deadline" in res.stderr
    assert "crane.html" in res.stdout


def test_a_huge_local_file_is_read_only_up_to_the_cap(tmp_path: Path) -> None:
    """A 3 GB file was read whole before the 5 MB cut (3.4 GB resident)."""
    big = tmp_path / "big.txt"
    with big.open("wb") as f:
        f.write(b"Stephen Crane died in Badenweiler. " * 1000)
        f.truncate(3_000_000_000)  # sparse: no disk used
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    doc = read_local(big)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KB
    assert doc.text.startswith("Stephen Crane died in Badenweiler.") and len(doc.text) <= MAX_TEXT


# -- the address check where the client connects ---------------------------------------------


class _Secret(BaseHTTPRequestHandler):
    """An internal service on 127.0.0.2: every request it gets is a leak."""

    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(SECRET)))
        self.end_headers()
        self.wfile.write(SECRET)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def secret() -> Iterator[int]:
    _Secret.hits = 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.2", 0))
        port = int(probe.getsockname()[1])
    server = ThreadingHTTPServer(("127.0.0.2", port), _Secret)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield port
    server.shutdown()


def spellings(port: int) -> list[str]:
    """127.0.0.2 as an attacker writes it: percent-encoded, decimal, octal, hex, short, IPv6-mapped, user info."""
    hosts = ["%31%32%37.0.0.2", "2130706434", "0177.0.0.2", "0x7f.0.0.2", "127.2", "[::ffff:127.0.0.2]", "a@127.0.0.2"]
    return [f"http://{h}:{port}/secret.html" for h in hosts]


def test_every_spelling_of_an_internal_address_is_refused_on_the_first_hop(secret: int) -> None:
    for url in [*spellings(secret), "http://loc%61lhost/x", "http://[fe80::1%25lo]/x", "http://localhost./x"]:
        with pytest.raises(ValueError, match="refused"):
            fetch_url(url, timeout=3)  # no policy given: no internal address either
    for url in spellings(secret):
        with pytest.raises(ValueError, match="127.0.0.2"):
            fetch_url(url, timeout=3, policy=LOCAL)  # 127.0.0.1 allowed: 127.0.0.2 is not
    assert _Secret.hits == 0


def test_every_spelling_is_refused_on_a_redirect_and_for_robots(web: str, secret: int) -> None:
    for target in spellings(secret):
        with pytest.raises(ValueError, match="refused"):
            fetch_url(f"{web}/to?u={urllib.parse.quote(target)}", timeout=3, policy=LOCAL)
    _Web.robots_to = spellings(secret)[0]  # robots.txt redirects to the internal service
    rules = RobotsRules()
    with pytest.raises(ValueError, match="robots.txt"):
        fetch_url(f"{web}/crane.html", timeout=3, robots=rules, policy=LOCAL)  # refused redirect: site forbidden
    assert _Secret.hits == 0 and _Web.pages == 0


def test_cli_never_quotes_a_page_behind_an_encoded_host(web: str, secret: int) -> None:
    """A search result written ``%31%32%37.0.0.2`` once reached the internal page through `ask`."""
    _Web.extra = [f"/to?u={urllib.parse.quote(spellings(secret)[0])}"]
    res = kgcite(
        "ask", "Where did Stephen Crane die?", "--source", "docs", "--search-url", web, "--no-cache",
        "--allow-fetch", "127.0.0.1",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "INTERNAL-SECRET" not in res.stdout and _Secret.hits == 0
    assert "127.0.0.2 is an internal address" in res.stderr


def test_a_page_that_drips_its_headers_is_cut_off_at_the_deadline(web: str) -> None:
    """The socket timeout waited per byte of headers: the CLI was still waiting at 150 s."""
    t0 = time.monotonic()
    with pytest.raises(TimeoutError, match="did not arrive within the fetch deadline"):
        fetch_url(f"{web}/drip-headers.html", timeout=2, policy=LOCAL)
    assert time.monotonic() - t0 < 4


def test_a_chain_of_slow_redirects_shares_one_deadline(web: str) -> None:
    """Nine redirects of 1.5 s each took 74.7 s against a 10 s timeout per request."""
    t0 = time.monotonic()
    with pytest.raises(TimeoutError, match="did not arrive within the fetch deadline"):
        fetch_url(f"{web}/slow-hop/1", timeout=3, policy=LOCAL)
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize(
    ("where", "why"),
    [("closed", "cannot be reached"), ("/gone", "answered HTTP 404"), ("/not-searxng", "sent no SearXNG JSON")],
)
def test_a_search_backend_down_or_wrong_is_one_line(web: str, where: str, why: str) -> None:
    """A backend down or answering 404 was a traceback in `ask` (and a 500 in `serve`)."""
    url = f"http://127.0.0.1:{free_port()}" if where == "closed" else f"{web}{where}"
    res = kgcite("ask", "Where did Stephen Crane die?", "--source", "docs", "--search-url", url, "--no-cache")
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr[-1500:]
    assert res.stderr.strip().splitlines()[-1].startswith(f"kgcite: error: the search backend {url} {why}")


def test_a_redirect_to_another_scheme_is_refused_before_it_is_followed(web: str, secret: int) -> None:
    """urllib follows a redirect to ftp:// with a connection no address check sees."""
    with pytest.raises(ValueError, match="only http and https pages are fetched"):
        fetch_url(f"{web}/to?u={urllib.parse.quote(f'ftp://127.0.0.2:{secret}/secret.html')}", timeout=3, policy=LOCAL)


def test_a_slow_site_never_holds_the_model_for_other_questions(web: str, tmp_path: Path) -> None:
    """In `serve` a fetch ran on the model thread: a page dripping its headers held every other
    ask (504 at 120 s) while `/health` said ok. Documents are now fetched before the question
    waits for the model."""
    import httpx

    from kgcite.server.launch import served

    _Web.extra = ["/drip-headers.html"]
    graph = tmp_path / "rail.tsv"
    graph.write_text("Tarn Junction\tdesigned_by\tIvo Marsh\n", encoding="utf-8")
    args = ["--no-cache", "--kg", str(graph), "--search-url", web, "--allow-fetch", "127.0.0.1"]
    with served(args) as base:
        slow: list[httpx.Response] = []
        docs = threading.Thread(
            target=lambda: slow.append(
                httpx.post(
                    f"{base}/ask", json={"question": "Where did Stephen Crane die?", "source": "docs"}, timeout=120
                )
            )
        )
        docs.start()
        time.sleep(2)  # the docs question is fetching: the drip lasts the whole 10 s fetch deadline
        t0 = time.monotonic()
        kg = httpx.post(f"{base}/ask", json={"question": "Who designed Tarn Junction?"}, timeout=120)
        took = time.monotonic() - t0
        docs.join()
    assert kg.status_code == 200 and "Ivo Marsh" in kg.json()["answer"], kg.text
    assert took < 4, took
    assert slow[0].status_code == 200 and "Stephen Crane" in slow[0].json()["answer"], slow[0].text[:500]


def test_a_search_backend_down_is_a_generic_502_over_http(web: str, tmp_path: Path) -> None:
    """`serve` answered 500 with a traceback when the search backend was down or answered 404."""
    import httpx

    from kgcite.server.launch import served

    graph = tmp_path / "rail.tsv"
    graph.write_text("Tarn Junction\tdesigned_by\tIvo Marsh\n", encoding="utf-8")
    log: list[str] = []
    with served(["--no-cache", "--kg", str(graph), "--search-url", f"{web}/gone"], output=log) as base:
        r = httpx.post(f"{base}/ask", json={"question": "Where did Stephen Crane die?", "source": "docs"}, timeout=60)
        kg = httpx.post(f"{base}/ask", json={"question": "Who designed Tarn Junction?"}, timeout=60)
    assert r.status_code == 502 and r.json()["detail"] == "the search backend failed; the server's log says why"
    assert "/gone" not in r.text and kg.status_code == 200
    assert "answered HTTP 404" in log[0] and "Traceback" not in log[0]
