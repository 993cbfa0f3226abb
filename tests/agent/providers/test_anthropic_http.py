"""The Messages API over httpx2, against the loopback fake server: what the SDK did is kept.

Streaming (text, thinking and its signature, tool input in JSON pieces, usage),
headers and base URL, every retryable status retried (the requests counted)
with the server's ``retry-after``, the errors' messages as the SDK-backed
provider gave them, a stream cut short, a timeout and a refused connection.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from hookline.agent.blocks import StreamBlocks
from hookline.agent.provider import ModelRequest, ProviderError
from hookline.agent.providers import AnthropicProvider, anthropic_http, complete_with_retry
from hookline.agent.providers.anthropic_http import status_error
from hookline.core.messages import AssistantMessage, user_message
from tests.fakes import FakeAnthropicServer, FakeReply, FakeToolCall


def provider_for(server: FakeAnthropicServer) -> AnthropicProvider:
    return AnthropicProvider("claude-test", api_key="sk-test", base_url=server.base_url)


def ask() -> ModelRequest:
    return ModelRequest("s", [user_message("q")])


async def retrying(provider: AnthropicProvider, sleeps: list[float]) -> AssistantMessage:
    """``complete_with_retry`` with the sleeps noted, not slept, and no jitter."""

    async def sleep(delay: float) -> None:
        sleeps.append(delay)

    return await complete_with_retry(provider, ask(), sleep=sleep, jitter=lambda _: 0.0)


# -- streaming ------------------------------------------------------------------


async def test_thinking_with_its_signature_text_and_usage(
    anthropic_server: FakeAnthropicServer,
) -> None:
    anthropic_server.add(FakeReply(thinking="let me see", text="hi", output_tokens=21))
    events: list[dict[str, Any]] = []
    request = ask()
    request.blocks = StreamBlocks(events.append)
    msg = await provider_for(anthropic_server).complete(request)

    assert msg["content"] == [
        {"type": "thinking", "thinking": "let me see", "signature": "sig_1"},  # type: ignore[typeddict-unknown-key]
        {"type": "text", "text": "hi"},
    ]
    assert msg["usage"] == {"input_tokens": 12, "output_tokens": 21}  # message_delta's total
    assert [e["type"] for e in events if e["type"].endswith(("_start", "_end"))] == [
        "thinking_start",
        "thinking_end",
        "text_start",
        "text_end",
    ]


async def test_tool_input_arrives_as_partial_json(anthropic_server: FakeAnthropicServer) -> None:
    arguments = {"command": "grep -rn 'x' src", "limits": {"lines": [1, 2, 3]}}
    bad = FakeToolCall("bash", raw_arguments='{"command": "ls"')
    empty = FakeToolCall("pwd", raw_arguments="")
    anthropic_server.add(FakeReply(tool_calls=[FakeToolCall("bash", arguments), bad, empty]))
    events: list[dict[str, Any]] = []
    request = ask()
    request.blocks = StreamBlocks(events.append)
    msg = await provider_for(anthropic_server).complete(request)

    pieces = [
        e["delta"] for e in events if e["type"] == "toolcall_delta" and e["content_index"] == 0
    ]
    assert len(pieces) > 3 and "".join(pieces).startswith('{"command"')
    calls = [c for c in msg["content"] if c["type"] == "tool_call"]
    assert [c["arguments"] for c in calls] == [
        arguments,
        {"_invalid_json": '{"command": "ls"'},  # kept for the tool to report
        {},
    ]
    assert calls[0]["id"] == "toolu_1_0" and msg["stop_reason"] == "tool_use"


async def test_headers_version_and_key(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add_text("ok")
    await provider_for(anthropic_server).complete(ask())

    headers = anthropic_server.recorded[0].headers
    assert headers["x-api-key"] == "sk-test"
    assert "authorization" not in headers
    assert headers["anthropic-version"] == "2023-06-01"
    assert headers["content-type"] == "application/json"


async def test_a_bearer_token_when_there_is_no_key(
    anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "tok-123")
    anthropic_server.add_text("ok")
    await AnthropicProvider("claude-test", base_url=anthropic_server.base_url).complete(ask())

    headers = anthropic_server.recorded[0].headers
    assert headers["authorization"] == "Bearer tok-123"
    assert "x-api-key" not in headers


async def test_the_base_url_from_the_environment_keeps_its_path(
    anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", anthropic_server.url + "/gateway/")
    with pytest.raises(ProviderError, match="404 not_found_error"):
        await AnthropicProvider("claude-test", api_key="k").complete(ask())
    assert anthropic_server.recorded[0].path == "/gateway/v1/messages"

    monkeypatch.setenv("ANTHROPIC_BASE_URL", anthropic_server.url)
    anthropic_server.add_text("ok")
    msg = await AnthropicProvider("claude-test", api_key="k").complete(ask())
    assert msg["content"] == [{"type": "text", "text": "ok"}]


async def test_on_response_sees_the_status_and_request_id(
    anthropic_server: FakeAnthropicServer,
) -> None:
    anthropic_server.add_text("ok")
    seen: list[tuple[Any, ...]] = []

    async def on_response(status: int, headers: dict[str, str], rid: str | None, api: str) -> None:
        seen.append((status, headers["content-type"], rid, api))

    request = ask()
    request.on_response = on_response
    await provider_for(anthropic_server).complete(request)
    assert seen == [(200, "text/event-stream", "req_fake_1", "anthropic")]


# -- retries ----------------------------------------------------------------------


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504, 529])
async def test_each_retryable_status_is_retried(
    anthropic_server: FakeAnthropicServer, status: int
) -> None:
    anthropic_server.add_error(status, "try again")
    anthropic_server.add_error(status, "try again")
    anthropic_server.add_text("done")
    sleeps: list[float] = []

    msg = await retrying(provider_for(anthropic_server), sleeps)

    assert msg["content"] == [{"type": "text", "text": "done"}]
    assert len(anthropic_server.recorded) == 3
    assert sleeps == [0.5, 1.0]  # the backoff doubles


@pytest.mark.parametrize(
    ("headers", "wait"),
    [({"retry-after": "7"}, 7.0), ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5)],
)
async def test_the_wait_honours_retry_after(
    anthropic_server: FakeAnthropicServer, headers: dict[str, str], wait: float
) -> None:
    anthropic_server.add_error(503, "busy", headers=headers)
    anthropic_server.add_text("ok")
    sleeps: list[float] = []

    await retrying(provider_for(anthropic_server), sleeps)

    assert sleeps == [wait]
    assert len(anthropic_server.recorded) == 2


@pytest.fixture
def closing_server() -> Iterator[tuple[str, list[int]]]:
    """A loopback port that accepts each connection and closes it at once (counted)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    accepted: list[int] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            accepted.append(1)
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", accepted
    sock.close()


