"""The Anthropic provider against the fake Anthropic server: wire shapes both ways."""

from __future__ import annotations

import asyncio
import socket
import sys
from typing import Any

import pytest

from hookline.agent.provider import ModelRequest, ProviderError, ToolSpec
from hookline.agent.providers import AnthropicProvider, complete_with_retry
from hookline.core.messages import (
    AssistantMessage,
    CustomMessage,
    Message,
    ToolResultMessage,
    user_message,
)
from tests.fakes import FakeAnthropicServer, FakeReply, FakeToolCall

BASH = ToolSpec(
    "bash",
    "Run a shell command.",
    {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
)


def provider_for(server: FakeAnthropicServer) -> AnthropicProvider:
    return AnthropicProvider("claude-test", api_key="sk-test", base_url=server.base_url)


def tool_result(call_id: str, text: str, *, is_error: bool = False) -> ToolResultMessage:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "tool_name": "bash",
        "content": [{"type": "text", "text": text}],
        "is_error": is_error,
    }


async def test_text_streams_to_on_text(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add_text("Hello from the fake model", input_tokens=30, output_tokens=9)
    deltas: list[str] = []
    request = ModelRequest("You are terse.", [user_message("hi")], [BASH], max_tokens=1000)
    msg = await provider_for(anthropic_server).complete(request, deltas.append)

    assert len(deltas) > 1 and "".join(deltas) == "Hello from the fake model"
    assert msg["content"] == [{"type": "text", "text": "Hello from the fake model"}]
    assert msg["stop_reason"] == "stop"
    assert msg["model"] == "claude-test"
    assert msg["usage"] == {"input_tokens": 30, "output_tokens": 9}

    sent = anthropic_server.recorded[0]
    assert sent.path == "/v1/messages"
    assert "sk-test" in (sent.headers.get("x-api-key", "") + sent.headers.get("authorization", ""))
    assert sent.body["system"] == "You are terse."
    assert sent.body["model"] == "claude-test"
    assert sent.body["max_tokens"] == 1000
    assert sent.body["stream"] is True
    assert sent.body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert sent.body["tools"] == [
        {"name": "bash", "description": "Run a shell command.", "input_schema": BASH.parameters}
    ]


async def test_two_step_tool_conversation(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add_tool_call("bash", {"command": "ls -la", "n": [1, 2]}, text="Let me look.")
    anthropic_server.add_text("There are two files.")
    provider = provider_for(anthropic_server)
    history: list[Message] = [user_message("what is here?")]

    first = await provider.complete(ModelRequest("sys", list(history), [BASH]))
    assert first["stop_reason"] == "tool_use"
    call = first["content"][1]
    assert call["type"] == "tool_call"
    assert call["name"] == "bash" and call["arguments"] == {"command": "ls -la", "n": [1, 2]}
    assert call["id"].startswith("toolu_")

    history += [first, tool_result(call["id"], "a.txt\nb.txt")]
    second = await provider.complete(ModelRequest("sys", list(history), [BASH]))
    assert second["content"] == [{"type": "text", "text": "There are two files."}]

    messages = anthropic_server.requests[1]["messages"]
    assert messages[1] == {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me look."},
            {
                "type": "tool_use",
                "id": call["id"],
                "name": "bash",
                "input": {"command": "ls -la", "n": [1, 2]},
            },
        ],
    }
    assert messages[2] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": call["id"],
                "is_error": False,
                "content": [{"type": "text", "text": "a.txt\nb.txt"}],
            }
        ],
    }


