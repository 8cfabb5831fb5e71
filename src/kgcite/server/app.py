"""``kgcite serve``: the HTTP API and the web page over one loaded :class:`Runtime`.

Routes: ``POST /ask``, ``POST /eval/citations``, ``GET /entities/{id}``, ``GET /health``, the
report API (``GET /reports``, ``/reports/{name}``, ``/reports/{name}/files/{png}``) and the pages
``/`` and ``/report``. Models load once, in the lifespan; every model call waits in one
:class:`ModelQueue`. The pages render every label and every model output as text (``textContent``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
import anyio.to_process
import anyio.to_thread
from fastapi import FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from kgcite import __version__
from kgcite.errors import LLMError, ModelError, SearchError
from kgcite.evaluate.metrics.citation import CitationReport
from kgcite.generate.compose import QuoteAnswerer
from kgcite.generate.pipeline import AttributedAnswer, Generator
from kgcite.kg.hubs import capped_one_hop
from kgcite.kg.model import Triple
from kgcite.retrieve.documents.retriever import Gathered
from kgcite.runtime import Mode, Runtime, Source
from kgcite.schema import AskRequest, EvalCitationsRequest, KGAnswerResponse, QuotedAnswerResponse
from kgcite.server.evaluation import score_body
from kgcite.server.guards import BodyLimit, KnownHosts
from kgcite.server.queue import ModelQueue, QueueFull, Stopping
from kgcite.server.reports import ReportFolder, ReportNotFound

log = logging.getLogger(__name__)
#: Validation errors a 422 lists; the rest are counted.
SHOWN_ERRORS = 20


def _short(value: Any, limit: int = 200) -> Any:
    """An input a 422 quotes back: as it is if short, else its type and size."""
    text = json.dumps(jsonable_encoder(value), ensure_ascii=True)
    if len(text) <= limit:
        return value
    size = f" of {len(value):,} items" if isinstance(value, (list, dict)) else f" of {len(text):,} characters"
    return f"<{type(value).__name__}{size}>"


from kgcite.text.lexicon import property_label


@dataclass
class ServeConfig:
    docs: Sequence[str] = ()  # files/folders quoted by source docs|both
    search_url: str | None = None
    fetch_allow: Sequence[str] = ()  # internal hosts/networks search results may be fetched from
    reports: Path | None = None  # folder of evaluation reports shown by the report page
    max_batch: int = 8
    max_waiting: int = 256
    max_body_bytes: int = 8_000_000
    max_retrieved: int = 300  # triples of the retrieved subgraph returned with an answer
    max_entity_triples: int = 500
    # Host names the server answers to; others get 400, so a web page on another site cannot reach
    # it through DNS rebinding. "*" allows any (behind a proxy that checks hosts itself).
    allowed_hosts: Sequence[str] = ("127.0.0.1", "localhost", "::1")
    stuck_after_s: float = 300.0  # a batch running longer than this makes /health answer 503 "stuck"
    answer_timeout_s: float = 120.0  # an ask not answered by then gets 504 and leaves the queue
    header_timeout_s: float = 10.0  # a connection whose request headers take longer (or that sends nothing) is closed
    max_connections: int = 1000  # past this many open, the oldest still waiting for its headers is closed
    body_timeout_s: float = 30.0  # a request body that takes longer gets 408
    # /eval/citations parses and scores in a worker thread, one request at a time (never on the loop
    # that answers /health); past this many waiting, 503
    max_eval_waiting: int = 4


def triple_dict(t: Triple) -> dict[str, Any]:
    return {
        "subject_id": t.subject_id,
        "subject": t.subject_label,
        "property": t.relation,
        "value": t.object_value,
        "object_id": t.object_id,
    }


def property_labels(relations: Iterable[str]) -> dict[str, str]:
    """How the page shows each property: ``designed_by`` as "designed by"; the data keep the graph's name."""
    return {r: property_label(r) for r in dict.fromkeys(relations)}


def static_dir() -> Path:
    return Path(str(resources.files("kgcite") / "server" / "static"))