async def test_a_dropped_connection_is_retried_then_reported(
    closing_server: tuple[str, list[int]],
) -> None:
    url, accepted = closing_server
    provider = AnthropicProvider("m", api_key="k", base_url=url)
    sleeps: list[float] = []

    with pytest.raises(ProviderError, match="anthropic connection error: Connection error") as err:
        await retrying(provider, sleeps)

    assert err.value.transient is True
    assert len(accepted) == 3 and sleeps == [0.5, 1.0]


async def test_a_stream_cut_midway_is_retried(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add(FakeReply(text="half of it", cut=True))
    anthropic_server.add_text("all of it")
    seen: list[str] = []

    async def sleep(delay: float) -> None:
        pass

    msg = await complete_with_retry(provider_for(anthropic_server), ask(), seen.append, sleep=sleep)

    assert msg["content"] == [{"type": "text", "text": "all of it"}]
    assert "".join(seen) == "half of itall of it"  # a failed attempt's text is not taken back
    assert len(anthropic_server.recorded) == 2


async def test_a_cut_stream_is_a_transient_error(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add(FakeReply(text="half", cut=True))
    with pytest.raises(ProviderError, match="the stream ended before message_stop") as err:
        await provider_for(anthropic_server).complete(ask())
    assert err.value.transient is True


async def test_a_read_timeout_is_the_sdks_timeout_error(
    anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(anthropic_http, "TIMEOUT", 0.2)
    anthropic_server.add(FakeReply(text="slow answer", event_delay=0.5))
    with pytest.raises(ProviderError, match="Request timed out or interrupted") as err:
        await provider_for(anthropic_server).complete(ask())
    assert err.value.transient is True


# -- errors: the messages the SDK-backed provider gave ------------------------------


@pytest.mark.parametrize(
    ("status", "message", "error_type", "expected"),
    [
        (
            400,
            "prompt is too long: 210000 tokens > 200000 maximum",
            None,
            "anthropic error 400 invalid_request_error: "
            "prompt is too long: 210000 tokens > 200000 maximum",
        ),
        (
            401,
            "invalid x-api-key",
            None,
            "anthropic error 401 authentication_error: invalid x-api-key (check ANTHROPIC_API_KEY)",
        ),
        (
            403,
            "no access",
            None,
            "anthropic error 403 permission_error: no access (check ANTHROPIC_API_KEY)",
        ),
        (404, "model: nope", None, "anthropic error 404 not_found_error: model: nope"),
        (
            413,
            "Request exceeds the maximum allowed number of bytes.",
            "request_too_large",
            "anthropic error 413 request_too_large: "
            "Request exceeds the maximum allowed number of bytes.",
        ),
    ],
)
async def test_errors_not_worth_a_retry_keep_their_messages(
    anthropic_server: FakeAnthropicServer,
    status: int,
    message: str,
    error_type: str | None,
    expected: str,
) -> None:
    anthropic_server.add_error(status, message, error_type=error_type)
    with pytest.raises(ProviderError) as err:
        await retrying(provider_for(anthropic_server), [])
    assert (str(err.value), err.value.status, err.value.transient) == (expected, status, False)
    assert len(anthropic_server.recorded) == 1


@pytest.mark.parametrize(
    ("status", "message", "retry_after", "expected"),
    [
        (408, "", None, "anthropic error 408 api_error: fake 408 api_error"),
        (429, "slow down", 3.0, "anthropic error 429 rate_limit_error: slow down"),
        (529, "Overloaded", None, "anthropic error 529 overloaded_error: Overloaded"),
    ],
)
async def test_retryable_errors_keep_their_messages(
    anthropic_server: FakeAnthropicServer,
    status: int,
    message: str,
    retry_after: float | None,
    expected: str,
) -> None:
    headers = {"retry-after": "3"} if retry_after else None
    anthropic_server.add_error(status, message, headers=headers)
    with pytest.raises(ProviderError) as err:
        await provider_for(anthropic_server).complete(ask())
    assert (str(err.value), err.value.status) == (expected, status)
    assert (err.value.transient, err.value.retry_after) == (True, retry_after)


@pytest.mark.parametrize(
    ("kind", "expected", "status", "transient"),
    [
        (
            "overloaded_error",
            "anthropic error 529 overloaded_error: fake overloaded_error",
            529,
            True,
        ),
        ("api_error", "anthropic error 500 api_error: fake api_error", 500, True),
        (
            "rate_limit_error",
            "anthropic error 429 rate_limit_error: fake rate_limit_error",
            429,
            True,
        ),
        (
            "invalid_request_error",
            "anthropic error invalid_request_error: fake invalid_request_error",
            None,
            False,
        ),
    ],
)
async def test_error_events_in_the_stream(
    anthropic_server: FakeAnthropicServer,
    kind: str,
    expected: str,
    status: int | None,
    transient: bool,
) -> None:
    anthropic_server.add(FakeReply(text="half", stream_error=kind))
    with pytest.raises(ProviderError) as err:
        await provider_for(anthropic_server).complete(ask())
    assert (str(err.value), err.value.status, err.value.transient) == (expected, status, transient)


def test_a_body_that_is_not_json_is_quoted_as_the_sdk_did() -> None:
    gateway = status_error(502, "<html>Bad Gateway</html>\n", {})
    assert str(gateway) == "anthropic error 502 : <html>Bad Gateway</html>"
    assert gateway.transient is True
    assert str(status_error(500, "", {})) == "anthropic error 500 : Error code: 500"
    odd = status_error(400, '{"detail": "x"}', {})
    assert str(odd) == "anthropic error 400 : Error code: 400 - {'detail': 'x'}"


async def test_an_event_that_is_not_json_is_a_provider_error() -> None:
    import httpx2

    body = b'event: message_start\ndata: {"type": "message_start"\n\n'
    headers = {"content-type": "text/event-stream"}
    request = httpx2.Request("POST", "http://127.0.0.1:9/v1/messages")
    response = httpx2.Response(200, headers=headers, content=body, request=request)
    events = anthropic_http.EventStream(response)
    with pytest.raises(ProviderError, match="an event that is not JSON") as err:
        _ = [event async for event in events]
    assert err.value.transient is False


class _JsonAnswer(BaseHTTPRequestHandler):
    """Answers every POST with a 200 that is JSON, not an event stream (a misrouted gateway)."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        data = b'{"type": "message"}'
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


async def test_an_answer_that_is_not_an_event_stream_is_not_retried() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _JsonAnswer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with pytest.raises(ProviderError, match="text/event-stream") as err:
            await AnthropicProvider("m", api_key="k", base_url=url).complete(ask())
    finally:
        server.shutdown()
        server.server_close()
    assert err.value.transient is False


@pytest.mark.parametrize(
    ("url", "proxy", "tls"),
    [
        ("https://api.anthropic.com/v1/messages", None, True),
        ("http://127.0.0.1:8080/v1/messages", None, False),  # the CA bundle is not loaded
        ("HTTP://gateway.local/v1/messages", None, False),
        ("http://127.0.0.1:8080/v1/messages", ("HTTPS_PROXY", "https://proxy:3128"), True),
        ("http://127.0.0.1:8080/v1/messages", ("http_proxy", "http://proxy:3128"), True),
        ("http://127.0.0.1:8080/v1/messages", ("ALL_PROXY", "socks5://proxy:1080"), True),
    ],
)
def test_only_a_client_that_may_use_tls_loads_the_ca_bundle(
    monkeypatch: pytest.MonkeyPatch, url: str, proxy: tuple[str, str] | None, tls: bool
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    if proxy is not None:
        monkeypatch.setenv(*proxy)
    assert anthropic_http.may_use_tls(url) is tls
