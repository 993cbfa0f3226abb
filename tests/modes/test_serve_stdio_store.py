"""``ctx.store`` under ``hookline serve --stdio``: pi's events count under the agent's session,
each Claude Code line under its own ``session_id``, through one import of the hook."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import Line, json_lines, run_cli, write_hook

COUNTER = """
    def register(pi):
        @pi.on("tool_call")
        def count(event, ctx):
            n = ctx.store.session.incr("calls")
            me = ctx.session_manager.get_session_id()
            return {"block": True, "reason": f"call {n} of {me if me in ('c1', 'c2') else 'pi'}"}
"""


def _claude(tmp_path: Path, session: str) -> dict[str, object]:
    return {
        "session_id": session,
        "hook_event_name": "PreToolUse",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }


def _pi() -> dict[str, object]:
    return {"type": "tool_call", "data": {"toolName": "bash", "toolCallId": "t", "input": {}}}


def _reason(answer: Line) -> str:
    if "result" in answer:
        return str(answer["result"]["reason"])
    return str(answer["output"]["hookSpecificOutput"]["permissionDecisionReason"])


def test_each_session_counts_apart(tmp_path: Path) -> None:
    hook = write_hook(tmp_path / "counter.py", COUNTER)
    requests = [
        {"id": 1, **_pi()},
        {"id": 2, "input": _claude(tmp_path, "c1")},
        {"id": 3, "input": _claude(tmp_path, "c1")},
        {"id": 4, "input": _claude(tmp_path, "c2")},
        {"id": 5, **_pi()},
    ]
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = run_cli(
        "serve", "--stdio", "--no-session", "--cwd", str(tmp_path), "--no-discovery",
        "--hook", str(hook), stdin=lines,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [_reason(a) for a in json_lines(done.stdout)] == [
        "call 1 of pi",
        "call 1 of c1",
        "call 2 of c1",
        "call 1 of c2",
        "call 2 of pi",  # the agent's session again, once the Claude lines are answered
    ]
