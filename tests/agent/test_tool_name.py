"""Claude Code calls the sub-agent tool ``Agent`` (``Task`` before 2.1.63): a settings
hook written for it must guard hookline's ``task`` tool, and see the name Claude sends.

The real CLI in ``--mode json`` with a scripted model, as a user runs it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.modes.helpers import json_lines, run_cli, write_script


@pytest.mark.parametrize("matcher", ["Agent", "Task", "Bash|Agent", "Ag.*"])
def test_a_settings_hook_on_agent_blocks_the_task_tool(tmp_path: Path, matcher: str) -> None:
    record = tmp_path / "stdin.json"
    hook = tmp_path / "no_agents.sh"
    hook.write_text(f"#!/bin/sh\ncat > {record}\necho 'no sub-agents here' >&2\nexit 2\n")
    hook.chmod(0o755)
    settings = tmp_path / "settings.json"
    group = {"matcher": matcher, "hooks": [{"type": "command", "command": str(hook)}]}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    call = {"name": "task", "arguments": {"description": "d", "prompt": "touch SUB-RAN"}}
    model = write_script(tmp_path / "script.json", [{"tool_calls": [call]}, "main done"])

    done = run_cli(
        "--mode", "json", "-p", "delegate", "--model", model, "--settings", str(settings),
        "--no-session", "--cwd", str(tmp_path),
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    events = json_lines(done.stdout)
    assert not [e for e in events if e["type"] == "subagent_start"]  # it never ran
    [denied] = [e for e in events if e["type"] == "tool_denied"]
    assert (denied["tool_name"], denied["reason"]) == ("task", "no sub-agents here")
    seen = json.loads(record.read_text())
    assert seen["tool_name"] == "Agent"
    assert seen["tool_input"]["prompt"] == "touch SUB-RAN"
