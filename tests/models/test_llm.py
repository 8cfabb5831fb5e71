"""The LLM adapters against real llama.cpp: in-process, and as an HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from kgcite.models.cache import CachedLLM
from kgcite.models.llamacpp import LlamaCppLLM
from kgcite.models.llm import ChatRequest, ChatResult, LLMError
from kgcite.models.openai_http import OpenAICompatLLM
from kgcite.ports import free_port

YES_NO = 'root ::= "yes" | "no"'


def test_embedded_llamacpp_answers_and_obeys_a_grammar(smollm: LlamaCppLLM) -> None:
    res = smollm.chat(ChatRequest.of("Is Rome in Italy? Answer yes or no.", max_tokens=4, grammar=YES_NO))
    assert res.text in ("yes", "no")
    assert res.model.endswith(".gguf") and res.completion_tokens >= 1
    free = smollm.chat(ChatRequest.of("Say hello.", max_tokens=8))
    assert free.text.strip()


def test_embedded_llamacpp_is_deterministic_at_temperature_zero(smollm: LlamaCppLLM) -> None:
    req = ChatRequest.of("Name a colour.", max_tokens=6)
    assert smollm.chat(req).text == smollm.chat(req).text


def test_missing_gguf_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LLMError, match="no such GGUF"):
        LlamaCppLLM(tmp_path / "nope.gguf").chat(ChatRequest.of("hi"))


def test_http_client_against_a_real_llamacpp_server(llama_server: str) -> None:
    llm = OpenAICompatLLM(llama_server, "smollm2", concurrency=2)
    reqs = [
        ChatRequest.of(f"Is {c} a city? Answer yes or no.", max_tokens=4, grammar=YES_NO)
        for c in ("Rome", "Paris", "Oslo")
    ]
    results = llm.chat_many(reqs)
    assert all(isinstance(r, ChatResult) and r.text in ("yes", "no") for r in results)
    schema = json.dumps({"type": "object", "properties": {"year": {"type": "integer"}}, "required": ["year"]})
    res = llm.chat(
        ChatRequest.of("In which year did World War II end? Reply in JSON.", max_tokens=24, json_schema=schema)
    )
    assert isinstance(json.loads(res.text)["year"], int)


def test_http_client_same_answer_as_embedded(llama_server: str, smollm: LlamaCppLLM) -> None:
    req = ChatRequest.of("Name a fruit.", max_tokens=6)
    assert OpenAICompatLLM(llama_server).chat(req).text == smollm.chat(req).text


def test_refused_connection_fails_clearly_after_retries() -> None:
    port = free_port()  # nothing listens there
    llm = OpenAICompatLLM(f"http://127.0.0.1:{port}", retries=2, backoff=0.01)
    t0 = time.perf_counter()
    with pytest.raises(LLMError, match=r"unreachable .* \(after 3 attempts\)"):
        llm.chat(ChatRequest.of("hi"))
    assert time.perf_counter() - t0 < 5


def test_http_500_is_retried_then_reported(broken_server) -> None:  # type: ignore[no-untyped-def]
    url, handler = broken_server
    results = OpenAICompatLLM(url, retries=2, backoff=0.01).chat_many([ChatRequest.of("a"), ChatRequest.of("b")])
    assert all(isinstance(r, LLMError) and "HTTP 500" in str(r) for r in results)
    assert handler.hits == 6  # two requests, three attempts each


@pytest.mark.parametrize(
    ("broken_server", "message"),
    [
        ((400, {"error": "bad request"}), "answered HTTP 400"),
        ((200, b"<html>not json</html>"), "not JSON"),
        ((200, {"choices": []}), "unreadable chat completion"),
        # each once raised ValueError, AttributeError or RecursionError and failed the whole batch
        ((200, {"choices": [{"message": {"content": "hi"}}], "usage": {"prompt_tokens": "n/a"}}), None),
        ((200, {"choices": [{"message": {"content": "hi"}, "finish_reason": ["x"]}], "usage": [1]}), None),
        ((200, b"[" * 100_000 + b"]" * 100_000), "not JSON"),
        ((200, b" " * 5_000_000), "over 4,000,000 bytes"),
    ],
    indirect=["broken_server"],
)
def test_bad_replies_are_clear_errors_without_retry(broken_server, message: str | None) -> None:  # type: ignore[no-untyped-def]
    """A reply kgcite cannot read is that request's LLMError (its batch-mates are answered); a
    count that is not a number is read as 0."""
    url, handler = broken_server
    llm = OpenAICompatLLM(url, retries=2, backoff=0.01)
    if message is None:
        assert llm.chat(ChatRequest.of("hi")).prompt_tokens == 0
        return
    with pytest.raises(LLMError, match=message):
        llm.chat(ChatRequest.of("hi"))
    assert handler.hits == 1
    batch = llm.chat_many([ChatRequest.of("a"), ChatRequest.of("b")])
    assert all(isinstance(r, LLMError) for r in batch)


def test_timeouts_are_reported(llama_server: str) -> None:
    llm = OpenAICompatLLM(llama_server, timeout=0.001, retries=0)
    with pytest.raises(LLMError, match="within 0.001 s"):
        llm.chat(ChatRequest.of("Write a long story.", max_tokens=200))


def test_cache_answers_a_repeat_without_the_model(tmp_path: Path, smollm: LlamaCppLLM, broken_server) -> None:  # type: ignore[no-untyped-def]
    cache = CachedLLM(smollm, tmp_path / "c.sqlite")
    req = ChatRequest.of("Name a river.", max_tokens=6)
    first = cache.chat(req)
    again = CachedLLM(smollm, tmp_path / "c.sqlite").chat(req)  # a new process would see the same file
    assert not first.cached and again.cached and again.text == first.text
    other = cache.chat(ChatRequest.of("Name a river.", max_tokens=7))  # any change is a new request
    assert not other.cached
    url, _ = broken_server
    failing = CachedLLM(OpenAICompatLLM(url, retries=0), tmp_path / "c.sqlite")
    assert isinstance(failing.chat_many([req])[0], LLMError)  # another backend: its own entries
    assert isinstance(failing.chat_many([req])[0], LLMError)  # and errors are never cached


class _Dripping(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that sends its reply one byte every half second: every read
    arrives within any read timeout, so only an overall deadline ends the request."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", "100000")
        self.end_headers()
        try:
            for _ in range(600):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.5)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: object) -> None:
        pass


def test_a_dripping_server_cannot_outlast_the_deadline() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Dripping)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        t0 = time.perf_counter()
        [result] = OpenAICompatLLM(url, timeout=2, retries=3).chat_many([ChatRequest.of("hi", max_tokens=5)])
        assert isinstance(result, LLMError) and "within 2 s" in str(result)
        assert time.perf_counter() - t0 < 3.5  # the deadline, not 4 attempts × (timeout + backoff)
        t1 = time.perf_counter()
        res = subprocess.run(
            [
                "kgcite",
                "ask",
                "Who was Stephen Crane's father?",
                "--rewrite",
                "--base-url",
                url,
                "--timeout",
                "2",
                "--no-cache",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert res.returncode == 1 and "within 2 s" in res.stderr and "Traceback" not in res.stderr
        assert time.perf_counter() - t1 < 30  # model loading plus one deadline
    finally:
        server.shutdown()