@dataclass
class Service:
    """The loaded models and what each request needs from them."""

    runtime: Runtime
    config: ServeConfig = field(default_factory=ServeConfig)
    queue: ModelQueue = field(init=False)
    _generators: dict[str, Generator] = field(default_factory=dict, init=False)
    _answerers: dict[str, QuoteAnswerer] = field(default_factory=dict, init=False)
    _building: threading.Lock = field(default_factory=threading.Lock, init=False)  # answerers built once

    def __post_init__(self) -> None:
        self.queue = ModelQueue(max_batch=self.config.max_batch, max_waiting=self.config.max_waiting)

    @property
    def sources(self) -> list[str]:
        return ["kg", "docs", "both"] if (self.config.docs or self.config.search_url) else ["kg"]

    @property
    def phrases(self) -> bool:
        """Whether an LLM phrases answers: only when asked for (``--rewrite``)."""
        return self.runtime.config.rewrite

    def load(self) -> None:
        """Every model the default request needs, once, on the model thread."""
        rt = self.runtime
        _ = rt.kg, rt.ner.load(), rt.embedder
        if self.phrases:
            _ = rt.llm
        if rt.config.verifier == "nli":
            rt.nli.load()
        self.generator("grounded")
        with self._building:  # built here, so that fetching (off this thread) only reads them
            for source in ("docs", "both"):
                if source in self.sources:
                    self.answerer(source)

    def generator(self, mode: Mode) -> Generator:
        if mode not in self._generators:
            self._generators[mode] = self.runtime.generator(mode)
        return self._generators[mode]

    def answerer(self, source: Source) -> QuoteAnswerer:
        if source not in self._answerers:
            docs = (
                self.runtime.documents(
                    self.config.docs, search_url=self.config.search_url, allow_hosts=self.config.fetch_allow
                )
                if source != "kg"
                else None
            )
            self._answerers[source] = self.runtime.quote_answerer(source, docs)
        return self._answerers[source]

    def answer_kg(self, mode: Mode, questions: Sequence[str]) -> list[dict[str, Any] | BaseException]:
        out: list[dict[str, Any] | BaseException] = []
        for r in self.generator(mode).answer_many(list(questions)):
            out.append(r if isinstance(r, BaseException) else self.kg_answer_dict(r))
        return out

    def kg_answer_dict(self, answer: AttributedAnswer) -> dict[str, Any]:
        triples = answer.retrieved.triples
        shown = triples[: self.config.max_retrieved]
        record = answer.to_dict()
        cited = [c["property"] for s in record["sentences"] for c in s["citations"]]
        return record | {
            "kind": "triples",
            "retrieved": [triple_dict(t) for t in shown],
            "retrieved_total": len(triples),
            "entities": [{"id": e.id, "label": e.label} for e in answer.retrieved.entities],
            "property_labels": property_labels([*cited, *(t.relation for t in shown)]),
        }

    def gather(self, source: Source, question: str) -> Gathered | None:
        """A question's documents, searched and fetched in a worker thread before it waits for the
        model: a site that drips its headers for the whole fetch deadline holds no other question."""
        with self._building:
            answerer = self.answerer(source)
        return answerer.gather(question)

    def answer_quotes(self, source: Source, items: Sequence[tuple[str, Gathered | None]]) -> list[dict[str, Any]]:
        with self._building:
            answerer = self.answerer(source)
        return [answerer.answer(q, None, g).to_dict() | {"kind": "quotes", "mode": "quotes"} for q, g in items]

    def entity(self, entity_id: str) -> dict[str, Any] | None:
        shown = self.config.max_entity_triples
        around = capped_one_hop(self.runtime.kg, entity_id, per_relation=shown)  # a hub's rest is counted, not read
        if not around.graph.entities:
            return None
        entity = around.graph.entities[0]
        triples = around.smallest_first()[:shown]
        return {
            "id": entity.id,
            "label": entity.label,
            "aliases": list(entity.aliases),
            "types": list(entity.types),
            "triples": [triple_dict(t) for t in triples],
            "triples_total": around.total,
            "property_labels": property_labels(t.relation for t in triples),
        }


