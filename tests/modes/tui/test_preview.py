"""An approval shows what the call will do, right above the dialog: a write's content
highlighted, an edit's diff, a bash line and the commands the rules saw in it, a hook
tool's own preview; a long preview scrolls, and it is gone once the dialog is answered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import app, bash


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def _ansi_screen(pane: Any) -> str:
    """The screen with its colours (tmux ``-e``)."""
    return str(pane.tmux("capture-pane", "-p", "-e", "-t", pane.target))


def test_a_write_approval_shows_the_content_highlighted(tmp_path: Path) -> None:
    content = "def greet(name):\n    return f'hello {name}'\n"
    turns = [_call("write", path="greet.py", content=content), "written"]
    with app(tmp_path, turns) as pane:
        pane.ready()
        pane.type("write it")
        pane.keys("Enter")
        screen = pane.wait_all(["Allow tool call?", "def greet(name):", "return f'hello"])
        # the preview is above the dialog, line-numbered and coloured as Python
        assert screen.index("def greet(name):") < screen.index("Allow tool call?")
        assert "1 def greet(name):" in " ".join(screen.split())
        coloured = _ansi_screen(pane)
        assert "38;5;81mdef" in coloured, coloured  # a Python keyword's colour
        pane.keys("1")
        pane.wait_all(["✓ write", "written"])
        # answered: the preview is gone, the transcript shows the call as usual
        assert "def greet(name):" not in pane.screen()
    assert (tmp_path / "project" / "greet.py").read_text() == content


def test_a_long_write_scrolls_with_page_keys(tmp_path: Path) -> None:
    content = "".join(f"line_{n:03} = {n}\n" for n in range(1, 201))
    turns = [_call("write", path="long.py", content=content), "written"]
    with app(tmp_path, turns) as pane:
        pane.ready()
        pane.type("write it")
        pane.keys("Enter")
        pane.wait_all(["Allow tool call?", "line_001 = 1", "of 200 · pgup/pgdn scroll"])
        # the preview's top and the whole dialog fit on the screen; the file's end does not
        visible = pane.screen()
        assert "line_001 = 1" in visible and "esc cancel" in visible, visible
        assert "line_200" not in visible
        pane.keys("PageDown")
        screen = pane.wait_for(lambda s: "line_001 = 1" not in s and "lines " in s)
        pane.keys("PageDown", "PageDown", "PageDown", "PageDown", "PageDown", "PageDown")
        pane.keys("PageDown", "PageDown", "PageDown", "PageDown", "PageDown", "PageDown")
        pane.keys("PageDown", "PageDown")
        screen = pane.wait_for("line_200 = 200")
        assert "to 200 of 200" in screen or "–200 of 200" in screen, screen
        pane.keys("PageUp")
        pane.wait_for(lambda s: "line_200 = 200" not in s)
        pane.keys("Escape")  # a plain no
        pane.wait_all(["⊘ write", "blocked by you"])
    assert not (tmp_path / "project" / "long.py").exists()


def test_an_edit_approval_shows_the_diff(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("alpha\nbravo\ncharlie\n")
    turns = [_call("edit", path="notes.txt", oldText="bravo", newText="BRAVO two"), "edited"]
    with app(tmp_path, turns) as pane:
        pane.ready()
        pane.type("edit it")
        pane.keys("Enter")
        screen = pane.wait_all(["Allow tool call?", "-bravo", "+BRAVO two"])
        assert " alpha" in screen and "@@ -1,3 +1,3 @@" in screen
        assert (project / "notes.txt").read_text() == "alpha\nbravo\ncharlie\n"  # not yet
        pane.keys("1")
        pane.wait_all(["✓ edit", "edited"])
    assert (project / "notes.txt").read_text() == "alpha\nBRAVO two\ncharlie\n"


def test_a_bash_approval_shows_the_command_and_its_simple_commands(tmp_path: Path) -> None:
    command = "sudo touch made && echo $(id -u) > out.txt"
    with app(tmp_path, [bash(command), "done"]) as pane:
        pane.ready()
        pane.type("run it")
        pane.keys("Enter")
        screen = pane.wait_all(["Allow tool call?", "runs", "• touch made  via sudo"])
        assert "• echo $(id -u)" in screen and "• id -u" in screen
        assert "writes  out.txt" in screen
        assert command in screen  # the whole line, above what it runs
        pane.keys("Escape")  # a plain no
        pane.wait_all(["⊘ bash", "done"])


OWN_PREVIEW = """
from hookline import HookAPI, Tool, ToolResult


async def execute(call_id, params, signal=None, on_update=None):
    return ToolResult([{"type": "text", "text": "launched"}])


def register(pi: HookAPI) -> None:
    pi.register_tool(
        Tool(
            "launch",
            "launch a rocket",
            {"type": "object", "properties": {"target": {"type": "string"}}},
            execute,
            meta={"render_preview": lambda args, options: f"ROCKET TO {args['target'].upper()}"},
        )
    )
    pi.register_tool(
        Tool(
            "broken",
            "a tool whose preview raises",
            {"type": "object", "properties": {"target": {"type": "string"}}},
            execute,
            meta={"render_preview": lambda args, options: 1 / 0},
        )
    )
"""


def test_a_hook_tool_shows_its_own_preview(tmp_path: Path) -> None:
    turns = [_call("launch", target="mars"), "launched it"]
    with app(tmp_path, turns, OWN_PREVIEW) as pane:
        pane.ready()
        pane.type("launch")
        pane.keys("Enter")
        screen = pane.wait_all(["Allow tool call?", "ROCKET TO MARS"])
        assert screen.index("ROCKET TO MARS") < screen.index("Allow tool call?")
        pane.keys("1")
        pane.wait_all(["✓ launch", "launched it"])


def test_a_raising_preview_falls_back_to_the_arguments_and_is_reported(tmp_path: Path) -> None:
    turns = [_call("broken", target="venus"), "still here"]
    with app(tmp_path, turns, OWN_PREVIEW) as pane:
        pane.ready()
        pane.type("try it")
        pane.keys("Enter")
        pane.wait_all(["Allow tool call?", '"target": "venus"'])
        # the report is printed above the app in its own redraw: wait for it, too
        pane.wait_for(lambda s: "ZeroDivisionError" in s or "division by zero" in s, whole=True)
        pane.keys("1")
        pane.wait_all(["✓ broken", "still here"])