async def test_results_grouped_custom_and_images(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add_text("ok")
    assistant: AssistantMessage = {
        "role": "assistant",
        "content": [
            {"type": "tool_call", "id": "t1", "name": "bash", "arguments": {}},
            {"type": "tool_call", "id": "t2", "name": "bash", "arguments": {}},
        ],
        "stop_reason": "tool_use",
    }
    note: CustomMessage = {
        "role": "custom",
        "custom_type": "n",
        "content": "a hook note",
        "display": True,
    }
    image = {"type": "image", "data": "aGk=", "mime_type": "image/png"}
    history: list[Message] = [
        user_message([{"type": "text", "text": "look"}, image]),  # type: ignore[list-item]
        assistant,
        tool_result("t1", "one"),
        tool_result("t2", "boom", is_error=True),
        note,
    ]
    await provider_for(anthropic_server).complete(ModelRequest("", history))
    body = anthropic_server.requests[0]
    assert "system" not in body and "tools" not in body
    msgs = body["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
    assert msgs[0]["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "aGk="},
    }
    results = msgs[2]["content"]
    assert [b["type"] for b in results] == ["tool_result", "tool_result", "text"]
    assert results[1]["is_error"] is True and results[1]["tool_use_id"] == "t2"
    assert results[2] == {"type": "text", "text": "a hook note"}


async def test_thinking_and_length_stop(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add(FakeReply(thinking="pondering", text="partial", stop_reason="max_tokens"))
    anthropic_server.add_text("next")
    provider = provider_for(anthropic_server)
    first = await provider.complete(ModelRequest("s", [user_message("q")]))
    assert first["stop_reason"] == "length"
    thinking = first["content"][0]
    assert thinking["type"] == "thinking" and thinking["thinking"] == "pondering"

    history: list[Message] = [user_message("q"), first, user_message("go on")]
    await provider.complete(ModelRequest("s", history))
    sent = anthropic_server.requests[1]["messages"][1]["content"]
    assert sent[0]["type"] == "thinking" and sent[0]["signature"], "signed thinking goes back"


async def test_unsigned_thinking_is_not_sent(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add_text("ok")
    assistant: AssistantMessage = {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "x"}, {"type": "text", "text": "hi"}],
    }
    await provider_for(anthropic_server).complete(
        ModelRequest("s", [user_message("a"), assistant, user_message("b")])
    )
    assert anthropic_server.requests[0]["messages"][1]["content"] == [
        {"type": "text", "text": "hi"}
    ]


@pytest.mark.parametrize(
    ("status", "transient"), [(529, True), (500, True), (429, True), (401, False), (400, False)]
)
async def test_http_errors_map_to_provider_error(
    anthropic_server: FakeAnthropicServer, status: int, transient: bool
) -> None:
    anthropic_server.add_error(status, "nope")
    with pytest.raises(ProviderError) as err:
        await provider_for(anthropic_server).complete(ModelRequest("s", [user_message("q")]))
    assert err.value.status == status
    assert err.value.transient is transient
    assert "nope" in str(err.value)
    assert len(anthropic_server.recorded) == 1, "the provider does not retry on its own"
    if status == 401:
        assert "ANTHROPIC_API_KEY" in str(err.value)


async def test_in_stream_overloaded_error_is_transient(
    anthropic_server: FakeAnthropicServer,
) -> None:
    anthropic_server.add(FakeReply(text="half", stream_error="overloaded_error"))
    seen: list[str] = []
    with pytest.raises(ProviderError) as err:
        await provider_for(anthropic_server).complete(
            ModelRequest("s", [user_message("q")]), seen.append
        )
    assert err.value.transient is True and err.value.status == 529
    assert "".join(seen) == "half"


async def test_retry_recovers_from_529_and_500(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add_error(529)
    anthropic_server.add_error(500)
    anthropic_server.add_text("finally")
    events: list[tuple[Any, ...]] = []
    sleeps: list[float] = []

    async def sleep(delay: float) -> None:
        sleeps.append(delay)

    msg = await complete_with_retry(
        provider_for(anthropic_server),
        ModelRequest("s", [user_message("q")]),
        on_retry_start=lambda *a: events.append(("start", *a[:3])),
        on_retry_end=lambda *a: events.append(("end", *a)),
        sleep=sleep,
        jitter=lambda delay: 0.0,
    )
    assert msg["content"] == [{"type": "text", "text": "finally"}]
    assert events == [("start", 2, 3, 500), ("start", 3, 3, 1000), ("end", True, 3, None)]
    assert sleeps == [0.5, 1.0]


async def test_retry_after_ms_header_sets_the_wait(anthropic_server: FakeAnthropicServer) -> None:
    """Anthropic's ``retry-after-ms`` wins over the plain ``retry-after`` and the backoff."""
    anthropic_server.add_error(429, headers={"retry-after-ms": "2500", "retry-after": "9"})
    anthropic_server.add_text("ok")
    sleeps: list[float] = []

    async def sleep(delay: float) -> None:
        sleeps.append(delay)

    msg = await complete_with_retry(
        provider_for(anthropic_server), ModelRequest("s", [user_message("q")]), sleep=sleep
    )
    assert msg["content"] == [{"type": "text", "text": "ok"}]
    assert sleeps == [2.5]


async def test_the_anthropic_sdk_is_not_needed(
    anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Messages API is spoken over httpx2: a run with the SDK absent still streams."""
    monkeypatch.setitem(sys.modules, "anthropic", None)  # `import anthropic` now fails
    anthropic_server.add_text("no SDK")
    msg = await provider_for(anthropic_server).complete(ModelRequest("s", [user_message("q")]))
    assert msg["content"] == [{"type": "text", "text": "no SDK"}]


async def test_missing_key_names_the_env_var() -> None:
    with pytest.raises(
        ProviderError, match="set the ANTHROPIC_API_KEY environment variable"
    ) as err:
        AnthropicProvider("claude-test")
    assert err.value.transient is False


async def test_key_from_environment(
    anthropic_server: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-from-env")
    anthropic_server.add_text("ok")
    provider = AnthropicProvider("claude-test", base_url=anthropic_server.base_url)
    assert provider.model_id == "anthropic:claude-test"
    await provider.complete(ModelRequest("s", [user_message("q")]))
    headers = anthropic_server.recorded[0].headers
    assert "sk-from-env" in headers.get("x-api-key", "") + headers.get("authorization", "")


async def test_connection_refused_is_transient() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = AnthropicProvider("m", api_key="k", base_url=f"http://127.0.0.1:{port}")
    with pytest.raises(ProviderError) as err:
        await provider.complete(ModelRequest("s", [user_message("q")]))
    assert err.value.transient is True


async def test_abort_mid_stream_returns_partial(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add(FakeReply(text="a b c d e f g h i j k l", event_delay=0.05, chunk_chars=2))
    signal = asyncio.Event()
    seen: list[str] = []

    def on_text(delta: str) -> None:
        seen.append(delta)
        signal.set()

    msg = await provider_for(anthropic_server).complete(
        ModelRequest("s", [user_message("q")], signal=signal), on_text
    )
    assert msg["stop_reason"] == "aborted"
    assert msg["content"] == [{"type": "text", "text": "".join(seen)}]
    assert 0 < len("".join(seen)) < len("a b c d e f g h i j k l")


async def test_multiple_tool_calls_in_one_turn(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add(
        FakeReply(
            tool_calls=[FakeToolCall("read", {"path": "a"}), FakeToolCall("read", {"path": "b"})]
        )
    )
    msg = await provider_for(anthropic_server).complete(ModelRequest("s", [user_message("q")]))
    args = [c["arguments"] for c in msg["content"] if c["type"] == "tool_call"]
    assert args == [{"path": "a"}, {"path": "b"}]
