"""Any OpenAI-compatible chat server (vLLM, llama.cpp server, Ollama, OpenAI) over HTTP.

Requests go out concurrently up to a bound, each with a timeout and retries with exponential
backoff on the failures that retrying can cure (connection errors, timeouts, 429, 5xx).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import Sequence
from typing import Any

import httpx

from kgcite.errors import LLMError
from kgcite.models.llm import ChatRequest, ChatResult, parse_openai_reply

_RETRYABLE = {408, 409, 429, 500, 502, 503, 504}
#: Bytes read of one reply: a completion of a few thousand tokens is tens of KB.
MAX_REPLY = 4_000_000


class OpenAICompatLLM:
    def __init__(
        self,
        base_url: str,
        model: str = "default",
        *,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 60.0,
        retries: int = 3,
        concurrency: int = 8,
        backoff: float = 0.5,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = os.environ.get(api_key_env)
        self.timeout, self.retries, self.concurrency, self.backoff = timeout, retries, concurrency, backoff

    @property
    def name(self) -> str:
        return f"openai:{self.base_url}:{self.model}"

    @property
    def url(self) -> str:
        return (
            f"{self.base_url}/chat/completions"
            if self.base_url.endswith("/v1")
            else f"{self.base_url}/v1/chat/completions"
        )

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    async def _one(self, client: httpx.AsyncClient, sem: asyncio.Semaphore, request: ChatRequest) -> ChatResult:
        """One request under an overall deadline of ``timeout`` seconds, retries and backoff
        included: a server that drips one byte at a time cannot hold a request (or the model
        thread of ``kgcite serve``) past it."""
        failures: list[str] = []  # why each attempt failed, for the message when time runs out
        async with sem:
            try:
                async with asyncio.timeout(self.timeout):
                    return await self._attempts(client, request.openai_body(self.model), failures)
            except TimeoutError as exc:
                last = f"; last failure: {failures[-1]}" if failures else ""
                raise LLMError(
                    f"{self.url}: no complete answer within {self.timeout:g} s (the deadline, retries included){last}"
                ) from exc

    async def _attempts(self, client: httpx.AsyncClient, body: dict[str, Any], failures: list[str]) -> ChatResult:
        for attempt in range(self.retries + 1):
            if attempt:
                await asyncio.sleep(self.backoff * 2 ** (attempt - 1) * (1 + random.random() / 4))
            t0 = time.perf_counter()
            try:
                status, raw = await self._post(client, body)
            except httpx.TimeoutException:
                failures.append("timed out")
                continue
            except httpx.HTTPError as exc:
                failures.append(f"unreachable ({type(exc).__name__}: {exc})")
                continue
            text = raw[:300].decode("utf-8", errors="replace")
            if status in _RETRYABLE:
                failures.append(f"HTTP {status}: {text[:200]}")
                continue
            if status >= 400:
                raise LLMError(f"{self.url} answered HTTP {status}: {text}")
            try:
                data = json.loads(raw)
            except (ValueError, RecursionError):
                raise LLMError(f"{self.url} sent a body that is not JSON (or nested too deep): {text[:200]}") from None
            return parse_openai_reply(data, self.model, time.perf_counter() - t0, self.url)
        raise LLMError(f"{self.url}: {failures[-1]} (after {self.retries + 1} attempts)")

    async def _post(self, client: httpx.AsyncClient, body: dict[str, Any]) -> tuple[int, bytes]:
        """(status, body) of one request; a body over :data:`MAX_REPLY` bytes is an LLMError as
        soon as it passes the bound (a 100 MB reply took 577 MB before)."""
        async with client.stream("POST", self.url, json=body, headers=self._headers()) as resp:
            chunks: list[bytes] = []
            size = 0
            async for chunk in resp.aiter_bytes():
                size += len(chunk)
                if size > MAX_REPLY:
                    raise LLMError(
                        f"{self.url}: the reply is over {MAX_REPLY:,} bytes; a chat completion is far smaller"
                    )
                chunks.append(chunk)
            return resp.status_code, b"".join(chunks)

    async def achat_many(self, requests: Sequence[ChatRequest]) -> list[ChatResult | LLMError]:
        sem = asyncio.Semaphore(self.concurrency)
        async with httpx.AsyncClient(timeout=self.timeout) as client:

            async def guarded(r: ChatRequest) -> ChatResult | LLMError:
                try:
                    return await self._one(client, sem, r)
                except LLMError as exc:
                    return exc

            return list(await asyncio.gather(*(guarded(r) for r in requests)))

    def chat_many(self, requests: Sequence[ChatRequest]) -> list[ChatResult | LLMError]:
        return asyncio.run(self.achat_many(requests))

    def chat(self, request: ChatRequest) -> ChatResult:
        result = self.chat_many([request])[0]
        if isinstance(result, LLMError):
            raise result
        return result
