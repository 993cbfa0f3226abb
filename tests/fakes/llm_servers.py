"""Fake Anthropic and OpenAI HTTP servers that speak the real streaming wire formats.

Each runs a stdlib ``ThreadingHTTPServer`` on 127.0.0.1 (a random port, a
daemon thread), answers from a queue of scripted replies and records every
request, so tests can run the real SDK clients against it and assert what
they sent. Nothing here touches the network beyond the loopback.

    with FakeAnthropicServer() as fake:
        fake.add_text("Hello")
        fake.add_tool_call("bash", {"command": "ls"}, text="Let me look.")
        fake.add_error(529)
        provider = AnthropicProvider("claude-x", api_key="k", base_url=fake.base_url)
        ...
        assert fake.requests[0]["system"] == "..."
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Self


@dataclass
class FakeToolCall:
    """A tool call in a scripted reply; ``id`` is generated when not given.

    ``raw_arguments`` replaces the JSON of ``arguments`` on the wire (to send bad JSON).
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    id: str | None = None
    raw_arguments: str | None = None

    def wire_arguments(self) -> str:
        return json.dumps(self.arguments) if self.raw_arguments is None else self.raw_arguments


@dataclass
class FakeReply:
    """One scripted answer: a streamed message, or an HTTP error when ``status >= 400``.

    ``stop_reason`` is the wire value (e.g. ``"max_tokens"`` / ``"length"``);
    by default it follows from whether there are tool calls. ``stream_error``
    sends the text and then an in-stream error (Anthropic ``event: error``,
    OpenAI ``data: {"error": ...}``) of that type. ``event_delay`` sleeps between
    events so a client can abort mid-stream. ``cut`` ends the Anthropic stream after the
    text, as a dropped connection does: no more blocks, no ``message_stop``.
    """

    text: str = ""
    tool_calls: list[FakeToolCall] = field(default_factory=list)
    thinking: str = ""
    status: int = 200
    error_message: str = ""
    error_type: str | None = None
    error_code: str | None = None
    stop_reason: str | None = None
    input_tokens: int = 12
    output_tokens: int = 7
    stream_error: str | None = None
    event_delay: float = 0.0
    chunk_chars: int = 4
    headers: dict[str, str] = field(default_factory=dict)
    cut: bool = False


