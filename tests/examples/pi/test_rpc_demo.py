"""pi's rpc-demo example in Python (``examples/pi/rpc_demo.py``), driven over hookline's RPC
mode by the client written from pi's RPC document: each UI call is a request line, each
dialog answered by the client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.modes.helpers import CLI, write_script
from tests.modes.rpc.pi_rpc_client import Line, PiRpcClient

from ..harness import PI_EXAMPLES

HOOK = str(PI_EXAMPLES / "rpc_demo.py")


def answer(request: Line) -> dict[str, Any]:
    """Block dangerous commands, refuse to clear, type a value, submit two lines."""
    method = request["method"]
    if method == "select":
        return {"value": "Block"}
    if method == "confirm":
        return {"confirmed": False}
    if method == "input":
        return {"value": "forty-two"}
    return {"value": "one\ntwo"}


def ui(lines: list[Line], method: str) -> list[Line]:
    return [x for x in lines if x.get("type") == "extension_ui_request" and x["method"] == method]


async def test_the_demo_over_rpc(tmp_path: Path, project: Path) -> None:
    turns = [
        {
            "text": "cleaning",
            "tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf build"}}],
        },
        {"text": "blocked", "expect_tool_result_contains": "Blocked by user"},
    ]
    argv = [
        *CLI,
        "--mode",
        "rpc",
        "--model",
        write_script(tmp_path / "s.json", turns),
        "--hook",
        HOOK,
    ]
    async with PiRpcClient(argv, cwd=str(project), answer=answer) as client:
        await client.ok("get_state")
        assert [x["title"] for x in ui(client.lines, "setTitle")] == ["hookline RPC Demo"]
        (widget,) = ui(client.lines, "setWidget")
        assert widget["widgetLines"] == ["--- RPC Extension UI Demo ---", "Loaded and ready."]

        run = await client.run("clean the build")
        (select,) = ui(run, "select")
        assert (select["title"], select["options"]) == (
            "Dangerous command: rm -rf build",
            ["Allow", "Block"],
        )
        statuses = [x["statusText"] for x in ui(run, "setStatus")]
        assert statuses[:2] == ["Turn 1 running...", "Turn 1 done"]
        assert ("Command blocked by user", "warning") in [
            (x["message"], x["notifyType"]) for x in ui(run, "notify")
        ]

        start = len(client.lines)
        await client.ok("prompt", message="/rpc-input")
        await client.wait_for(lambda x: x.get("message") == "You entered: forty-two", start)
        await client.ok("prompt", message="/rpc-editor")
        await client.wait_for(lambda x: x.get("message") == "Editor submitted (2 lines)", start)
        await client.ok("prompt", message="/rpc-prefill")
        await client.wait_for(lambda x: x.get("message") == "Editor prefilled", start)
        (prefill,) = ui(client.lines[start:], "set_editor_text")
        assert prefill["text"] == "This text was set by the rpc-demo extension."

        start = len(client.lines)
        cleared = await client.call("new_session")
        assert cleared["data"] == {"cancelled": True}
        (confirm,) = ui(client.lines[start:], "confirm")
        assert confirm["title"] == "Clear session?"
