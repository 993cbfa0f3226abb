"""Providers stream pi's block events (thinking, text, tool calls) from the real wire formats."""

from __future__ import annotations

from typing import Any

import pytest

from hookline.agent.blocks import PartialMessage, StreamBlocks
from hookline.agent.provider import ModelRequest
from hookline.agent.providers import AnthropicProvider, OpenAIProvider, ScriptedProvider
from hookline.core.messages import user_message
from tests.fakes import FakeAnthropicServer, FakeOpenAIServer, FakeReply, FakeToolCall

REPLY = FakeReply(
    thinking="Weigh it up.",
    text="Two calls.",
    tool_calls=[
        FakeToolCall("read", {"path": "a.txt"}, id="t1"),
        FakeToolCall("ls", {"path": "src", "all": True}, id="t2"),
    ],
)


def _run_with(blocks: StreamBlocks) -> ModelRequest:
    return ModelRequest("s", [user_message("q")], blocks=blocks)


def _kinds(events: list[dict[str, Any]]) -> list[str]:
    """The event types with runs of deltas folded into one."""
    out: list[str] = []
    for e in events:
        if not (out and e["type"].endswith("_delta") and out[-1] == e["type"]):
            out.append(e["type"])
    return out


EXPECTED = [
    "thinking_start", "thinking_delta", "thinking_end",
    "text_start", "text_delta", "text_end",
    "toolcall_start", "toolcall_delta", "toolcall_end",
    "toolcall_start", "toolcall_delta", "toolcall_end",
]  # fmt: skip


def _check(events: list[dict[str, Any]], texts: list[str], message: dict[str, Any]) -> None:
    assert _kinds(events) == EXPECTED
    assert [e["content_index"] for e in events if e["type"].endswith("_start")] == [0, 1, 2, 3]
    assert "".join(texts) == "Two calls."
    ends = [e for e in events if e["type"] == "toolcall_end"]
    assert [e["tool_call"]["arguments"] for e in ends] == [
        {"path": "a.txt"},
        {"path": "src", "all": True},
    ]
    assert [e["tool_call"]["id"] for e in ends] == ["t1", "t2"]
    # replaying the events gives the final message's blocks
    partial = PartialMessage()
    for e in events:
        partial.apply(e)
    final = [{k: v for k, v in b.items() if k != "signature"} for b in message["content"]]
    assert partial.message()["content"] == final


async def test_openai_streams_blocks(openai_server: FakeOpenAIServer) -> None:
    openai_server.add(REPLY)
    events: list[dict[str, Any]] = []
    texts: list[str] = []
    provider = OpenAIProvider("gpt-x", api_key="k", base_url=openai_server.base_url)
    message = await provider.complete(_run_with(StreamBlocks(events.append, texts.append)))
    _check(events, texts, dict(message))


async def test_anthropic_streams_blocks(anthropic_server: FakeAnthropicServer) -> None:
    anthropic_server.add(REPLY)
    events: list[dict[str, Any]] = []
    texts: list[str] = []
    provider = AnthropicProvider("claude-x", api_key="k", base_url=anthropic_server.base_url)
    message = await provider.complete(_run_with(StreamBlocks(events.append, texts.append)))
    _check(events, texts, dict(message))


async def test_the_scripted_model_streams_blocks() -> None:
    provider = ScriptedProvider.from_turns(
        [
            {
                "thinking": "Weigh it up.",
                "text": "Two calls.",
                "tool_calls": [
                    {"id": "t1", "name": "read", "arguments": {"path": "a.txt"}},
                    {"id": "t2", "name": "ls", "arguments": {"path": "src", "all": True}},
                ],
            }
        ]
    )
    events: list[dict[str, Any]] = []
    texts: list[str] = []
    message = await provider.complete(_run_with(StreamBlocks(events.append, texts.append)))
    _check(events, texts, dict(message))


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_without_blocks_on_text_still_gets_the_text(
    kind: str, openai_server: FakeOpenAIServer, anthropic_server: FakeAnthropicServer
) -> None:
    texts: list[str] = []
    if kind == "openai":
        openai_server.add(REPLY)
        provider: Any = OpenAIProvider("gpt-x", api_key="k", base_url=openai_server.base_url)
    else:
        anthropic_server.add(REPLY)
        provider = AnthropicProvider("claude-x", api_key="k", base_url=anthropic_server.base_url)
    await provider.complete(ModelRequest("s", [user_message("q")]), texts.append)
    assert "".join(texts) == "Two calls."


def test_bad_argument_json_is_kept_for_the_tool_to_report() -> None:
    events: list[dict[str, Any]] = []
    blocks = StreamBlocks(events.append)
    blocks.tool_call(0, "c1", "ls")
    blocks.tool_arguments(0, '{"path": ')
    blocks.end()
    assert events[-1]["tool_call"]["arguments"] == {"_invalid_json": '{"path": '}


def test_a_retry_starts_the_message_again() -> None:
    events: list[dict[str, Any]] = []
    blocks = StreamBlocks(events.append)
    blocks.text("partial answer")
    blocks.restart()  # the call failed and is retried
    blocks.thinking("fresh")
    blocks.end()
    assert [e["type"] for e in events] == [
        "text_start", "text_delta", "text_end", "thinking_start", "thinking_delta",
        "thinking_end",
    ]  # fmt: skip
    assert events[3]["content_index"] == 0
    assert blocks.partial.message()["content"] == [{"type": "thinking", "thinking": "fresh"}]
