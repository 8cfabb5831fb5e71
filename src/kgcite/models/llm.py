"""The LLM interface every generator talks to, whatever runs the model.

A request is a plain frozen dataclass so it can be hashed into the response cache; backends
(embedded llama.cpp, any OpenAI-compatible server) turn it into their own call.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

from kgcite.errors import (
    LLMError,
    ModelError,  # noqa: F401 - re-exported
)


@dataclass(frozen=True)
class Message:
    role: str
    content: str


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion. ``grammar`` (GBNF) or ``json_schema`` constrain the output where the
    backend supports it; ``seed`` with temperature 0 makes runs repeatable."""

    messages: tuple[Message, ...]
    max_tokens: int = 256
    temperature: float = 0.0
    grammar: str | None = None
    json_schema: str | None = None  # a JSON document, kept as text so the request stays hashable
    stop: tuple[str, ...] = ()
    seed: int = 0
    logprobs: int = 0  # ask for this many alternatives of each generated token (G-Eval weighting)
    raw_logprobs: bool = False  # log-probabilities from the model's own distribution, before any grammar

    @classmethod
    def of(cls, prompt: str, *, system: str | None = None, **kw: Any) -> ChatRequest:
        msgs = ((Message("system", system),) if system else ()) + (Message("user", prompt),)
        return cls(msgs, **kw)

    def to_json(self) -> str:
        """Canonical text of the request: the cache key is derived from it."""
        data = asdict(self)
        for key in ("logprobs", "raw_logprobs"):  # keys of requests made before these fields existed stay valid
            if not data[key]:
                del data[key]
        return json.dumps(data, sort_keys=True, ensure_ascii=False)

    def openai_body(self, model: str) -> dict[str, Any]:
        """The request as an OpenAI chat-completions body (llama.cpp server reads ``grammar`` too)."""
        body: dict[str, Any] = {
            "model": model,
            "messages": [{"role": m.role, "content": m.content} for m in self.messages],
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "seed": self.seed,
        }
        if self.stop:
            body["stop"] = list(self.stop)
        if self.grammar:
            body["grammar"] = self.grammar
        if self.logprobs:
            body["logprobs"] = True
            body["top_logprobs"] = self.logprobs
        if self.json_schema:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": json.loads(self.json_schema)},
            }
        return body


@dataclass(frozen=True)
class ChatResult:
    text: str
    model: str
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False
    #: the first generated token's alternatives as (token, log-probability), when asked for
    top_logprobs: tuple[tuple[str, float], ...] = ()
    #: every generated token's log-probability, when asked for
    token_logprobs: tuple[float, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


@runtime_checkable
class LLM(Protocol):
    """A chat model. ``name`` identifies backend and model (it is part of the cache key)."""

    @property
    def name(self) -> str: ...

    def chat(self, request: ChatRequest) -> ChatResult: ...

    def chat_many(self, requests: Sequence[ChatRequest]) -> list[ChatResult | LLMError]:
        """Answer several requests (concurrently where the backend can); a failed one comes back
        as its error so the others are not lost."""
        ...


def parse_openai_reply(data: Any, model: str, seconds: float, where: str) -> ChatResult:
    """An OpenAI-style chat-completions reply to a :class:`ChatResult`, or a clear LLMError: a
    reply of any other shape (a list, a number where a count goes, a missing field) is the
    backend's error, never an exception that would fail a whole batch."""
    try:
        choice = data["choices"][0]
        text = choice["message"]["content"]
        if not isinstance(text, str):
            raise TypeError("content is not text")
        usage = data.get("usage") or {}
        return ChatResult(
            top_logprobs=_first_token_logprobs(choice),
            token_logprobs=_token_logprobs(choice),
            text=text,
            model=str(data.get("model") or model),
            finish_reason=finish if isinstance(finish := choice.get("finish_reason"), str) else None,
            prompt_tokens=_count(usage, "prompt_tokens"),
            completion_tokens=_count(usage, "completion_tokens"),
            seconds=seconds,
        )
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
        raise LLMError(f"{where}: unreadable chat completion ({type(exc).__name__}: {str(exc)[:100]})") from None


def _count(usage: Any, key: str) -> int:
    """A token count of ``usage``; 0 where the backend wrote something else ("n/a", -3, 1e400)."""
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**12 else 0


def _token_logprobs(choice: dict[str, Any]) -> tuple[float, ...]:
    try:
        return tuple(float(t["logprob"]) for t in choice["logprobs"]["content"] if "logprob" in t)
    except (KeyError, TypeError, ValueError):
        return ()


def _first_token_logprobs(choice: dict[str, Any]) -> tuple[tuple[str, float], ...]:
    """OpenAI's ``logprobs.content[0].top_logprobs``; empty when the backend gave none."""
    try:
        first = choice["logprobs"]["content"][0]
        if "top_probs" in first:  # llama.cpp's post-sampling probabilities (after the grammar)
            return tuple((str(t["token"]), math.log(max(float(t["prob"]), 1e-300))) for t in first["top_probs"])
        return tuple((str(t["token"]), float(t["logprob"])) for t in first.get("top_logprobs") or [first])
    except (KeyError, IndexError, TypeError, ValueError):
        return ()


def continuation_perplexity(
    llm: LLM, contexts: Sequence[str], continuations: Sequence[str], *, system: str | None = None
) -> list[float | None]:
    """The model's perplexity of each continuation after its context, by forced decoding: a
    grammar that admits only the continuation, with the model's raw token log-probabilities.
    None where the backend gives no log-probabilities (a server without grammars or logprobs)."""
    requests = [
        ChatRequest.of(
            ctx,
            system=system,
            max_tokens=4 * len(cont) // 3 + 16,
            grammar="root ::= " + json.dumps(cont),
            logprobs=1,
            raw_logprobs=True,
        )
        for ctx, cont in zip(contexts, continuations, strict=True)
    ]
    out: list[float | None] = []
    for res in llm.chat_many(requests):
        lps = res.token_logprobs if isinstance(res, ChatResult) else ()
        out.append(math.exp(-sum(lps) / len(lps)) if lps else None)
    return out
