"""Every event's example hook (examples/events/, shown in the event reference) does what its
docstring says: loaded as a hook file by the harness, its event fired, its effect checked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookline.authoring.harness import Emitted, HookHarness
from hookline.core.events import EVENT_NAMES
from tools.reference.facts import EXAMPLES, example_path

_TEXT = [{"type": "text", "text": "done"}]
_ANSWER = {"role": "assistant", "content": [{"type": "text", "text": "a\tb"}]}

Check = Callable[[Emitted, HookHarness], None]


def _notified(*fragments: str) -> Check:
    def check(emitted: Emitted, harness: HookHarness) -> None:
        text = " ".join(message for _, message in harness.ui.notifications)
        assert harness.ui.notifications, "no notification"
        for fragment in fragments:
            assert fragment in text, f"{fragment!r} not in {text!r}"

    return check


def _status(key: str, fragment: str) -> Check:
    def check(emitted: Emitted, harness: HookHarness) -> None:
        assert fragment in dict(harness.ui.status.items()).get(key, "")

    return check


def _result(**expected: Any) -> Check:
    def check(emitted: Emitted, harness: HookHarness) -> None:
        assert emitted.result is not None, "no result"
        for key, value in expected.items():
            got = getattr(emitted.result, key)
            assert value(got) if callable(value) else got == value, f"{key} is {got!r}"

    return check


def _blocked(emitted: Emitted, harness: HookHarness) -> None:
    emitted.assert_blocked()


def _file(name: str, text: str) -> Check:
    def check(emitted: Emitted, harness: HookHarness) -> None:
        assert text in Path(harness.cwd, name).read_text()

    return check


#: Event → (the payload it is fired with, what its example must have done).
CASES: dict[str, tuple[dict[str, Any], Check]] = {
    "tool_call": (
        {"tool_name": "bash", "input": {"command": "git push --force"}},
        _blocked,
    ),
    "tool_result": (
        {"tool_name": "bash", "content": [{"type": "text", "text": "key=sk-abc123"}]},
        lambda e, h: e.assert_patched("key=sk-***"),
    ),
    "tool_execution_start": ({"tool_name": "bash"}, _notified("running bash")),
    "tool_execution_update": ({"tool_name": "bash"}, _status("tool", "bash: output arriving")),
    "tool_execution_end": (
        {"tool_name": "bash", "is_error": True, "result_text": "exit 1"},
        _notified("bash failed: exit 1"),
    ),
    "context": (
        {
            "messages": [
                {"role": "user", "content": _TEXT},
                {"role": "custom", "custom_type": "note", "content": "x"},
            ]
        },
        _result(messages=lambda m: [x["role"] for x in m] == ["user"]),
    ),
    "before_agent_start": (
        {"prompt": "hi"},
        _result(messages=lambda m: [x.custom_type for x in m] == ["reminder"]),
    ),
    "agent_start": ({}, _notified("working")),
    "agent_end": ({}, _notified("0 messages, 0 calls denied")),
    "turn_start": ({"turn_index": 2}, _status("turn", "turn 3")),
    "turn_end": ({"turn_index": 0}, _notified("turn 1: 0 tool calls")),
    "input": ({"text": "due :today:"}, _result(text=lambda t: ":today:" not in t)),
    "user_bash": (
        {"command": "git log", "cwd": "."},
        _result(env={"PAGER": "cat", "GIT_PAGER": "cat"}),
    ),
    "user_python": ({"code": "1", "cwd": "."}, _result(env={"PYTHONWARNINGS": "ignore"})),
    "model_select": ({"model": {}, "spec": "anthropic:claude"}, _notified("anthropic:claude")),
    "auto_compaction_start": ({"reason": "overflow"}, _notified("overflow")),
    "auto_compaction_end": ({"aborted": True}, _notified("compaction aborted")),
    "auto_retry_start": (
        {"attempt": 1, "max_attempts": 3, "delay_ms": 500, "error": "overloaded"},
        _notified("retry 1/3 in 500 ms: overloaded"),
    ),
    "auto_retry_end": (
        {"success": False, "attempt": 3, "final_error": "overloaded"},
        _notified("gave up after 3 attempts"),
    ),
    "ttsr_triggered": ({"rules": ["no-sleep"], "matched_text": "sleep"}, _notified("no-sleep")),
    "empty_reply_nudge": ({"turn_index": 0}, _notified("empty reply in turn 1")),
    "todo_reminder": ({"todos": [{"text": "x"}]}, _notified("1 todo items open")),
    "message_start": ({"message": _ANSWER}, _status("model", "answering")),
    "message_update": (
        {"message": _ANSWER, "delta": "abc", "delta_type": "text"},
        _status("model", "3 new characters"),
    ),
    "message_end": ({"message": _ANSWER}, _result(text="a    b")),
    "before_provider_request": (
        {"payload": {"model": "m"}},
        _result(payload={"model": "m", "temperature": 0}),
    ),
    "after_provider_response": ({"status": 529, "provider": "anthropic"}, _notified("HTTP 529")),
    "stop": ({}, _blocked),
    "subagent_start": ({"agent_id": "a1", "agent_type": "explore"}, _notified("explore (a1)")),
    "subagent_stop": ({"agent_id": "a1"}, _blocked),
    "instructions_loaded": (
        {"file_path": "CLAUDE.md", "memory_type": "Project", "load_reason": "session_start"},
        _notified("Project instructions: CLAUDE.md"),
    ),
    "notification": (
        {"message": "needs you", "notification_type": "idle_prompt"},
        _file("notifications.log", "idle_prompt: needs you"),
    ),
    "mcp_notification": (
        {"server": "docs", "method": "notifications/tools/list_changed"},
        _notified("docs: notifications/tools/list_changed"),
    ),
    "permission_request": ({"tool_name": "read"}, _result(decision="allow")),
    "session_start": ({"source": "resume"}, _notified("session resume")),
    "resources_discover": (
        {"reason": "reload"},
        _result(prompt_paths=lambda p: [Path(x).parts[-2:] for x in p] == [("shared", "prompts")]),
    ),
    "session_before_switch": ({"reason": "new"}, _blocked),  # nothing confirms: cancelled
    "session_switch": ({"session_file": "b.jsonl"}, _notified("now in b.jsonl")),
    "session_before_branch": ({"target_turn_index": 1}, _result(skip_conversation_restore=True)),
    "session_branch": ({"target_turn_index": 1}, _notified("branched at turn 1")),
    "session_before_fork": ({}, _blocked),
    "session_fork": ({"session_file": "f.jsonl"}, _notified("forked into f.jsonl")),
    "session_before_compact": (
        {"messages": [{"role": "user", "content": _TEXT}]},
        _result(compaction=lambda c: c.summary.startswith("1 earlier messages")),
    ),
    "session.compacting": ({}, _result(context=["The ticket is PROJ-42."])),
    "session_compact": ({"summary": "s", "tokens_before": 900}, _notified("compacted 900 tokens")),
    "session_before_tree": (
        {"target_id": "e2", "old_leaf_id": "e9"},
        _result(summary=lambda s: s.summary == "left e9 for e2"),
    ),
    "session_tree": ({"new_leaf_id": "e2"}, _status("leaf", "leaf: e2")),
    "session_shutdown": ({"reason": "quit"}, _file(".last-exit", "quit")),
}


def test_every_event_has_one_example_and_one_case() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(
        example_path(name).name for name in EVENT_NAMES
    )
    assert sorted(CASES) == sorted(EVENT_NAMES)


@pytest.mark.parametrize("name", sorted(EVENT_NAMES))
async def test_the_example_does_what_it_says(name: str, tmp_path: Path) -> None:
    payload, check = CASES[name]
    harness = HookHarness(tmp_path).load(example_path(name))
    emitted = await harness.emit(name, payload)
    assert [c.event for c in emitted.calls] == [name], "the example's handler did not run"
    assert not emitted.errors, [str(e.error) for e in emitted.errors]
    check(emitted, harness)
