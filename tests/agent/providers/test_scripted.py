"""The scripted provider replays turns exactly, from YAML, JSON or a list."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from hookline.agent.provider import ModelRequest, Provider, ProviderError
from hookline.agent.providers import ScriptedProvider
from hookline.core.messages import CustomMessage, Message, ToolResultMessage, user_message

YAML_SCRIPT = """\
turns:
  - text: "Let me look at the files in this folder."
    tool_calls:
      - {name: bash, arguments: {command: "ls"}}
  - text: "Done."
"""


def request(*messages: Message) -> ModelRequest:
    return ModelRequest("system", list(messages) or [user_message("hi")])


def tool_result(call_id: str, text: str) -> ToolResultMessage:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "tool_name": "bash",
        "content": [{"type": "text", "text": text}],
        "is_error": False,
    }


async def test_yaml_script_replays_turns_in_order(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text(YAML_SCRIPT)
    provider = ScriptedProvider(path)
    assert provider.model_id == f"scripted:{path}"
    deltas: list[str] = []

    first = await provider.complete(request(), deltas.append)
    assert first["content"] == [
        {"type": "text", "text": "Let me look at the files in this folder."},
        {"type": "tool_call", "id": "call_1", "name": "bash", "arguments": {"command": "ls"}},
    ]
    assert first["stop_reason"] == "tool_use"
    assert first["model"] == "scripted"
    assert len(deltas) > 1, "text arrives in several chunks"
    assert "".join(deltas) == "Let me look at the files in this folder."

    second = await provider.complete(request())
    assert second["content"] == [{"type": "text", "text": "Done."}]
    assert second["stop_reason"] == "stop"
    assert provider.remaining == 0


async def test_json_script_and_bare_list(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    turns = [
        {"tool_calls": [{"name": "read", "arguments": {"path": "a"}}, {"name": "read"}]},
        "plain string turn",
    ]
    path.write_text(json.dumps(turns))
    provider = ScriptedProvider(path)
    msg = await provider.complete(request())
    assert [c.get("id") for c in msg["content"]] == ["call_1", "call_2"]
    assert msg["content"][1] == {
        "type": "tool_call",
        "id": "call_2",
        "name": "read",
        "arguments": {},
    }
    assert (await provider.complete(request()))["content"] == [
        {"type": "text", "text": "plain string turn"}
    ]


async def test_thinking_usage_stop_reason_and_explicit_id() -> None:
    provider = ScriptedProvider.from_turns(
        [
            {
                "thinking": "The user wants a list.",
                "text": "Listing.",
                "usage": {"input_tokens": 100, "output_tokens": 20},
                "tool_calls": [{"name": "ls", "id": "my_id"}],
            },
            {"text": "cut off", "stop_reason": "length"},
        ]
    )
    msg = await provider.complete(request())
    assert msg["content"][0] == {"type": "thinking", "thinking": "The user wants a list."}
    assert msg["content"][2]["id"] == "my_id"  # type: ignore[typeddict-item]
    assert msg["usage"] == {"input_tokens": 100, "output_tokens": 20}
    assert (await provider.complete(request()))["stop_reason"] == "length"


async def test_error_turn_raises_provider_error_then_continues() -> None:
    provider = ScriptedProvider.from_turns(
        [
            {"error": {"message": "overloaded", "transient": True, "status": 529}},
            {"error": {"message": "bad key", "status": 401}},
            {"error": {"message": "inferred", "status": 503}},
            {"text": "recovered"},
        ]
    )
    with pytest.raises(ProviderError) as first:
        await provider.complete(request())
    assert (str(first.value), first.value.transient, first.value.status) == (
        "overloaded",
        True,
        529,
    )
    with pytest.raises(ProviderError) as second:
        await provider.complete(request())
    assert (second.value.transient, second.value.status) == (False, 401)
    with pytest.raises(ProviderError) as third:
        await provider.complete(request())
    assert third.value.transient, "transient defaults from a 5xx status"
    assert (await provider.complete(request()))["content"][0]["text"] == "recovered"  # type: ignore[typeddict-item]


async def test_error_after_text_streams_the_text_first() -> None:
    provider = ScriptedProvider.from_turns([{"text": "half", "error": "dropped"}])
    seen: list[str] = []
    with pytest.raises(ProviderError, match="dropped"):
        await provider.complete(request(), seen.append)
    assert seen == ["half"]


async def test_expect_user_contains_checks_last_user_or_custom_message() -> None:
    custom: CustomMessage = {
        "role": "custom",
        "custom_type": "note",
        "content": "hook says: remember the tests",
        "display": True,
    }
    provider = ScriptedProvider.from_turns(
        [
            {"expect_user_contains": "list files", "text": "ok"},
            {"expect_user_contains": ["remember", "tests"], "text": "ok"},
            {"expect_user_contains": "never said"},
        ],
        name="t.yaml",
    )
    await provider.complete(request(user_message("please list files")))
    await provider.complete(request(user_message("old"), custom))
    with pytest.raises(ProviderError) as err:
        await provider.complete(request(user_message("something else")))
    message = str(err.value)
    assert "t.yaml" in message and "turns[2]" in message
    assert "'never said'" in message and "'something else'" in message
    assert err.value.transient is False


async def test_expect_tool_result_contains() -> None:
    provider = ScriptedProvider.from_turns([{"expect_tool_result_contains": "README"}, {}])
    await provider.complete(request(user_message("go"), tool_result("call_1", "README.md\nsrc")))
    provider2 = ScriptedProvider.from_turns([{"expect_tool_result_contains": "README"}])
    with pytest.raises(ProviderError, match="no tool message"):
        await provider2.complete(request(user_message("go")))


async def test_exhausted_script_ends_politely() -> None:
    provider = ScriptedProvider.from_turns([])
    seen: list[str] = []
    for _ in range(2):
        msg = await provider.complete(request(), seen.append)
        assert msg["content"] == [{"type": "text", "text": "(script ended)"}]
        assert msg["stop_reason"] == "stop"
    assert "".join(seen) == "(script ended)(script ended)"


async def test_requests_are_recorded_and_turns_are_independent() -> None:
    provider = ScriptedProvider.from_turns(
        [{"tool_calls": [{"name": "a", "arguments": {"x": [1]}}]}]
    )
    req = request()
    msg = await provider.complete(req)
    msg["content"][0]["arguments"]["x"].append(2)  # type: ignore[typeddict-item]
    assert provider.requests == [req]


async def test_delay_and_abort_returns_aborted_message() -> None:
    provider = ScriptedProvider.from_turns([{"text": "slow answer", "delay_ms": 5000}, "next"])
    signal = asyncio.Event()
    req = ModelRequest("s", [user_message("hi")], signal=signal)
    loop = asyncio.get_running_loop()
    loop.call_later(0.05, signal.set)
    started = loop.time()
    msg = await provider.complete(req)
    assert loop.time() - started < 2
    assert msg["stop_reason"] == "aborted"
    assert msg["content"] == []


async def test_delay_without_abort_waits() -> None:
    provider = ScriptedProvider.from_turns([{"text": "x", "delay_ms": 30}])
    loop = asyncio.get_running_loop()
    started = loop.time()
    await provider.complete(request())
    assert loop.time() - started >= 0.025


def test_satisfies_the_provider_protocol() -> None:
    provider: Provider = ScriptedProvider.from_turns([])
    assert provider.model_id == "scripted:<inline>"