#: Our own pages load only our own scripts and styles; nothing may frame them.
_CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
#: FastAPI's /docs and /redoc load their UI from a CDN: they get only the framing rule.
_CSP_DOCS = "frame-ancestors 'none'"


class _SecurityHeaders:
    """``nosniff``, a content security policy and no framing on every response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = _CSP_DOCS if scope.get("path", "").startswith(("/docs", "/redoc")) else _CSP

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-content-type-options", b"nosniff"),
                    (b"content-security-policy", csp.encode()),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


async def until_answered(job: Coroutine[Any, Any, Any], request: Request, seconds: float) -> Any:
    """The job's result, unless the client goes away first (the job then leaves the queue: an
    abandoned question is never computed) or ``seconds`` pass (504, the same)."""
    task = asyncio.ensure_future(job)
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        try:
            done, _ = await asyncio.wait({task}, timeout=min(0.5, max(0.0, left)))
        except asyncio.CancelledError:  # the server's grace period is over: a 503, not a traceback
            task.cancel()
            raise Stopping("the server shut down before this question was answered; retry") from None
        if done:
            return task.result()
        if left <= 0:
            task.cancel()
            raise HTTPException(504, f"not answered within {seconds:g} s; the server is busy, try again later")
        if await request.is_disconnected():
            task.cancel()
            raise HTTPException(499, "the client went away")


def create_app(service: Service, *, load: bool = True) -> FastAPI:
    started = time.time()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if load:
            await service.queue.call(service.load)
        yield
        service.queue.close()

    app = FastAPI(
        title="kgcite",
        version=__version__,
        summary="Verifiable question answering over knowledge graphs: answers that cite triples and quotes.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, limit=service.config.max_body_bytes, seconds=service.config.body_timeout_s)
    app.add_middleware(KnownHosts, allowed=list(service.config.allowed_hosts))
    app.add_middleware(_SecurityHeaders)
    app.mount("/static", StaticFiles(directory=static_dir()), name="static")

    @app.exception_handler(QueueFull)
    @app.exception_handler(Stopping)
    async def _full(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, 503, headers={"Retry-After": "5"})

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> Response:
        # FastAPI's own handler echoes the input, and a lone surrogate in it cannot be encoded (a 500):
        # the same 422 body, written with every non-ASCII character escaped
        # at most SHOWN_ERRORS of them, each quoting a short input: a 3.6 MB body once came back whole
        found = exc.errors()
        errors = [
            {k: _short(v) if k == "input" else v for k, v in e.items() if k != "ctx"} for e in found[:SHOWN_ERRORS]
        ]
        body: dict[str, Any] = {"detail": jsonable_encoder(errors)}
        if len(found) > SHOWN_ERRORS:
            body["more_errors"] = len(found) - SHOWN_ERRORS
        return Response(json.dumps(body, ensure_ascii=True), 422, media_type="application/json")

    @app.exception_handler(SearchError)
    async def _search(_: Request, exc: SearchError) -> JSONResponse:
        log.error("%s", exc)  # the backend's address is the operator's to read, not the caller's
        return JSONResponse({"detail": "the search backend failed; the server's log says why"}, 502)

    @app.exception_handler(ModelError)
    async def _model(_: Request, exc: ModelError) -> JSONResponse:
        # the error names the backend's address and quotes its reply (an API key in an error
        # message, say): the operator reads it in the log, a caller gets a generic message
        what = "the language model" if isinstance(exc, LLMError) else "a model"
        log.error("%s failed: %s", what, exc)
        return JSONResponse({"detail": f"{what} failed; the server's log says why"}, 502)

    @app.get("/health", summary="liveness, the loaded models and the queue; 503 when the model thread is stuck")
    async def health() -> JSONResponse:
        rt = service.runtime
        busy = service.queue.busy_for()
        stuck = busy > service.config.stuck_after_s
        return JSONResponse(
            status_code=503 if stuck else 200,
            content={
                "status": "stuck" if stuck else "ok",
                "model_busy_s": round(busy, 1),
                "model": rt.llm.name if service.phrases else None,
                # free mode with the shipped SmolLM2-135M and no grammar: its answers carry no citations
                "free_uncited": rt.config.shipped_llm and not rt.config.constrained,
                "sources": service.sources,
                "reports": service.config.reports is not None,
                "waiting": service.queue.waiting,
                "batches": service.queue.batches,
                "uptime_s": round(time.time() - started, 1),
            },
        )

    fetching = anyio.CapacityLimiter(8)  # questions whose documents are being fetched at once

    @app.post("/ask", summary="answer a question; every sentence carries its citations or [NA]")
    async def ask(req: AskRequest, request: Request) -> KGAnswerResponse | QuotedAnswerResponse:
        if req.source not in service.sources:
            raise HTTPException(
                400, f"source {req.source!r} needs documents: start the server with --docs DIR or --search-url URL"
            )
        if req.source == "kg":
            job = service.queue.submit(("kg", req.mode), lambda qs: service.answer_kg(req.mode, qs), req.question)
        else:
            gathered = await anyio.to_thread.run_sync(service.gather, req.source, req.question, limiter=fetching)
            job = service.queue.submit(
                ("quotes", req.source), lambda items: service.answer_quotes(req.source, items), (req.question, gathered)
            )
        answered: KGAnswerResponse | QuotedAnswerResponse = await until_answered(
            job, request, service.config.answer_timeout_s
        )
        return answered

    evaluations = anyio.CapacityLimiter(1)
    waiting_evals = [0]

    @app.post(
        "/eval/citations",
        summary="KaLMA citation metrics of answer objects (the lines `kgcite run` writes)",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": EvalCitationsRequest.model_json_schema()}},
            }
        },
    )
    async def eval_citations(request: Request) -> CitationReport:
        if waiting_evals[0] >= service.config.max_eval_waiting:
            raise HTTPException(503, f"{waiting_evals[0]} evaluations are waiting; retry later")
        waiting_evals[0] += 1
        try:
            body = await request.body()
            # in a process: parsing 7.5 MB of ``[]`` took 10.7 s, and in a thread it still held the lock
            # every other request needs (``kgcite.server.evaluation``)
            kind, value = await anyio.to_process.run_sync(score_body, body, limiter=evaluations)
            if kind == "invalid":
                raise RequestValidationError(value)
            if kind == "item":
                raise HTTPException(422, value)
            report: CitationReport = value
            return report
        finally:
            waiting_evals[0] -= 1

    @app.get("/entities/{entity_id}", summary="an entity and its one-hop triples")
    def entity(entity_id: str) -> dict[str, Any]:
        if not 0 < len(entity_id) <= 300:
            raise HTTPException(422, "entity id must be 1 to 300 characters")
        found = service.entity(entity_id)
        if found is None:
            raise HTTPException(404, f"no entity {entity_id!r} in the graph")
        return found

    def _reports() -> ReportFolder:
        if service.config.reports is None:
            raise HTTPException(404, "this server shows no reports: start it with --reports DIR")
        return ReportFolder(service.config.reports)

    @app.get("/reports", summary="evaluation reports this server shows")
    def reports() -> dict[str, Any]:
        return {"reports": _reports().names()}

    @app.get("/reports/{name:path}/files/{file}", summary="a PNG plot of a report", response_class=FileResponse)
    def report_file(name: str, file: str) -> FileResponse:
        try:
            return FileResponse(_reports().image(name, file), media_type="image/png")
        except ReportNotFound as exc:
            raise HTTPException(404, f"no report file {exc}") from exc

    @app.get("/reports/{name:path}", summary="one report: markdown, metrics.json and its plots")
    def report(name: str) -> dict[str, Any]:
        try:
            return _reports().read(name)
        except ReportNotFound as exc:
            raise HTTPException(404, f"no report {exc}") from exc

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(static_dir() / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:  # pages link the SVG; this answers browsers and /docs that ask here anyway
        return FileResponse(static_dir() / "favicon.svg", media_type="image/svg+xml")

    @app.get("/report", include_in_schema=False)
    def report_page() -> FileResponse:
        return FileResponse(static_dir() / "report.html")

    return app
