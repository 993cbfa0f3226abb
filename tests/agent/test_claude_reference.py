"""A settings file assembled from the Claude Code hooks reference's own examples, end to end.

The scripts are the reference's recipes as users copy them (``jq`` on stdin,
exit 2 to block, JSON decisions, plain stdout as context); the model is the
scripted one. Each hook's effect is checked: what ran, what was blocked, what
the model received next. Events hookline has no moment for sit in the same
file and are accepted, never an error.
"""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from .conftest import MakeAgent

pytestmark = pytest.mark.skipif(shutil.which("jq") is None, reason="the recipes use jq")

SCRIPTS = {
    # PreToolUse: block destructive commands (exit 2, stderr to the model)
    "block-rm.sh": """\
COMMAND=$(jq -r '.tool_input.command')
if echo "$COMMAND" | grep -q 'rm -rf'; then
  echo "Blocked: rm -rf is not allowed" >&2
  exit 2
fi
exit 0
""",
    # PreToolUse: protect files with a JSON deny
    "protect-files.sh": """\
FILE_PATH=$(jq -r '.tool_input.file_path // empty')
case "$FILE_PATH" in
  *.env|*/.git/*)
    jq -n --arg r "Protected file: $FILE_PATH" '{hookSpecificOutput: {
      hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: $r}}'
    ;;
esac
exit 0
""",
    # PostToolUse: log edited files (the formatter recipe without the formatter)
    "log-edits.sh": """\
jq -r '.tool_input.file_path' >> "$CLAUDE_PROJECT_DIR/.claude/edited.log"
""",
    # UserPromptSubmit: plain stdout is context for the model
    "prompt-context.sh": """\
cat > /dev/null
echo "Current sprint: auth refactor"
""",
    # SessionStart (startup): context before the first prompt
    "session-context.sh": """\
cat > /dev/null
echo "Reminder: use make for builds"
""",
    # Stop: keep going once, then let it stop (stop_hook_active guards the loop)
    "keep-going.sh": """\
if [ "$(jq -r '.stop_hook_active')" = "true" ]; then exit 0; fi
echo '{"decision": "block", "reason": "Run the tests before stopping."}'
""",
    # PostToolUseFailure / SessionEnd / Notification: audit logs
    "audit.sh": """\
jq -c '{e: .hook_event_name, tool: .tool_name, reason: .reason, type: .notification_type}' \
  >> "$CLAUDE_PROJECT_DIR/.claude/audit.log"
""",
}


def write_scripts(project: Path) -> dict[str, str]:
    folder = project / ".claude" / "hooks"
    folder.mkdir(parents=True)
    out = {}
    for name, body in SCRIPTS.items():
        path = folder / name
        path.write_text(f"#!/usr/bin/env bash\n{body}")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        out[name] = f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}'
    return out


def group(command: str, matcher: str | None = None) -> dict[str, Any]:
    g: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": 30}]}
    if matcher is not None:
        g["matcher"] = matcher
    return g


def reference_settings(cmd: dict[str, str]) -> dict[str, Any]:
    return {
        "hooks": {
            "PreToolUse": [
                group(cmd["block-rm.sh"], "Bash"),
                group(cmd["protect-files.sh"], "Edit|Write"),
                group(cmd["audit.sh"], "mcp__memory__.*"),
            ],
            "PostToolUse": [group(cmd["log-edits.sh"], "Edit,Write")],
            "PostToolUseFailure": [group(cmd["audit.sh"])],
            "UserPromptSubmit": [group(cmd["prompt-context.sh"])],
            "SessionStart": [group(cmd["session-context.sh"], "startup")],
            "Stop": [group(cmd["keep-going.sh"])],
            "SessionEnd": [group(cmd["audit.sh"])],
            "Notification": [group(cmd["audit.sh"], "permission_prompt|idle_prompt")],
            # no moment in hookline: accepted, reported as never firing
            "Setup": [group(cmd["audit.sh"], "init")],
            "WorktreeCreate": [group(cmd["audit.sh"])],
            "TeammateIdle": [group(cmd["audit.sh"])],
        }
    }


def call(name: str, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {"name": name, "arguments": args, "id": call_id}


async def test_the_reference_examples_work_end_to_end(make_agent: MakeAgent, project: Path) -> None:
    cmd = write_scripts(project)
    (project / ".env").write_text("SECRET=1\n")
    h = await make_agent(
        [
            {
                "expect_user_contains": "Current sprint: auth refactor",
                "tool_calls": [
                    call("bash", {"command": "rm -rf build"}, "t1"),
                    call("write", {"path": ".env", "content": "SECRET=2\n"}, "t2"),
                    call("write", {"path": "src/app.py", "content": "print(1)\n"}, "t3"),
                    call("read", {"path": "missing.txt"}, "t4"),
                ],
            },
            {"expect_tool_result_contains": "missing.txt", "text": "Done."},
            # the Stop hook blocked once: the reason reaches the model as a prompt
            {"expect_user_contains": "Run the tests before stopping.", "text": "Tests pass."},
        ],
        claude_settings=reference_settings(cmd),
    )
    assert "Setup" not in h.stderr.getvalue()  # accepted: no "unknown event" warning
    claude = h.agent.claude
    assert claude is not None
    assert sorted(claude.engine.dormant_events()) == ["Setup", "TeammateIdle", "WorktreeCreate"]

    await h.agent.prompt("ship it")
    await h.agent.shutdown()

    results = {
        m["tool_call_id"]: str(m["content"])
        for m in h.agent.session.build_context_messages()
        if m["role"] == "tool"
    }
    assert "Blocked: rm -rf is not allowed" in results["t1"]
    assert "Protected file:" in results["t2"]
    assert (project / ".env").read_text() == "SECRET=1\n"
    assert (project / "src" / "app.py").read_text() == "print(1)\n"
    edited = (project / ".claude" / "edited.log").read_text().split()
    assert edited == [str((project / "src" / "app.py").resolve())]
    audit = [json.loads(x) for x in (project / ".claude" / "audit.log").read_text().splitlines()]
    assert {"e": "PostToolUseFailure", "tool": "Read", "reason": None, "type": None} in audit
    assert audit[-1] == {
        "e": "SessionEnd",
        "tool": None,
        "reason": "prompt_input_exit",
        "type": None,
    }
    assert not any(a["e"] in ("Setup", "WorktreeCreate", "TeammateIdle") for a in audit)
    first_request = h.provider.requests[0]
    assert "Reminder: use make for builds" in str(first_request.messages)
    assert h.provider.remaining == 0
