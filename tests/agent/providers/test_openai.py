"""The real ``openai`` SDK against the fake Chat Completions server: wire shapes both ways."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from hookline.agent.provider import ModelRequest, ProviderError, ToolSpec
from hookline.agent.providers import OpenAIProvider, complete_with_retry
from hookline.core.messages import (
    AssistantMessage,
    CustomMessage,
    Message,
    ToolResultMessage,
    user_message,
)
from tests.fakes import FakeOpenAIServer, FakeReply, FakeToolCall

BASH = ToolSpec(
    "bash",
    "Run a shell command.",
    {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
)


def provider_for(server: FakeOpenAIServer, **kw: Any) -> OpenAIProvider:
    return OpenAIProvider("gpt-test", api_key="sk-test", base_url=server.base_url, **kw)


def tool_result(call_id: str, content: list[Any], *, is_error: bool = False) -> ToolResultMessage:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "tool_name": "bash",
        "content": content,
        "is_error": is_error,
    }


async def test_text_streams_to_on_text(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_text("Hello from the fake model", input_tokens=21, output_tokens=6)
    deltas: list[str] = []
    request = ModelRequest("You are terse.", [user_message("hi")], [BASH], max_tokens=500)
    msg = await provider_for(openai_server).complete(request, deltas.append)

    assert len(deltas) > 1 and "".join(deltas) == "Hello from the fake model"
    assert msg["content"] == [{"type": "text", "text": "Hello from the fake model"}]
    assert msg["stop_reason"] == "stop"
    assert msg["model"] == "gpt-test"
    assert msg["usage"] == {"input_tokens": 21, "output_tokens": 6}

    sent = openai_server.recorded[0]
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer sk-test"
    assert sent.body["messages"] == [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "hi"},
    ]
    assert sent.body["stream"] is True
    assert sent.body["stream_options"] == {"include_usage": True}
    assert sent.body["max_tokens"] == 500, "a custom base_url gets max_tokens"
    assert sent.body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "bash",
                "description": "Run a shell command.",
                "parameters": BASH.parameters,
            },
        }
    ]


async def test_two_step_tool_conversation(openai_server: FakeOpenAIServer) -> None:
    openai_server.add(
        FakeReply(
            text="Checking.",
            tool_calls=[
                FakeToolCall("bash", {"command": "ls -la"}),
                FakeToolCall("bash", {"command": "pwd"}),
            ],
        )
    )
    openai_server.add_text("All done.")
    provider = provider_for(openai_server)
    history: list[Message] = [user_message("what is here?")]

    first = await provider.complete(ModelRequest("sys", list(history), [BASH]))
    assert first["stop_reason"] == "tool_use"
    calls = [c for c in first["content"] if c["type"] == "tool_call"]
    assert [c["arguments"] for c in calls] == [{"command": "ls -la"}, {"command": "pwd"}]
    ids = [c["id"] for c in calls]
    assert len(set(ids)) == 2

    history += [
        first,
        tool_result(ids[0], [{"type": "text", "text": "a.txt"}]),
        tool_result(ids[1], [{"type": "text", "text": "/work"}], is_error=True),
    ]
    second = await provider.complete(ModelRequest("sys", list(history), [BASH]))
    assert second["content"] == [{"type": "text", "text": "All done."}]

    messages = openai_server.requests[1]["messages"]
    assistant = messages[2]
    assert assistant["role"] == "assistant" and assistant["content"] == "Checking."
    assert [tc["id"] for tc in assistant["tool_calls"]] == ids
    assert assistant["tool_calls"][0]["type"] == "function"
    assert assistant["tool_calls"][0]["function"]["name"] == "bash"
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"command": "ls -la"}
    assert messages[3:] == [
        {"role": "tool", "tool_call_id": ids[0], "content": "a.txt"},
        {"role": "tool", "tool_call_id": ids[1], "content": "/work"},
    ]


async def test_custom_images_and_orphans(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_text("ok")
    image = {"type": "image", "data": "aGk=", "mime_type": "image/png"}
    aborted: AssistantMessage = {
        "role": "assistant",
        "content": [{"type": "tool_call", "id": "lost", "name": "bash", "arguments": {}}],
        "stop_reason": "aborted",
    }
    shot: AssistantMessage = {
        "role": "assistant",
        "content": [{"type": "tool_call", "id": "shot", "name": "screenshot", "arguments": {}}],
    }
    note: CustomMessage = {
        "role": "custom",
        "custom_type": "n",
        "content": "hook note",
        "display": False,
    }
    history: list[Message] = [
        user_message("a"),
        aborted,
        note,
        shot,
        tool_result("shot", [image]),
        tool_result("stray", [{"type": "text", "text": "no call"}]),
    ]
    await provider_for(openai_server).complete(ModelRequest("", history))
    msgs = openai_server.requests[0]["messages"]
    assert msgs[0] == {"role": "user", "content": "a"}
    assert msgs[2] == {
        "role": "tool",
        "tool_call_id": "lost",
        "content": "No result provided",
    }
    assert msgs[3] == {"role": "user", "content": "hook note"}
    assert msgs[5] == {"role": "tool", "tool_call_id": "shot", "content": "(image)"}
    assert msgs[6]["role"] == "user"
    assert msgs[6]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,aGk="},
    }
    assert len(msgs) == 7, "the stray tool result is dropped"


async def test_length_thinking_and_bad_arguments(openai_server: FakeOpenAIServer) -> None:
    openai_server.add(FakeReply(thinking="hmm", text="cut", stop_reason="length"))
    bad = FakeToolCall("bash", raw_arguments='{"command": "ls"')
    openai_server.add(FakeReply(tool_calls=[bad, FakeToolCall("pwd", raw_arguments="")]))
    provider = provider_for(openai_server)
    msg = await provider.complete(ModelRequest("s", [user_message("q")]))
    assert msg["stop_reason"] == "length"
    assert msg["content"][0] == {"type": "thinking", "thinking": "hmm"}
    calls = (await provider.complete(ModelRequest("s", [user_message("q")])))["content"]
    assert calls[0]["arguments"] == {"_invalid_json": '{"command": "ls"'}  # type: ignore[typeddict-item]
    assert calls[1]["arguments"] == {}  # type: ignore[typeddict-item]


@pytest.mark.parametrize(
    ("status", "transient"), [(500, True), (503, True), (429, True), (401, False), (400, False)]
)
async def test_http_errors_map_to_provider_error(
    openai_server: FakeOpenAIServer, status: int, transient: bool
) -> None:
    openai_server.add_error(status, "nope")
    with pytest.raises(ProviderError) as err:
        await provider_for(openai_server).complete(ModelRequest("s", [user_message("q")]))
    assert err.value.status == status
    assert err.value.transient is transient
    assert "nope" in str(err.value)
    assert len(openai_server.recorded) == 1, "the SDK does not retry on its own"
    if status == 401:
        assert "OPENAI_API_KEY" in str(err.value)


async def test_insufficient_quota_429_is_not_transient(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_error(
        429, "quota", error_type="insufficient_quota", error_code="insufficient_quota"
    )
    with pytest.raises(ProviderError) as err:
        await provider_for(openai_server).complete(ModelRequest("s", [user_message("q")]))
    assert err.value.status == 429
    assert err.value.transient is False, "no retry fixes an empty account"


async def test_in_stream_error(openai_server: FakeOpenAIServer) -> None:
    openai_server.add(FakeReply(text="half", stream_error="server_error"))
    with pytest.raises(ProviderError) as err:
        await provider_for(openai_server).complete(ModelRequest("s", [user_message("q")]))
    assert err.value.transient is True


async def test_retry_recovers_then_reports(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_error(500)
    openai_server.add_text("back")
    events: list[tuple[Any, ...]] = []

    async def no_sleep(delay: float) -> None:
        return None

    async def start(attempt: int, max_attempts: int, delay_ms: int, error: str) -> None:
        events.append(("start", attempt, max_attempts, delay_ms, "500" in error))

    async def end(success: bool, attempt: int, final_error: str | None) -> None:
        events.append(("end", success, attempt, final_error))

    msg = await complete_with_retry(
        provider_for(openai_server),
        ModelRequest("s", [user_message("q")]),
        on_retry_start=start,
        on_retry_end=end,
        sleep=no_sleep,
    )
    assert msg["content"] == [{"type": "text", "text": "back"}]
    (_, attempt, most, delay_ms, saw_500), end = events
    assert (attempt, most, saw_500) == (2, 3, True) and end == ("end", True, 2, None)
    assert 500 <= delay_ms <= 625  # 0.5 s backoff plus up to a quarter of jitter


async def test_retry_after_header_sets_the_wait(openai_server: FakeOpenAIServer) -> None:
    """A 429 with ``retry-after: 3`` waits 3 s, not the 0.5 s backoff."""
    openai_server.add_error(429, "slow down", headers={"retry-after": "3"})
    openai_server.add_text("back")
    waits: list[float] = []

    async def record(delay: float) -> None:
        waits.append(delay)

    msg = await complete_with_retry(
        provider_for(openai_server), ModelRequest("s", [user_message("q")]), sleep=record
    )
    assert msg["content"] == [{"type": "text", "text": "back"}]
    assert waits == [3.0]


async def test_401_is_not_retried(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_error(401)
    openai_server.add_text("never")
    with pytest.raises(ProviderError):
        await complete_with_retry(
            provider_for(openai_server), ModelRequest("s", [user_message("q")])
        )
    assert len(openai_server.recorded) == 1


async def test_missing_key_names_the_env_var() -> None:
    with pytest.raises(ProviderError, match="set the OPENAI_API_KEY environment variable"):
        OpenAIProvider("gpt-test")


async def test_local_server_needs_no_key(openai_server: FakeOpenAIServer) -> None:
    openai_server.add_text("ok")
    provider = OpenAIProvider("local-model", base_url=openai_server.base_url)
    assert provider.model_id == "openai:local-model"
    await provider.complete(ModelRequest("s", [user_message("q")]))
    assert openai_server.recorded[0].headers["authorization"] == "Bearer not-needed"
    await provider.aclose()


async def test_abort_mid_stream_returns_partial(openai_server: FakeOpenAIServer) -> None:
    openai_server.add(FakeReply(text="a b c d e f g h i j", event_delay=0.05, chunk_chars=2))
    signal = asyncio.Event()
    seen: list[str] = []

    def on_text(delta: str) -> None:
        seen.append(delta)
        signal.set()

    msg = await provider_for(openai_server).complete(
        ModelRequest("s", [user_message("q")], signal=signal), on_text
    )
    assert msg["stop_reason"] == "aborted"
    assert msg["content"] == [{"type": "text", "text": "".join(seen)}]
