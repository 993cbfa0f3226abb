"""`hookline claude-hook` as a real subprocess, with the JSON on stdin as Claude Code sends it."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class HookAnswer:
    code: int
    output: dict[str, Any]
    stderr: str


def run_claude_hook(
    payload: dict[str, Any] | str, *args: str, cwd: Path, env: dict[str, str] | None = None
) -> HookAnswer:
    """`hookline claude-hook ARGS` with ``payload`` on stdin, as Claude Code starts it."""
    text = payload if isinstance(payload, str) else json.dumps(payload)
    proc = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "claude-hook", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )
    output = json.loads(proc.stdout) if proc.stdout.strip() else {}
    return HookAnswer(proc.returncode, output, proc.stderr)


def pre_tool_use(cwd: Path, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    """A PreToolUse hook input as Claude Code sends it."""
    return {
        "session_id": "s1",
        "transcript_path": str(cwd / "t.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_1",
    }
