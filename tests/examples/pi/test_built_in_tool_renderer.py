"""pi's built-in-tool-renderer example (``examples/pi/built_in_tool_renderer.py``): the
built-in tools run as ever, drawn compactly by the hook, expanded with Ctrl+O."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.examples.harness import example_path
from tests.modes.tui.helpers import app

BYPASS = ("--permission-mode", "bypassPermissions")


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def test_the_tools_are_drawn_compactly_and_expand(tmp_path: Path) -> None:
    turns = [
        _call("write", path="notes.txt", content="one\ntwo\nthree\n"),
        _call("edit", path="notes.txt", oldText="two", newText="TWO"),
        _call("bash", command="exit 3"),
        _call("read", path="notes.txt"),
        "all done",
    ]
    hook = str(example_path("built_in_tool_renderer"))
    with app(tmp_path, turns, None, "--hook", hook, *BYPASS) as pane:
        pane.ready()
        pane.type("go")
        pane.keys("Enter")
        screen = pane.wait_all(
            [
                "✓ write  notes.txt (4 lines)",
                "Written",
                "✓ edit  notes.txt",
                "+1 / -1",
                "✗ bash  exit 3",
                "exit 3 (",
                "✓ read  notes.txt",
                "lines",
                "all done",
            ]
        )
        assert "THREE" not in screen and "⎿" not in screen  # no default blocks
        assert (tmp_path / "project" / "notes.txt").read_text() == "one\nTWO\nthree\n"
        pane.keys("C-o")  # the last call, the read, drawn again with its lines
        pane.wait_for(lambda s: "tool output expanded" in s and "\n    TWO\n" in s, whole=True)
