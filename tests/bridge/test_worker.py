"""``AnswerWorker``'s deadline holds for an event that waited its turn: it is counted from the
event's arrival, so events queued behind a stuck handler are each denied within it, not one
deadline after the other (Claude Code runs the tool when its own timeout passes first)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hookline.bridge.engine import load_bridge
from hookline.bridge.mapping import ClaudeAnswer
from hookline.bridge.metrics import claude_outcome
from hookline.bridge.worker import AnswerWorker

STUCK = """
import os, time

def register(pi):
    @pi.on("tool_call")
    def stuck(event, ctx):
        with open(STARTED, "a") as started:
            started.write("x")
        while not os.path.exists(RELEASE):
            time.sleep(0.01)
        return {"block": True, "reason": "released"}
"""


def _pre(command: str, cwd: Path) -> dict[str, Any]:
    return {
        "session_id": "s",
        "cwd": str(cwd),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "t",
    }


async def test_events_queued_behind_a_stuck_handler_are_denied_within_their_deadline(
    tmp_path: Path,
) -> None:
    started, release = tmp_path / "started", tmp_path / "release"
    hook = tmp_path / "stuck.py"
    source = STUCK.replace("STARTED", repr(str(started))).replace("RELEASE", repr(str(release)))
    hook.write_text(source)
    bridge = load_bridge([str(hook)], cwd=str(tmp_path), discover=False)
    warned: list[str] = []
    worker = AnswerWorker(bridge, 0.5, warned.append)
    try:
        answers: list[ClaudeAnswer] = await asyncio.gather(
            *(worker.answer(_pre(f"rm {n}", tmp_path)) for n in range(4))
        )
    finally:
        release.touch()  # the abandoned threads return
    assert [claude_outcome(answer) for answer in answers] == ["deny"] * 4
    # Each queued event's deadline ran while it waited: at most the first (and one that
    # got the turn as its deadline came) reached the handler, not each in turn.
    assert len(started.read_text()) <= 2, started.read_text()
