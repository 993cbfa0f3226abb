"""pi's tools example in Python (``examples/pi/tools.py``): the ``/tools`` selector turns
tools on and off at once, and the choice follows the session's branch."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hookline.authoring import HookHarness
from hookline.core.tool import ToolInfo
from hookline.session.manager import SessionManager
from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import RpcClient, write_script
from tests.modes.tui.helpers import app

EXAMPLE = PI_EXAMPLES / "tools.py"
ALL = ["read", "bash", "write"]


class Tools:
    """The agent's side of the tool set, for the harness: all, active, and a session."""

    def __init__(self, harness: HookHarness, tmp_path: Path) -> None:
        self.active = list(ALL)
        self.session = SessionManager.in_memory(tmp_path)
        host: Any = harness.host
        host.get_all_tools = lambda: [ToolInfo(n, n, {}) for n in ALL]
        host.get_active_tools = lambda: list(self.active)
        host.set_active_tools = self.set_active
        host.append_entry = self.session.append_custom_entry
        host.session_manager = self.session

    def set_active(self, names: list[str]) -> None:
        self.active = list(names)


async def test_the_selector_flips_a_tool_and_saves_the_choice(
    example: Example, tmp_path: Path
) -> None:
    harness = example("tools", answers={})
    tools = Tools(harness, tmp_path)
    await harness.emit("session_start")
    opened = asyncio.ensure_future(harness.command("tools"))
    shown = await harness.ui.next_component()
    assert shown.text(40).splitlines()[:5] == [
        "Tool Configuration",
        "",
        "→ read   enabled",
        "  bash   enabled",
        "  write  enabled",
    ]
    shown.press("down", "enter")
    assert tools.active == ["read", "write"]  # at once, the selector still open
    assert "→ bash   disabled" in shown.text(40)
    shown.send(" ")  # Space flips it back
    shown.press("down", "enter")
    assert tools.active == ["read", "bash"]
    shown.press("escape")
    assert await opened == []
    saved = [e["data"] for e in tools.session.get_entries() if e["type"] == "custom"]
    assert saved[-1] == {"enabled_tools": ["bash", "read"]} and len(saved) == 3


async def test_the_choice_follows_the_branch(example: Example, tmp_path: Path) -> None:
    harness = example("tools", answers={})
    tools = Tools(harness, tmp_path)
    await harness.emit("session_start")
    await harness.command("tools", "write")
    mark = tools.session.get_leaf_id()
    await harness.command("tools", "bash")
    assert tools.active == ["read"]
    tools.active = list(ALL)  # a new start: all on until the session's choice is applied
    await harness.emit("session_start")
    assert tools.active == ["read"]
    tools.session.branch(mark)  # /tree back to before bash was turned off
    await harness.emit("session_tree")
    assert tools.active == ["read", "bash"]
    tools.session.branch(None)  # before any choice: what is on stays on
    tools.active = ["bash"]
    await harness.emit("session_fork")
    await harness.command("tools", "read")
    assert tools.active == ["read", "bash"]


async def test_without_a_terminal_the_name_form_still_works(example: Example) -> None:
    harness = example("tools")
    await harness.command("tools", "nope")
    assert harness.ui.notifications[-1] == ("error", "no tool 'nope'")


def test_in_the_terminal_app_a_disabled_tool_is_gone_for_the_model(tmp_path: Path) -> None:
    call = {"tool_calls": [{"name": "read", "arguments": {"path": "x"}}]}
    told = {"text": "no read then", "expect_tool_result_contains": "unknown tool 'read'"}
    with app(tmp_path, [call, told], None, "--hook", str(EXAMPLE)) as pane:
        pane.ready()
        pane.type("/tools")
        pane.keys("Enter")
        screen = pane.wait_for("Tool Configuration")
        assert "→ read" in screen and "Enter/Space to change · Esc to cancel" in screen
        pane.keys("Enter")
        pane.wait_for("disabled")
        pane.keys("Escape")
        pane.wait_for(lambda s: "Tool Configuration" not in s)
        pane.type("read x")
        pane.keys("Enter")
        pane.wait_for("no read then")


async def test_over_rpc_the_selector_is_shown_as_text(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", [])
    async with RpcClient("--model", model, "--hook", str(EXAMPLE), "--no-session") as rpc:
        await rpc.send({"type": "prompt", "message": "/tools", "id": "p1"})
        note = await rpc.read_until(lambda m: m.get("method") == "notify")
    text = note[-1]["message"]
    assert text.startswith("Tool Configuration") and "→ read" in text and "enabled" in text
