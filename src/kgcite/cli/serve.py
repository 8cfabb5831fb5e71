"""``kgcite serve``: the HTTP API and web page (see :mod:`kgcite.server.app`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from kgcite.cli.common import graph_options, model_options, nli_option, port_number, positive_int
from kgcite.errors import InputError


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from kgcite.cli.common import runtime_from_args
    from kgcite.server.app import ServeConfig, Service, create_app
    from kgcite.server.guards import header_deadline_protocol

    if args.reports and not Path(args.reports).is_dir():
        raise InputError(args.reports, None, None, "--reports: no such folder")
    for d in args.docs or ():
        if not Path(d).exists():
            raise InputError(d, None, None, "--docs: no such file or folder")
    config = ServeConfig(
        docs=tuple(args.docs or ()),
        search_url=args.search_url,
        fetch_allow=tuple(args.allow_fetch or ()),
        reports=Path(args.reports) if args.reports else None,
        max_batch=args.max_batch,
        max_waiting=args.max_waiting,
        allowed_hosts=tuple(
            dict.fromkeys(
                [
                    "127.0.0.1",
                    "localhost",
                    "::1",
                    *([args.host] if args.host not in ("0.0.0.0", "::") else []),
                    *(args.allowed_host or []),
                ]
            )
        ),
    )
    if args.host in ("0.0.0.0", "::") and not args.allowed_host:
        print(
            "kgcite: note: serving on every interface, but only the Host names 127.0.0.1 and localhost are answered; "
            "add --allowed-host NAME for each name clients use (or '*')",
            file=sys.stderr,
        )
    service = Service(runtime_from_args(args), config)
    app = create_app(service)
    host = f"[{args.host}]" if ":" in args.host else args.host  # an IPv6 address in a URL
    url = f"http://{host}:{args.port}/"
    print(f"kgcite: loading models for {url} …", flush=True)

    class ReadyServer(uvicorn.Server):
        """Says so once the socket accepts requests (models are loaded by then)."""

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                print(f"kgcite: ready on {url} (API docs at {url}docs)", flush=True)

        async def shutdown(self, sockets: Any = None) -> None:
            service.queue.stop()  # questions still waiting get 503 now, not a cancelled task later
            await super().shutdown(sockets=sockets)

    ReadyServer(
        uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            timeout_graceful_shutdown=5,
            http=header_deadline_protocol(config.header_timeout_s, config.max_connections),
        )
    ).run()
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "serve",
        help="HTTP API + web page: ask and inspect every citation, read evaluation reports",
        description="POST /ask, POST /eval/citations, GET /entities/{id}, GET /health; the page at / and reports at "
        "/report. Models load once at start; concurrent questions wait in one queue and are answered in batches.",
    )
    p.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (this machine only)")
    p.add_argument(
        "--allowed-host",
        action="append",
        metavar="NAME",
        help="a Host name clients use to reach the server (repeatable; '*' for any); "
        "127.0.0.1, localhost and --host are always allowed",
    )
    p.add_argument("--port", type=port_number, default=8000, help="default 8000")
    p.add_argument("--reports", metavar="DIR", help="folder of evaluation reports (folders with report.md) for /report")
    p.add_argument("--docs", action="append", metavar="FILE|DIR", help="documents for source docs|both (repeatable)")
    p.add_argument("--search-url", metavar="URL", help="a SearXNG instance for source docs|both")
    p.add_argument(
        "--allow-fetch",
        action="append",
        metavar="HOST|NETWORK",
        help="let search results on this internal host or network be fetched (repeatable; loopback, private and "
        "link-local addresses are refused otherwise)",
    )
    nli_option(p, "NLI model of the verifier", without="verify by the judge's rules alone (no NLI model)")
    p.add_argument(
        "--max-batch", type=positive_int, default=8, help="questions answered together by the model (default 8)"
    )
    p.add_argument("--max-waiting", type=positive_int, default=256, help="queued requests before 503 (default 256)")
    p.add_argument(
        "--log-level",
        default="warning",
        choices=["critical", "error", "warning", "info", "debug"],
        help="the server's log level (default warning)",
    )
    model_options(p)

    graph_options(p)
    p.set_defaults(func=cmd_serve)
