"""The Claude ↔ hookline mapping of every bridged event, in process (``BridgeHooks.answer``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookline.bridge import EVENT_MAP, BridgeHooks, load_bridge, to_event
from hookline.bridge.mapping import BridgeInputError, response_text
from hookline.core.events import (
    PermissionRequestEvent,
    SessionBeforeCompactEvent,
    SessionShutdownEvent,
    SubagentStopEvent,
    ToolResultEvent,
)

RECORDER = """
def register(pi):
    @pi.on("permission_request")
    def decide(event, ctx):
        if event.input.get("command") == "deploy":
            return {"decision": "deny", "reason": "not from here"}
        if event.input.get("command") == "make":
            return {"decision": "allow", "input": {**event.input, "timeout": 5}}

    @pi.on("subagent_stop")
    def more(event, ctx):
        if not event.stop_hook_active:
            return {"block": True, "reason": "check the sub-agent's work"}

    @pi.on("session_before_compact")
    def keep(event, ctx):
        return {"cancel": event.trigger == "manual"}
"""


@pytest.fixture
def bridge(tmp_path: Path) -> BridgeHooks:
    hook = tmp_path / "recorder.py"
    hook.write_text(RECORDER)
    loaded = load_bridge([str(hook)], cwd=str(tmp_path), discover=False)
    assert loaded.load_errors == []
    return loaded


def _tool(event: str, command: str, **extra: Any) -> dict[str, Any]:
    return {
        "hook_event_name": event,
        "cwd": "/p",
        "tool_name": "Bash",
        "tool_input": {"command": command, "timeout": 1000},
        "tool_use_id": "t9",
        **extra,
    }


async def test_permission_request_deny_and_allow_with_input(bridge: BridgeHooks) -> None:
    deny = await bridge.answer(_tool("PermissionRequest", "deploy"))
    assert deny.output["hookSpecificOutput"]["decision"] == {
        "behavior": "deny",
        "message": "not from here",
    }
    allow = await bridge.answer(_tool("PermissionRequest", "make"))
    assert allow.output["hookSpecificOutput"]["decision"] == {
        "behavior": "allow",
        "updatedInput": {"command": "make", "timeout": 5000},
    }
    assert (await bridge.answer(_tool("PermissionRequest", "ls"))).output == {}


async def test_subagent_stop_block(bridge: BridgeHooks) -> None:
    payload = {"hook_event_name": "SubagentStop", "agent_id": "a1", "stop_hook_active": False}
    answer = await bridge.answer(payload)
    assert answer.output == {"decision": "block", "reason": "check the sub-agent's work"}


async def test_pre_compact_cancel_is_a_block_only_when_asked(bridge: BridgeHooks) -> None:
    manual = await bridge.answer({"hook_event_name": "PreCompact", "trigger": "manual"})
    assert manual.output["decision"] == "block"
    auto = await bridge.answer({"hook_event_name": "PreCompact", "trigger": "auto"})
    assert auto.output == {}


def test_events_are_built_in_hooklines_vocabulary() -> None:
    event = to_event("PermissionRequest", _tool("PermissionRequest", "ls"))
    assert isinstance(event, PermissionRequestEvent)
    assert (event.tool_name, event.input) == ("bash", {"command": "ls", "timeout": 1})
    failure = to_event(
        "PostToolUseFailure", _tool("PostToolUseFailure", "false", error="exit status 1")
    )
    assert isinstance(failure, ToolResultEvent)
    assert failure.is_error and failure.content == [{"type": "text", "text": "exit status 1"}]
    end = to_event("SessionEnd", {"hook_event_name": "SessionEnd", "reason": "clear"})
    assert isinstance(end, SessionShutdownEvent) and end.reason == "clear"
    other = to_event("SessionEnd", {"hook_event_name": "SessionEnd", "reason": "bypass"})
    assert isinstance(other, SessionShutdownEvent) and other.reason == "other"
    stop = to_event("SubagentStop", {"agent_id": "a", "agent_transcript_path": "/t.jsonl"})
    assert isinstance(stop, SubagentStopEvent) and stop.agent_transcript_path == "/t.jsonl"
    compact = to_event("PreCompact", {"trigger": "weird"})
    assert isinstance(compact, SessionBeforeCompactEvent) and compact.trigger == "manual"


def test_every_mapped_event_builds() -> None:
    for claude_event in EVENT_MAP:
        assert to_event(claude_event, _tool(claude_event, "ls", agent_id="a")) is not None


@pytest.mark.parametrize(
    ("payload", "where"),
    [
        ({"tool_name": 3}, "tool_name"),
        ({"tool_name": "Bash", "tool_input": []}, "tool_input"),
        ({"tool_name": "Bash", "tool_use_id": 5}, "tool_use_id"),
        ({"tool_name": ""}, "tool_name"),
    ],
)
def test_bad_tool_fields_are_named(payload: dict[str, Any], where: str) -> None:
    with pytest.raises(BridgeInputError, match=where):
        to_event("PreToolUse", payload)


def test_response_text_per_tool() -> None:
    assert response_text("bash", {"stdout": "out", "stderr": "err"}) == "out\nerr"
    assert response_text("bash", {"stdout": "out", "stderr": ""}) == "out"
    assert response_text("read", {"type": "text", "file": {"content": "body"}}) == "body"
    assert response_text("write", {"type": "create", "filePath": "/x"}) == (
        '{"type": "create", "filePath": "/x"}'
    )
    assert response_text("mcp__s__t", "plain") == "plain"
    assert response_text("ls", ["a", "b"]) == '["a", "b"]'


async def test_send_message_becomes_additional_context(tmp_path: Path) -> None:
    hook = tmp_path / "brief.py"
    hook.write_text(
        "def register(pi):\n"
        "    @pi.on('session_start')\n"
        "    def brief(event, ctx):\n"
        "        pi.send_message({'custom_type': 'brief', 'content': 'BRIEF ' + event.source})\n"
        "    @pi.on('tool_result')\n"
        "    def note(event, ctx):\n"
        "        sent = [{'type': 'text', 'text': 'SENT'}]\n"
        "        pi.send_message({'custom_type': 'n', 'content': sent})\n"
        "        return {'append': [{'type': 'text', 'text': 'APPENDED'}]}\n"
        "    @pi.on('stop')\n"
        "    def late(event, ctx):\n"
        "        pi.send_message({'custom_type': 'n', 'content': 'not for Stop'})\n"
    )
    bridge = load_bridge([str(hook)], cwd=str(tmp_path), discover=False)
    start = await bridge.answer({"hook_event_name": "SessionStart", "source": "compact"})
    assert start.output == {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": "BRIEF compact",
        }
    }
    post = await bridge.answer(
        {**_tool("PostToolUse", "ls"), "tool_response": {"stdout": "", "stderr": ""}}
    )
    assert post.output["hookSpecificOutput"]["additionalContext"] == "APPENDED\nSENT"
    # Stop takes no context; and nothing from earlier events leaks into a later answer.
    assert (await bridge.answer({"hook_event_name": "Stop"})).output == {}


def test_claudes_agent_tool_is_hooklines_task_and_back() -> None:
    """``Agent`` is Claude Code's sub-agent tool today; ``Task`` (its older name) too."""
    from hookline.bridge.mapping import to_event
    from hookline.claude.names import from_claude_tool_name, to_claude_tool_name

    for name in ("Agent", "Task"):
        payload = {"hook_event_name": "PreToolUse", "tool_name": name, "tool_input": {}}
        event = to_event("PreToolUse", payload)
        assert event is not None and event.tool_name == "task"  # type: ignore[attr-defined]
    assert to_claude_tool_name("task") == "Agent"
    assert from_claude_tool_name(to_claude_tool_name("task")) == "task"
