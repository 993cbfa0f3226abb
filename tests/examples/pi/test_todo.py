"""pi's todo example in Python (``examples/pi/todo.py``): the list lives in the ``todo``
results' details, is rebuilt from the branch, drawn by the tool and by ``/todos``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hookline.authoring import HookHarness
from hookline.core.pipeline import ToolOutcome
from hookline.session.manager import SessionManager
from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import RpcClient, run_cli, write_script
from tests.modes.tui.helpers import app

EXAMPLE = PI_EXAMPLES / "todo.py"


async def _todo(harness: HookHarness, **params: Any) -> ToolOutcome:
    tool = harness.runner.get_registered_tools()["todo"]
    return await harness.run_tool(tool, params)


def _text(outcome: ToolOutcome) -> str:
    return "".join(str(block.get("text", "")) for block in outcome.result.content)


def _record(session: SessionManager, outcome: ToolOutcome) -> str:
    """The result as the agent keeps it: a tool message on the branch."""
    return session.append_message(
        {
            "role": "tool",
            "tool_call_id": "call",
            "tool_name": "todo",
            "content": outcome.result.content,
            "details": outcome.result.details,
            "is_error": False,
            "timestamp": 0.0,
        }
    )


async def test_the_actions_and_their_details(example: Example) -> None:
    harness = example("todo")
    assert _text(await _todo(harness, action="list")) == "No todos"
    assert _text(await _todo(harness, action="add", text="buy milk")) == "Added todo #1: buy milk"
    await _todo(harness, action="add", text="walk dog")
    toggled = await _todo(harness, action="toggle", id=1)
    assert _text(toggled) == "Todo #1 completed"
    assert toggled.result.details == {
        "action": "toggle",
        "todos": [
            {"id": 1, "text": "buy milk", "done": True},
            {"id": 2, "text": "walk dog", "done": False},
        ],
        "next_id": 3,
    }
    assert _text(await _todo(harness, action="list")) == "[x] #1: buy milk\n[ ] #2: walk dog"
    missing = await _todo(harness, action="toggle", id=9)
    assert (
        _text(missing) == "Todo #9 not found" and missing.result.details["error"] == "#9 not found"
    )
    assert _text(await _todo(harness, action="add")) == "Error: text required for add"
    assert _text(await _todo(harness, action="clear")) == "Cleared 2 todos"
    assert (await _todo(harness, action="add", text="again")).result.details["next_id"] == 2


async def test_the_list_is_rebuilt_from_the_branch(example: Example, tmp_path: Path) -> None:
    harness = example("todo", answers={})
    session = SessionManager.in_memory(tmp_path)
    harness.host.session_manager = session
    _record(session, await _todo(harness, action="add", text="buy milk"))
    before_dog = _record(session, await _todo(harness, action="toggle", id=1))
    _record(session, await _todo(harness, action="add", text="walk dog"))

    fresh = example("todo", answers={})  # a new start of the agent, the same session
    fresh.host.session_manager = session
    await fresh.emit("session_start")
    assert _text(await _todo(fresh, action="list")) == "[x] #1: buy milk\n[ ] #2: walk dog"
    session.branch(before_dog)  # /tree back to before the dog was added
    await fresh.emit("session_tree")
    assert _text(await _todo(fresh, action="list")) == "[x] #1: buy milk"
    assert _text(await _todo(fresh, action="add", text="read")) == "Added todo #2: read"
    session.branch(None)
    await fresh.emit("session_fork")
    assert _text(await _todo(fresh, action="list")) == "No todos"
    await fresh.emit("session_switch", reason="resume")
    assert _text(await _todo(fresh, action="list")) == "No todos"


async def test_slash_todos_shows_the_list_until_escape(example: Example) -> None:
    harness = example("todo", answers={})
    await _todo(harness, action="add", text="buy milk")
    await _todo(harness, action="add", text="walk dog")
    await _todo(harness, action="toggle", id=2)
    shown_task = asyncio.ensure_future(harness.command("todos"))
    shown = await harness.ui.next_component()
    assert [line.rstrip() for line in shown.text(40).split("\n")] == [
        "",
        "─── Todos ──────────────────────────────",
        "",
        "  1/2 completed",
        "",
        "  ○ #1 buy milk",
        "  ✓ #2 walk dog",
        "",
        "  Press Escape to close",
        "",
    ]
    shown.press("enter")
    assert not shown_task.done() or shown.value is None
    shown.press("escape")
    assert await shown_task == []


async def test_slash_todos_needs_a_ui(example: Example) -> None:
    harness = example("todo")
    await harness.command("todos")
    assert harness.ui.notifications[-1] == ("error", "/todos requires interactive mode")


def test_the_renderers(example: Example) -> None:
    meta = example("todo").runner.get_registered_tools()["todo"].meta
    render_call, render_result = meta["render_call"], meta["render_result"]
    assert render_call({"action": "add", "text": "buy milk"}) == 'add "buy milk"'
    assert render_call({"action": "toggle", "id": 2}) == "toggle #2"
    todos = [{"id": i, "text": f"t{i}", "done": i == 1} for i in range(1, 8)]
    listed = {"action": "list", "todos": todos, "next_id": 8}
    assert render_result("", {"details": listed}).splitlines() == [
        "7 todo(s):",
        "✓ #1 t1",
        "○ #2 t2",
        "○ #3 t3",
        "○ #4 t4",
        "○ #5 t5",
        "... 2 more",
    ]
    assert len(render_result("", {"details": listed, "expanded": True}).splitlines()) == 8
    added = {"action": "add", "todos": todos[:1], "next_id": 2}
    assert render_result("", {"details": added}) == "✓ Added #1 t1"
    assert render_result("", {"details": {**added, "error": "text required"}}) == (
        "Error: text required"
    )
    assert render_result("Todo #1 completed", {"details": {**added, "action": "toggle"}}) == (
        "✓ Todo #1 completed"
    )


def test_in_the_terminal_app_the_model_keeps_the_list(tmp_path: Path) -> None:
    adds = {
        "tool_calls": [
            {"name": "todo", "arguments": {"action": "add", "text": "buy milk"}},
            {"name": "todo", "arguments": {"action": "add", "text": "walk dog"}},
        ]
    }
    toggle = {"tool_calls": [{"name": "todo", "arguments": {"action": "toggle", "id": 1}}]}
    told = {"text": "list kept", "expect_tool_result_contains": "Todo #1 completed"}
    args = ("--hook", str(EXAMPLE), "--permission-mode", "bypassPermissions")
    with app(tmp_path, [adds, toggle, told], None, *args) as pane:
        pane.ready()
        pane.type("plan my day")
        pane.keys("Enter")
        screen = pane.wait_for("list kept")
        assert "✓ Added #2 walk dog" in screen and "✓ Todo #1 completed" in screen
        assert 'add "buy milk"' in screen  # the call, as the tool draws it
        pane.type("/todos")
        pane.keys("Enter")
        screen = pane.wait_all(["1/2 completed", "Press Escape to close"])
        assert "✓ #1 buy milk" in screen and "○ #2 walk dog" in screen
        pane.keys("Escape")
        pane.wait_for(lambda s: "Press Escape to close" not in s)


def test_a_continued_session_has_its_todos_back(tmp_path: Path) -> None:
    add = {"tool_calls": [{"name": "todo", "arguments": {"action": "add", "text": "buy milk"}}]}
    first = write_script(tmp_path / "first.json", [add, "added"])
    args = ("--hook", str(EXAMPLE), "--permission-mode", "bypassPermissions")
    project = tmp_path / "project"
    project.mkdir()
    done = run_cli("-p", "remember milk", "--model", first, *args, cwd=project)
    assert done.returncode == 0, done.stderr
    listing = {"tool_calls": [{"name": "todo", "arguments": {"action": "list"}}]}
    told = {"text": "still there", "expect_tool_result_contains": "[ ] #1: buy milk"}
    second = write_script(tmp_path / "second.json", [listing, told])
    done = run_cli("-p", "what is left?", "--continue", "--model", second, *args, cwd=project)
    assert done.returncode == 0, done.stderr
    assert "still there" in done.stdout


async def test_over_rpc_slash_todos_is_shown_as_text(tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", [])
    async with RpcClient("--model", model, "--hook", str(EXAMPLE), "--no-session") as rpc:
        await rpc.send({"type": "prompt", "message": "/todos", "id": "p1"})
        note = await rpc.read_until(lambda m: m.get("method") == "notify")
    assert "No todos yet. Ask the agent to add some!" in note[-1]["message"]
