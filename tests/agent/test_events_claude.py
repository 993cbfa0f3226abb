"""Payloads of hookline's events for the Claude hooks: permission, notification, sub-agents.

``permission_request`` and ``notification`` come from the permission gate
(mode ``default``, a bash call that needs approval); ``subagent_start`` /
``subagent_stop`` from a Claude settings ``agent`` hook the agent runs with
its own model (agent/model_hooks.py).
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from hookline import (
    NotificationEvent,
    PermissionRequestEvent,
    SubagentStartEvent,
    SubagentStopEvent,
)
from hookline.agent.model_hooks import AGENT_SYSTEM
from hookline.agent.permissions import PermissionRules, check_permission

from .conftest import MakeAgent
from .helpers import ScriptedUI, covers


def touch_then_answer(expect: str) -> list[dict[str, object]]:
    return [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "touch made"}, "id": "t1"}]},
        {"text": "ok", "expect_tool_result_contains": expect},
    ]


@covers("permission_request", "notification")
async def test_a_call_that_needs_approval_is_announced_before_the_prompt(
    make_agent: MakeAgent, project: Path
) -> None:
    ui = ScriptedUI(confirm=False)
    h = await make_agent(
        touch_then_answer("Permission denied by the user"), permission_mode="default", ui=ui
    )
    await h.agent.prompt("make a file")

    request = h.event(PermissionRequestEvent)
    assert (request.tool_name, request.tool_call_id, request.input) == (
        "bash",
        "t1",
        {"command": "touch made"},
    )
    assert request.permission_suggestions == []
    note = h.event(NotificationEvent)
    assert note.message == "hookline needs your permission to use bash touch made"
    assert (note.title, note.notification_type) == ("Permission needed", "permission_prompt")
    types = h.types()
    assert types.index("tool_call") < types.index("permission_request")
    assert types.index("permission_request") < types.index("notification")
    assert not (project / "made").exists()
    assert h.provider.remaining == 0


async def test_with_no_ui_the_call_is_denied_and_nothing_is_announced(
    make_agent: MakeAgent, project: Path
) -> None:
    """No prompt is shown, so no ``permission_prompt`` (Claude Code's ``-p`` sends none)."""
    h = await make_agent(touch_then_answer("there is no UI to ask"), permission_mode="default")
    await h.agent.prompt("make a file")

    assert h.event(PermissionRequestEvent).tool_name == "bash"
    assert h.events(NotificationEvent) == []
    assert not (project / "made").exists()
    assert h.provider.remaining == 0


DECIDE = """\
def register(pi):
    @pi.on("permission_request")
    def decide(event, ctx):
        return {DECISION}
"""


@pytest.mark.parametrize(
    ("decision", "expect", "made"),
    [
        ({"decision": "allow"}, "(no output)", True),
        (
            {"decision": "deny", "reason": "not today"},
            "Permission denied by hook: not today",
            False,
        ),
    ],
)
async def test_a_permission_request_hook_decides(
    make_agent: MakeAgent, project: Path, decision: dict[str, str], expect: str, made: bool
) -> None:
    h = await make_agent(
        touch_then_answer(expect),
        hooks={"decide": DECIDE.replace("{DECISION}", repr(decision))},
        permission_mode="default",
    )
    await h.agent.prompt("make a file")
    assert (project / "made").exists() is made
    assert h.events(NotificationEvent) == []  # decided: nobody is asked
    assert h.provider.remaining == 0


@pytest.mark.parametrize(
    ("answer", "expect", "made"),
    [("Yes", "(no output)", True), (None, "Permission denied by the user", False)],
)
async def test_with_a_ui_the_user_is_asked(
    make_agent: MakeAgent, project: Path, answer: str | None, expect: str, made: bool
) -> None:
    ui = ScriptedUI(select=answer)
    h = await make_agent(touch_then_answer(expect), permission_mode="default", ui=ui)
    await h.agent.prompt("make a file")
    ((title, options),) = ui.asked
    assert title == "Allow tool call?\nBash needs approval: bash touch made"
    assert options[0] == "Yes" and options[-1].startswith("No, and tell")
    assert (project / "made").exists() is made
    assert h.provider.remaining == 0


def test_the_todo_list_needs_no_approval_in_any_mode() -> None:
    todos = {"todos": [{"content": "x"}]}
    for mode in ("default", "plan", "dontAsk", "acceptEdits"):
        check = check_permission(mode, PermissionRules(), "todo_write", todos, ".")
        assert check.decision == "allow", mode
    denied = PermissionRules.from_lists(deny=["todo_write"])
    assert check_permission("default", denied, "todo_write", todos, ".").decision == "deny"


def executable(path: Path, body: str) -> str:
    path.write_text(f"#!/usr/bin/env bash\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


async def test_a_settings_notification_hook_gets_the_claude_payload(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    log = tmp_path / "notification.json"
    script = executable(tmp_path / "notify.sh", f"cat > {log}")
    h = await make_agent(
        touch_then_answer("Permission denied by the user"),
        permission_mode="default",
        ui=ScriptedUI(confirm=False),
        claude_settings={
            "hooks": {
                "Notification": [
                    {
                        "matcher": "permission_prompt",
                        "hooks": [{"type": "command", "command": script}],
                    }
                ]
            }
        },
    )
    await h.agent.prompt("make a file")
    payload = json.loads(log.read_text())
    assert payload["hook_event_name"] == "Notification"
    assert payload["notification_type"] == "permission_prompt"
    assert payload["message"] == "hookline needs your permission to use bash touch made"
    assert payload["permission_mode"] == "default"
    assert payload["session_id"] == h.agent.session.get_session_id()


@covers("subagent_start", "subagent_stop")
async def test_a_settings_agent_hook_runs_a_subagent_with_the_agents_model(
    make_agent: MakeAgent, project: Path
) -> None:
    (project / "NOTES.md").write_text("notes\n")
    h = await make_agent(
        [
            "Finished.",  # the main agent stops: the Stop hook's sub-agent runs next
            {"tool_calls": [{"name": "ls", "arguments": {}}]},
            {
                "expect_tool_result_contains": "NOTES.md",
                "tool_calls": [{"name": "hook_result", "arguments": {"ok": True}}],
            },
            "never played",
        ],
        claude_settings={
            "hooks": {
                "Stop": [
                    {
                        "hooks": [
                            {"type": "agent", "prompt": "Check NOTES.md exists.", "maxTurns": 5}
                        ]
                    }
                ]
            }
        },
    )
    await h.agent.prompt("write notes")

    start = h.event(SubagentStartEvent)
    assert start.agent_id.startswith("hook-")
    assert start.agent_type == "hook_agent"
    stop = h.event(SubagentStopEvent)
    assert stop.agent_id == start.agent_id
    assert stop.stop_hook_active is False
    assert stop.agent_transcript_path is None
    types = h.types()
    assert types.index("stop") < types.index("subagent_start") < types.index("subagent_stop")
    assert types.index("subagent_stop") < types.index("agent_end")

    sub_requests = h.provider.requests[1:]
    assert len(sub_requests) == 2
    assert all(r.system_prompt == AGENT_SYSTEM for r in sub_requests)
    assert {t.name for t in sub_requests[0].tools} == {"read", "ls", "find", "grep", "hook_result"}
    assert "Check NOTES.md exists." in str(sub_requests[0].messages[0]["content"])
    assert h.provider.remaining == 1  # ok: true, the main agent stopped
    assert h.errors == []
