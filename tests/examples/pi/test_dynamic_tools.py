"""pi's dynamic-tools example (``examples/pi/dynamic_tools.py``): in a real RPC session the
tool registered at ``session_start`` and one added by ``/add-echo-tool`` are offered to the
(scripted) model, with their prompt lines, and answer with their prefixes."""

from __future__ import annotations

from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import Line, RpcClient, write_script

PORT = str(PI_EXAMPLES / "dynamic_tools.py")


def _notes(lines: list[Line]) -> list[tuple[str, str]]:
    return [
        (str(m["notifyType"]), str(m["message"]))
        for m in lines
        if m["type"] == "extension_ui_request" and m["method"] == "notify"
    ]


def _call(name: str, message: str) -> dict[str, object]:
    return {"tool_calls": [{"name": name, "arguments": {"message": message}}]}


async def test_tools_registered_late_are_offered_and_run(tmp_path: Path) -> None:
    model = write_script(
        tmp_path / "script.json",
        [
            {
                **_call("echo_session", "hi"),
                "expect_system_contains": [
                    "Echo back user-provided text with [session] prefix",
                    "Echo back user-provided text with [shout] prefix",
                    "Use this tool when the user asks for exact echo output.",
                ],
            },
            {**_call("shout", "hey"), "expect_tool_result_contains": "[session] hi"},
            {"text": "Echoed twice.", "expect_tool_result_contains": "[shout] hey"},
        ],
    )
    args = ("--model", model, "--hook", PORT, "--no-session")
    async with RpcClient(*args, "--permission-mode", "bypassPermissions", cwd=tmp_path) as client:
        for command in ("/add-echo-tool  Shout ", "/add-echo-tool shout", "/add-echo-tool a-b"):
            await client.ok({"type": "prompt", "message": command})
        lines = await client.prompt("echo twice")
        assert await client.close_stdin() == 0
    assert [m for m in lines if m["type"] == "extension_error"] == []
    assert _notes(client.seen) == [
        ("info", "Registered dynamic tool: echo_session"),
        ("info", "Registered dynamic tool: shout"),
        ("warning", "Tool already registered: shout"),
        ("warning", "Usage: /add-echo-tool <tool_name> (lowercase, numbers, underscores)"),
    ]
    ends = [m for m in lines if m["type"] == "tool_execution_end"]
    assert [m["result"]["details"] for m in ends] == [
        {"tool": "echo_session", "prefix": "[session] "},
        {"tool": "shout", "prefix": "[shout] "},
    ]
