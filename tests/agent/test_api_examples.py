"""The extension-API examples in ``examples/hooks/``, each loaded from its file into a real
agent (``--hook PATH``) and driven through the behaviour its docstring promises."""

from __future__ import annotations

import asyncio

from tests.examples.harness import example_path

from .conftest import MakeAgent
from .helpers import ScriptedUI, texts


def example(name: str) -> list[str]:
    """``examples/hooks/<name>.py``, or the port of pi's example in ``examples/pi/``."""
    return [str(example_path(name))]


async def test_tools_toggle_turns_a_tool_off_and_remembers(make_agent: MakeAgent) -> None:
    ui = ScriptedUI(select="bash")
    h = await make_agent([], hook_paths=example("tools_toggle"), ui=ui)
    await h.runner.run_command("tools")  # picks "bash [on]" in the dialog
    assert "bash" not in h.agent.get_active_tools()
    await h.runner.run_command("tools", "bash")
    assert "bash" in h.agent.get_active_tools()
    await h.runner.run_command("tools", "write")
    file = h.agent.session.get_session_file()
    assert file is not None
    h.agent.session.close()
    again = await make_agent([], hook_paths=example("tools_toggle"), session_file=file)
    active = again.agent.get_active_tools()
    assert "write" not in active and "bash" in active


async def test_bookmark_labels_the_latest_entry(make_agent: MakeAgent) -> None:
    ui = ScriptedUI()
    h = await make_agent(["ok"], hook_paths=example("bookmark"), ui=ui)
    await h.agent.prompt("hello")
    leaf = h.agent.session.get_leaf_id()
    await h.runner.run_command("bookmark", "good state")
    assert h.agent.session.get_labels() == {leaf: "good state"}
    await h.runner.run_command("unbookmark")
    assert h.agent.session.get_labels() == {}
    assert h.errors == []


async def test_send_user_message_commands(make_agent: MakeAgent) -> None:
    ui = ScriptedUI()
    h = await make_agent(
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "sleep 0.3"}}]},
            "answered",
            {"text": "steered", "expect_user_contains": "focus on tests"},
        ],
        hook_paths=example("send_user_message"),
        ui=ui,
    )
    await h.runner.run_command("ask", "start")
    for _ in range(200):  # wait for the run to reach its tool call
        if not h.agent.is_idle() and h.provider.requests:
            break
        await asyncio.sleep(0.01)
    await h.runner.run_command("followup", "focus on tests")
    await h.agent.wait_for_idle()
    assert texts(h.seen_by_model(0)) == ["start"]
    assert texts(h.seen_by_model(2))[-1] == "focus on tests"
