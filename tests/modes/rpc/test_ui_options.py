"""RPC mode forwards the terminal-only UI options: dialog timeouts, descriptions, widgets."""

from __future__ import annotations

import json
from pathlib import Path

from ..helpers import RpcClient, write_hook, write_script

HOOK = """
import json
from pathlib import Path


def register(pi):
    @pi.on("agent_start")
    async def ask(event, ctx):
        ctx.ui.set_widget("todo", ["one", "two"], placement="below")
        ctx.ui.set_title("my title")
        choice = await ctx.ui.select(
            "Pick", ["a", "b"], timeout=7.5, descriptions={"b": "the second"}
        )
        ok = await ctx.ui.confirm("Sure?", "really", timeout=3)
        component = await ctx.ui.custom(lambda done: None)
        Path(RECORD).write_text(json.dumps([choice, ok, component]))
"""


async def test_timeouts_descriptions_widgets_and_title_reach_the_host(tmp_path: Path) -> None:
    record = tmp_path / "record.json"
    hook = write_hook(tmp_path / "hook.py", HOOK.replace("RECORD", repr(str(record))))
    model = write_script(tmp_path / "script.json", ["Done."])
    async with RpcClient("--model", model, "--hook", str(hook), "--no-session") as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        requests = []
        for answer in ({"value": "b"}, {"confirmed": True}):
            lines = await rpc.read_until(
                lambda m: (
                    m["type"] == "extension_ui_request" and m["method"] in ("select", "confirm")
                )
            )
            requests += [m for m in lines if m["type"] == "extension_ui_request"]
            await rpc.send({"type": "extension_ui_response", "id": lines[-1]["id"], **answer})
        await rpc.read_until(lambda m: m["type"] == "agent_end")
        assert await rpc.close_stdin() == 0
    assert any(m.get("id") == "p1" and m["success"] for m in rpc.seen if m["type"] == "response")
    by_method = {r["method"]: r for r in requests}
    # pi's names: setWidget/widgetKey/widgetLines/widgetPlacement, setTitle, timeouts in ms
    assert by_method["setWidget"]["widgetKey"] == "todo"
    assert by_method["setWidget"]["widgetLines"] == ["one", "two"]
    assert by_method["setWidget"]["widgetPlacement"] == "belowEditor"
    assert by_method["setTitle"]["title"] == "my title"
    assert by_method["select"]["timeout"] == 7500
    assert by_method["select"]["descriptions"] == {"b": "the second"}
    assert by_method["confirm"]["timeout"] == 3000
    assert json.loads(record.read_text()) == ["b", True, None]  # custom() is None over RPC


TIMED = """
import asyncio
import json
from pathlib import Path


def register(pi):
    @pi.on("agent_start")
    async def ask(event, ctx):
        timed_out = await ctx.ui.confirm("Sure?", "nobody answers", timeout=0.2)
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(0.2, stop.set)
        closed = await ctx.ui.select("Pick", ["a", "b"], signal=stop)
        Path(RECORD).write_text(json.dumps([timed_out, closed]))
"""


async def test_a_dialog_timeout_or_signal_closes_it_and_a_late_answer_is_refused(
    tmp_path: Path,
) -> None:
    record = tmp_path / "record.json"
    hook = write_hook(tmp_path / "hook.py", TIMED.replace("RECORD", repr(str(record))))
    model = write_script(tmp_path / "script.json", ["Done."])
    async with RpcClient("--model", model, "--hook", str(hook), "--no-session") as rpc:
        await rpc.send({"type": "prompt", "message": "go", "id": "p1"})
        lines = await rpc.read_until(lambda m: m["type"] == "agent_end")
        requests = [m for m in lines if m["type"] == "extension_ui_request"]
        closed = [m for m in lines if m["type"] == "extension_ui_cancelled"]
        assert [r["method"] for r in requests] == ["confirm", "select"]
        assert [(c["id"], c["reason"]) for c in closed] == [
            (requests[0]["id"], "timeout"),
            (requests[1]["id"], "signal"),
        ]
        # The host answers the first dialog too late: refused, never a yes.
        await rpc.send(
            {"type": "extension_ui_response", "id": requests[0]["id"], "confirmed": True}
        )
        late = await rpc.read_until(lambda m: m["type"] == "response")
        assert late[-1]["success"] is False
        assert await rpc.close_stdin() == 0
    assert json.loads(record.read_text()) == [False, None]
