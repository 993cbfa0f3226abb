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


async def test_plugin_hooks_json_runs_without_project_trust(
    make_agent: MakeAgent, tmp_path: Path, isolated_home: Path
) -> None:
    """~/.claude/plugins/*/hooks/hooks.json is user scope: it runs in an untrusted project."""
    record = tmp_path / "seen.json"
    plugin = isolated_home / ".claude" / "plugins" / "guard" / "hooks"
    plugin.mkdir(parents=True)
    command = _capture_hook(plugin, record, exit_code=2)
    (plugin / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
                    ]
                }
            }
        )
    )
    h = await make_agent(
        [{"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]}, "done"],
        trust_project=False,
    )
    await h.agent.prompt("go")
    results = [m for m in h.agent.session.build_context_messages() if m["role"] == "tool"]
    assert results and results[0]["is_error"]
    assert "plugin says no" in content_text(results[0]["content"])
    assert json.loads(record.read_text())["tool_input"] == {"command": "echo hi"}


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