@dataclass
class RecordedRequest:
    """What the client sent: path, lower-cased headers and the JSON body."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class _FakeServer:
    """The shared machinery: the HTTP server thread, the reply queue, the log."""

    path: ClassVar[str] = ""
    api_prefix: ClassVar[str] = ""

    def __init__(self) -> None:
        self.replies: deque[FakeReply] = deque()
        self.recorded: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ----------------------------------------------------------

    def add(self, reply: FakeReply) -> FakeReply:
        """Queue a reply; replies are used in order, one per request."""
        with self._lock:
            self.replies.append(reply)
        return reply

    def add_text(self, text: str, **kw: Any) -> FakeReply:
        return self.add(FakeReply(text=text, **kw))

    def add_tool_call(
        self, name: str, arguments: dict[str, Any] | None = None, *, text: str = "", **kw: Any
    ) -> FakeReply:
        return self.add(
            FakeReply(text=text, tool_calls=[FakeToolCall(name, arguments or {})], **kw)
        )

    def add_error(
        self,
        status: int,
        message: str = "",
        *,
        error_type: str | None = None,
        error_code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> FakeReply:
        """Queue an HTTP error reply (the API's JSON error body, with extra ``headers``)."""
        reply = FakeReply(status=status, error_message=message, error_type=error_type)
        reply.error_code = error_code
        reply.headers = dict(headers or {})
        return self.add(reply)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The JSON bodies of every request, in order."""
        return [r.body for r in self.recorded]

    # -- lifecycle ----------------------------------------------------------

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def base_url(self) -> str:
        """What to pass as the SDK's ``base_url``."""
        return self.url + self.api_prefix

    def start(self) -> Self:
        handler = type("Handler", (_Handler,), {"fake": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- answering (runs in the server thread) ------------------------------

    def _next_reply(self) -> FakeReply | None:
        with self._lock:
            return self.replies.popleft() if self.replies else None

    def error_body(self, reply: FakeReply) -> dict[str, Any]:
        raise NotImplementedError

    def events(self, reply: FakeReply, body: dict[str, Any]) -> Iterator[bytes]:
        raise NotImplementedError


class _Handler(BaseHTTPRequestHandler):
    fake: ClassVar[_FakeServer]

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: no access log in test output."""

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.fake.recorded.append(RecordedRequest(self.path, headers, body))
        if self.path.split("?")[0] != self.fake.path:
            return self._json(404, {"error": {"type": "not_found_error", "message": self.path}})
        if not body.get("stream"):
            msg = "the fake server only answers stream: true"
            return self._json(400, {"error": {"type": "invalid_request_error", "message": msg}})
        reply = self.fake._next_reply()
        if reply is None:
            msg = "fake server: no scripted reply left"
            return self._json(400, {"error": {"type": "invalid_request_error", "message": msg}})
        if reply.status >= 400:
            return self._json(reply.status, self.fake.error_body(reply), reply.headers)
        self.send_response(200)
        request_id = f"req_fake_{len(self.fake.recorded)}"
        self.send_header("x-request-id", request_id)  # OpenAI's name
        self.send_header("request-id", request_id)  # Anthropic's name
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        try:
            for chunk in self.fake.events(reply, body):
                self.wfile.write(chunk)
                self.wfile.flush()
                if reply.event_delay:
                    time.sleep(reply.event_delay)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client aborted

    def _json(
        self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), max(size, 1))]


# -- Anthropic ----------------------------------------------------------------

_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


class FakeAnthropicServer(_FakeServer):
    """``POST /v1/messages`` with ``stream: true`` → Anthropic SSE events."""

    path = "/v1/messages"
    api_prefix = ""

    def error_body(self, reply: FakeReply) -> dict[str, Any]:
        kind = reply.error_type or _ANTHROPIC_ERROR_TYPES.get(reply.status, "api_error")
        message = reply.error_message or f"fake {reply.status} {kind}"
        return {"type": "error", "error": {"type": kind, "message": message}}

    def events(self, reply: FakeReply, body: dict[str, Any]) -> Iterator[bytes]:
        n = len(self.recorded)
        message = {
            "id": f"msg_fake_{n}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "fake"),
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        }
        yield _sse("message_start", {"type": "message_start", "message": message})
        yield _sse("ping", {"type": "ping"})
        index = 0
        if reply.thinking:
            empty = {"type": "thinking", "thinking": "", "signature": ""}
            yield from self._block(index, empty, "thinking_delta", "thinking", reply)
            sig = {"type": "signature_delta", "signature": f"sig_{n}"}
            yield _sse("content_block_delta", _delta(index, sig))
            yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
            index += 1
        if reply.text:
            yield from self._block(index, {"type": "text", "text": ""}, "text_delta", "text", reply)
        if reply.stream_error:
            error = {"type": reply.stream_error, "message": f"fake {reply.stream_error}"}
            yield _sse("error", {"type": "error", "error": error})
            return
        if reply.cut:
            return
        if reply.text:
            yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
            index += 1
        for k, call in enumerate(reply.tool_calls):
            block: dict[str, Any] = {
                "type": "tool_use",
                "id": call.id or f"toolu_{n}_{k}",
                "name": call.name,
                "input": {},
            }
            yield _sse(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": block},
            )
            for piece in _pieces(call.wire_arguments(), 7):
                delta = {"type": "input_json_delta", "partial_json": piece}
                yield _sse("content_block_delta", _delta(index, delta))
            yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
            index += 1
        stop = reply.stop_reason or ("tool_use" if reply.tool_calls else "end_turn")
        yield _sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": reply.output_tokens},
            },
        )
        yield _sse("message_stop", {"type": "message_stop"})

    def _block(
        self, index: int, start: dict[str, Any], delta_type: str, key: str, reply: FakeReply
    ) -> Iterator[bytes]:
        yield _sse(
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        )
        for piece in _pieces(getattr(reply, key), reply.chunk_chars):
            yield _sse("content_block_delta", _delta(index, {"type": delta_type, key: piece}))


def _delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": delta}


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


# -- OpenAI -------------------------------------------------------------------


class FakeOpenAIServer(_FakeServer):
    """``POST /v1/chat/completions`` with ``stream: true`` → ``chat.completion.chunk`` lines."""

    path = "/v1/chat/completions"
    api_prefix = "/v1"

    def error_body(self, reply: FakeReply) -> dict[str, Any]:
        kind = reply.error_type or (
            "server_error" if reply.status >= 500 else "invalid_request_error"
        )
        message = reply.error_message or f"fake {reply.status} {kind}"
        return {
            "error": {"message": message, "type": kind, "param": None, "code": reply.error_code}
        }

    def events(self, reply: FakeReply, body: dict[str, Any]) -> Iterator[bytes]:
        n = len(self.recorded)
        base = {
            "id": f"chatcmpl-fake{n}",
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": body.get("model", "fake"),
        }

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            return _data({**base, "choices": [choice]})

        yield chunk({"role": "assistant", "content": ""})
        for piece in _pieces(reply.thinking, reply.chunk_chars):
            yield chunk({"reasoning_content": piece})
        for piece in _pieces(reply.text, reply.chunk_chars):
            yield chunk({"content": piece})
        if reply.stream_error:
            error = {
                "message": f"fake {reply.stream_error}",
                "type": reply.stream_error,
                "code": None,
            }
            yield _data({"error": error})
            return
        for k, call in enumerate(reply.tool_calls):
            head = {
                "index": k,
                "id": call.id or f"call_fake_{n}_{k}",
                "type": "function",
                "function": {"name": call.name, "arguments": ""},
            }
            yield chunk({"tool_calls": [head]})
            for piece in _pieces(call.wire_arguments(), 7):
                yield chunk({"tool_calls": [{"index": k, "function": {"arguments": piece}}]})
        yield chunk({}, reply.stop_reason or ("tool_calls" if reply.tool_calls else "stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            usage = {
                "prompt_tokens": reply.input_tokens,
                "completion_tokens": reply.output_tokens,
                "total_tokens": reply.input_tokens + reply.output_tokens,
            }
            yield _data({**base, "choices": [], "usage": usage})
        yield b"data: [DONE]\n\n"


def _data(payload: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(payload)}\n\n".encode()
