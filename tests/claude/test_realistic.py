"""A Claude Code project as its docs describe it, run unchanged through hookline.

``.claude/settings.json`` points a PreToolUse hook at
``"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh``; the script reads the
hook input from stdin (no jq: sed), and denies ``rm -rf`` with
``hookSpecificOutput.permissionDecision: "deny"``. A PostToolUse hook logs
edited files. Everything goes through settings parsing, the adapter and a
real ``HookRunner``.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from hookline.claude import ClaudeHooks, HookSource
from hookline.core.events import ToolCallEvent, ToolResultEvent
from hookline.core.runner import HookRunner
from hookline.settings.models import Settings

BLOCK_RM = r"""#!/bin/bash
# Deny destructive rm commands (Claude Code PreToolUse hook).
input=$(cat)
command=$(printf '%s' "$input" | sed -n 's/.*"command": *"\([^"]*\)".*/\1/p')
if printf '%s' "$command" | grep -q 'rm -rf'; then
  cat <<'JSON'
{
  "hookSpecificOutput": {
    "hookEventName": "PreToolUse",
    "permissionDecision": "deny",
    "permissionDecisionReason": "Destructive command blocked by hook"
  }
}
JSON
  exit 0
fi
exit 0
"""

LOG_EDITS = r"""#!/bin/bash
path=$(sed -n 's/.*"file_path": *"\([^"]*\)".*/\1/p')
echo "$path" >> "$CLAUDE_PROJECT_DIR/.claude/edited.log"
"""

SETTINGS = {
    "permissions": {"allow": ["Bash(npm test:*)"]},
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh',
                    }
                ],
            }
        ],
        "PostToolUse": [
            {
                "matcher": "Edit|Write",
                "hooks": [
                    {
                        "type": "command",
                        "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/log-edits.sh',
                        "timeout": 10,
                    }
                ],
            }
        ],
    },
}


def make_project(root: Path) -> Path:
    hooks_dir = root / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    for name, body in (("block-rm.sh", BLOCK_RM), ("log-edits.sh", LOG_EDITS)):
        path = hooks_dir / name
        path.write_text(body)
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    (root / ".claude" / "settings.json").write_text(json.dumps(SETTINGS, indent=2))
    return root / ".claude" / "settings.json"


async def test_claude_project_runs_unchanged(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    settings_path = make_project(project)
    settings = Settings.model_validate_json(settings_path.read_text())
    assert isinstance(settings.hooks, dict)
    source = HookSource("project", settings_path, {str(k): v for k, v in settings.hooks.items()})
    hooks = ClaudeHooks([source], project_dir=project)
    runner = HookRunner(cwd=str(project))
    hooks.install(runner)

    denied = await runner.emit_tool_call(
        ToolCallEvent(tool_name="bash", tool_call_id="t1", input={"command": "rm -rf /tmp/build"})
    )
    assert denied is not None and denied.block
    assert denied.reason == "Destructive command blocked by hook"

    allowed = await runner.emit_tool_call(
        ToolCallEvent(tool_name="bash", tool_call_id="t2", input={"command": "npm test"})
    )
    assert allowed is None

    edit = ToolResultEvent(
        tool_name="edit",
        tool_call_id="t3",
        input={"path": "src/app.py", "oldText": "a", "newText": "b"},
        content=[{"type": "text", "text": "edited"}],
    )
    assert await runner.emit_tool_result(edit) is None
    read = ToolResultEvent(tool_name="read", tool_call_id="t4", input={"path": "x"}, content=[])
    await runner.emit_tool_result(read)
    # Claude Code shows file paths absolute; so does hookline
    edited = os.path.realpath(project / "src" / "app.py")
    assert (project / ".claude" / "edited.log").read_text() == f"{edited}\n"
