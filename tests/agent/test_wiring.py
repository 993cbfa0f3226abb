"""How the agent wires Claude settings hooks: plugins, permission mode, trust."""

from __future__ import annotations

import json
from pathlib import Path

from hookline.core.messages import content_text

from .conftest import MakeAgent


def _capture_hook(path: Path, record: Path, exit_code: int = 0) -> str:
    script = path / "capture.sh"
    script.write_text(f"#!/bin/sh\ncat > {record}\necho 'plugin says no' >&2\nexit {exit_code}\n")
    script.chmod(0o755)
    return str(script)


async def test_permission_mode_changes_reach_command_hooks(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    record = tmp_path / "seen.json"
    hooks_dir = tmp_path / "claude-hooks"
    hooks_dir.mkdir()
    command = _capture_hook(hooks_dir, record)
    call = {"tool_calls": [{"name": "bash", "arguments": {"command": "true"}}]}
    h = await make_agent(
        [call, "one", call, "two"],
        claude_settings={
            "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}
        },
    )
    await h.agent.prompt("first")
    assert json.loads(record.read_text())["permission_mode"] == "bypassPermissions"
    h.agent.set_permission_mode("acceptEdits")
    await h.agent.prompt("second")
    assert json.loads(record.read_text())["permission_mode"] == "acceptEdits"


def _decision_hook(path: Path, decision: str) -> str:
    script = path / f"{decision}.sh"
    body = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision}}
    script.write_text(f"#!/bin/sh\ncat > /dev/null\necho '{json.dumps(body)}'\n")
    script.chmod(0o755)
    return str(script)


async def test_pre_tool_use_allow_skips_the_prompt_but_not_deny_rules(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    """Claude's PreToolUse "allow" pre-approves the call; a deny rule still wins."""
    command = _decision_hook(tmp_path, "allow")
    calls = [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo approved"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "rm -f nothing"}}]},
        "done",
    ]
    h = await make_agent(
        calls,
        permission_mode="default",
        claude_settings={
            "permissions": {"deny": ["Bash(rm:*)"]},
            "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]},
        },
    )
    added = await h.agent.prompt("go")
    results = [m for m in added if m["role"] == "tool"]
    assert not results[0]["is_error"], content_text(results[0]["content"])
    assert "approved" in content_text(results[0]["content"])
    assert results[1]["is_error"]
    assert "denied by rule Bash(rm:*)" in content_text(results[1]["content"])


async def test_without_a_hook_decision_default_mode_still_needs_approval(
    make_agent: MakeAgent,
) -> None:
    h = await make_agent(
        [{"tool_calls": [{"name": "bash", "arguments": {"command": "mkdir x"}}]}, "done"],
        permission_mode="default",
    )
    added = await h.agent.prompt("go")
    result = next(m for m in added if m["role"] == "tool")
    assert result["is_error"] and "needs approval" in content_text(result["content"])
