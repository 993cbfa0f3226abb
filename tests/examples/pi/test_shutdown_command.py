"""pi's shutdown-command example in Python (``examples/pi/shutdown_command.py``): ``/quit``
and the two tools end the session with ``session_shutdown``, after the tool's result."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.modes.helpers import CLI, TIMEOUT, json_lines, write_script

from ..harness import PI_EXAMPLES, Example

HOOK = str(PI_EXAMPLES / "shutdown_command.py")


async def test_quit_asks_for_shutdown(example: Example) -> None:
    harness = example("shutdown_command")
    shutdowns: list[bool] = []
    harness.host.request_shutdown = lambda: shutdowns.append(True)  # type: ignore[method-assign]
    assert await harness.command("quit") == []
    assert shutdowns == [True]


def test_the_tool_ends_the_session_after_its_result(tmp_path: Path, project: Path) -> None:
    """stdin stays open: only the tool's ``ctx.shutdown()`` ends the RPC server."""
    turns = [
        {
            "text": "deploying",
            "tool_calls": [{"name": "deploy_and_exit", "arguments": {"environment": "staging"}}],
        },
        {"text": "deployed, bye", "expect_tool_result_contains": "Done! Shutdown requested."},
        {"text": "never asked"},
    ]
    script = write_script(tmp_path / "s.json", turns)
    with subprocess.Popen(
        [*CLI, "--mode", "rpc", "--permission-mode", "bypassPermissions", "--model", script,
         "--hook", HOOK],
        cwd=project, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    ) as child:  # fmt: skip
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(json.dumps({"type": "prompt", "message": "deploy"}) + "\n")
        child.stdin.flush()
        assert child.wait(timeout=TIMEOUT) == 0
        lines = json_lines(child.stdout.read())
        child.stdin.close()
    updates = [
        line["partialResult"]["content"][0]["text"]
        for line in lines
        if line.get("type") == "tool_execution_update"
    ]
    assert updates == ["Deploying to staging...", "Deployment complete, exiting..."]
    (end,) = [line for line in lines if line.get("type") == "tool_execution_end"]
    assert end["result"]["details"] == {"environment": "staging"}
    assert [line["type"] for line in lines][-1] == "agent_end"
