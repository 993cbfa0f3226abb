"""The approval dialog over RPC: pi's select and input requests, answered by the host."""

from __future__ import annotations

import json
from pathlib import Path

from ..helpers import Line, RpcClient, write_script

TOUCH = {"id": "t1", "name": "bash", "arguments": {"command": "touch made.txt"}}


async def _dialog(rpc: RpcClient) -> Line:
    lines = await rpc.read_until(
        lambda m: m["type"] == "extension_ui_request" and m["method"] in ("select", "input")
    )
    return lines[-1]


async def _respond(rpc: RpcClient, request_id: str, **fields: str) -> None:
    await rpc.send({"type": "extension_ui_response", "id": request_id, **fields})


async def test_dont_ask_again_over_rpc_writes_the_rule_and_notifies(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    model = write_script(tmp_path / "script.json", [{"tool_calls": [TOUCH]}, "Done."])
    async with RpcClient("--model", model, "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        select = await _dialog(rpc)
        assert select["method"] == "select"
        assert select["title"] == "Allow tool call?\nBash needs approval: bash touch made.txt"
        options = select["options"]
        assert options == [
            "Yes",
            "Yes, and don't ask again for Bash(touch made.txt)",
            "No, and tell the agent what to do differently",
        ]
        await _respond(rpc, select["id"], value=options[1])
        lines = await rpc.read_until(lambda m: m["type"] == "agent_end")
        notices = [m["message"] for m in lines if m.get("method") == "notify"]
        assert (
            "Allowed from now on: Bash(touch made.txt) (written to .claude/settings.local.json)"
            in notices
        )
        assert await rpc.close_stdin() == 0
    assert (project / "made.txt").exists()
    local = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert local == {"permissions": {"allow": ["Bash(touch made.txt)"]}}


async def test_no_and_tell_over_rpc_asks_for_text_that_reaches_the_model(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    said = "To tell you how to proceed, the user said:\nwrite it with the editor"
    turns = [{"tool_calls": [TOUCH]}, {"text": "Understood.", "expect_tool_result_contains": said}]
    model = write_script(tmp_path / "script.json", turns)
    async with RpcClient("--model", model, "--cwd", str(project)) as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        select = await _dialog(rpc)
        await _respond(rpc, select["id"], value="No, and tell the agent what to do differently")
        ask = await _dialog(rpc)
        assert (ask["method"], ask["title"]) == ("input", "Tell the agent what to do differently")
        await _respond(rpc, ask["id"], value="write it with the editor")
        lines = await rpc.read_until(lambda m: m["type"] == "agent_end")
        assert await rpc.close_stdin() == 0
    assert not (project / "made.txt").exists()
    end = next(m for m in lines if m["type"] == "tool_execution_end")
    assert end["isError"] is True
    assert "Understood." in json.dumps(lines[-1])
