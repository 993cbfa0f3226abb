"""The stdin JSON each event's hooks read, captured by a real ``cat > file`` hook."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from hookline.claude import ClaudeHooks
from hookline.core.events import (
    Event,
    InputEvent,
    NotificationEvent,
    PermissionRequestEvent,
    SessionBeforeCompactEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    StopEvent,
    SubagentStartEvent,
    SubagentStopEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from hookline.core.host import DetachedHost
from hookline.core.runner import HookRunner

from .conftest import source

EDIT_INPUT = {"path": "a.py", "oldText": "x", "newText": "y"}
#: file paths are shown absolute, resolved against the tool's cwd (``ROOT``)
ROOT = "<cwd>"
CLAUDE_EDIT = {"file_path": f"{ROOT}/a.py", "old_string": "x", "new_string": "y"}

CASES: list[tuple[str, Event, dict[str, Any]]] = [
    (
        "PreToolUse",
        ToolCallEvent(tool_name="edit", tool_call_id="t1", input=EDIT_INPUT),
        {"tool_name": "Edit", "tool_input": CLAUDE_EDIT, "tool_use_id": "t1"},
    ),
    (
        "PostToolUse",
        ToolResultEvent(
            tool_name="bash",
            tool_call_id="t2",
            input={"command": "ls"},
            content=[{"type": "text", "text": "a\nb"}],
        ),
        {
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
            "tool_response": {
                "stdout": "a\nb",
                "stderr": "",
                "interrupted": False,
                "isImage": False,
            },
            "tool_use_id": "t2",
        },
    ),
    (
        "PostToolUseFailure",
        ToolResultEvent(
            tool_name="read",
            tool_call_id="t3",
            input={"path": "nope"},
            content=[{"type": "text", "text": "ENOENT"}],
            is_error=True,
        ),
        {
            "tool_name": "Read",
            "tool_input": {"file_path": f"{ROOT}/nope"},
            "tool_use_id": "t3",
            "error": "ENOENT",
            "is_interrupt": False,
        },
    ),
    (
        "PermissionRequest",
        PermissionRequestEvent(
            tool_name="write",
            tool_call_id="t4",
            input={"path": "f", "content": "c"},
            permission_suggestions=[{"type": "addRules"}],
        ),
        {
            "tool_name": "Write",
            "tool_input": {"file_path": f"{ROOT}/f", "content": "c"},
            "tool_use_id": "t4",
            "permission_suggestions": [{"type": "addRules"}],
        },
    ),
    (
        "Notification",
        NotificationEvent(message="Claude needs you", title="Hi", notification_type="idle_prompt"),
        {"message": "Claude needs you", "title": "Hi", "notification_type": "idle_prompt"},
    ),
    ("UserPromptSubmit", InputEvent(text="fix the bug"), {"prompt": "fix the bug"}),
    ("SessionStart", SessionStartEvent(source="resume"), {"source": "resume"}),
    ("SessionEnd", SessionShutdownEvent(reason="exit"), {"reason": "prompt_input_exit"}),
    (
        "SubagentStart",
        SubagentStartEvent(agent_id="a1", agent_type="explore"),
        {"agent_id": "a1", "agent_type": "explore"},
    ),
    (
        "Stop",
        StopEvent(
            stop_hook_active=True,
            last_message={"role": "assistant", "content": [{"type": "text", "text": "Done."}]},  # type: ignore[typeddict-item]
        ),
        {"stop_hook_active": True, "last_assistant_message": "Done."},
    ),
    (
        "SubagentStop",
        SubagentStopEvent(
            agent_id="a1",
            agent_type="Explore",
            agent_transcript_path="/t/a1.jsonl",
            last_message={"role": "assistant", "content": [{"type": "text", "text": "3 files"}]},  # type: ignore[typeddict-item]
        ),
        {
            "stop_hook_active": False,
            "agent_id": "a1",
            "agent_type": "Explore",
            "agent_transcript_path": "/t/a1.jsonl",
            "last_assistant_message": "3 files",
        },
    ),
    (
        "PreCompact",
        SessionBeforeCompactEvent(trigger="auto", custom_instructions="keep todos"),
        {"trigger": "auto", "custom_instructions": "keep todos"},
    ),
]


class SessionHost(DetachedHost):
    """An agent with a session and a permission mode, as hooks read them."""

    def __init__(self, session_id: str, session_file: str, permission_mode: str) -> None:
        super().__init__()
        self.session = SimpleNamespace(get_session_id=lambda: session_id)
        self.session_file = session_file
        self.permission_mode = permission_mode

    def get_session_file(self) -> str | None:
        return self.session_file

    def get_session_manager(self) -> Any:
        return self.session

    def get_permission_mode(self) -> str | None:
        return self.permission_mode


@pytest.mark.parametrize(("event", "internal", "fields"), CASES, ids=[c[0] for c in CASES])
async def test_stdin_json_per_event(
    tmp_path: Path, event: str, internal: Event, fields: dict[str, Any]
) -> None:
    captured = tmp_path / "stdin.json"
    hooks = ClaudeHooks([source(event, f"cat > {captured}")], project_dir=tmp_path)
    host = SessionHost("sess-1", str(tmp_path / "sess-1.jsonl"), "acceptEdits")
    runner = HookRunner(cwd=str(tmp_path), host=host)
    hooks.install(runner)
    await runner.emit(internal)
    data = json.loads(captured.read_text())
    fields = json.loads(json.dumps(fields).replace(ROOT, os.path.realpath(tmp_path)))
    if event == "UserPromptSubmit":  # a fresh id per prompt
        assert uuid.UUID(data.pop("prompt_id"))
    assert data == {
        "session_id": "sess-1",
        "transcript_path": str(tmp_path / "sess-1.jsonl"),
        "cwd": str(tmp_path),
        "permission_mode": "acceptEdits",
        "hook_event_name": event,
        **fields,
    }
    assert list(data)[:5] == [
        "session_id",
        "transcript_path",
        "cwd",
        "permission_mode",
        "hook_event_name",
    ]


async def test_permission_mode_omitted_when_unknown(tmp_path: Path) -> None:
    captured = tmp_path / "stdin.json"
    hooks = ClaudeHooks([source("Stop", f"cat > {captured}")], project_dir=tmp_path)
    await hooks.engine.run("Stop", {"stop_hook_active": False})
    data = json.loads(captured.read_text())
    assert "permission_mode" not in data
    assert data["session_id"] and data["transcript_path"] == ""
    assert data["cwd"] == str(tmp_path.resolve())
