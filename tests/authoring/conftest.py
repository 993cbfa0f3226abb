"""A project with module hooks and Claude-format settings hooks, for the `hooks` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GUARD = """\
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if "rm -rf" in event.input.get("command", ""):
            return {"block": True, "reason": "no rm -rf"}
        if event.input.get("command") == "crash":
            raise ValueError("boom")
        if event.tool_name == "read" and event.input.get("path") == "old.txt":
            return {"input": {**event.input, "path": "new.txt"}}
        return None
"""

CLAUDE_STYLE = """\
def register(pi):
    pi.on("PreToolUse", lambda e, c: None)
"""


@pytest.fixture(autouse=True)
def _project_files(project: Path) -> None:
    """What every test here finds in the project folder."""
    root = project
    (root / ".hookline" / "hooks").mkdir(parents=True)
    (root / ".claude").mkdir()
    (root / ".hookline" / "hooks" / "guard.py").write_text(GUARD)
    (root / ".hookline" / "hooks" / "claude_style.py").write_text(CLAUDE_STYLE)
    check = {"type": "command", "command": "cat > /dev/null; exit 0"}
    no_edits = {"type": "command", "command": "cat > /dev/null; echo 'no edits' >&2; exit 2"}
    settings = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [check, dict(check)]},
                {"matcher": "Edit|Write", "hooks": [{**no_edits, "timeout": 5}]},
            ],
            "StatusLine": [{"hooks": [{"type": "command", "command": "true"}]}],
        }
    }
    (root / ".claude" / "settings.json").write_text(json.dumps(settings))
