"""pi's minimal-mode example (``examples/pi/minimal_mode.py``): tool calls one line each
while collapsed; Ctrl+O expands them, for the last call and every one after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.examples.harness import example_path
from tests.modes.tui.helpers import app

BYPASS = ("--permission-mode", "bypassPermissions")


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def test_collapsed_calls_are_one_line_and_ctrl_o_shows_the_output(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.txt").write_text("a\n")
    (project / "b.txt").write_text("b\n")
    turns = [
        _call("bash", command="echo first-output"),
        _call("ls", path="."),
        "listed",
        _call("bash", command="echo second-output"),
        "echoed",
    ]
    with app(tmp_path, turns, None, "--hook", str(example_path("minimal_mode")), *BYPASS) as pane:
        pane.ready()
        pane.type("list")
        pane.keys("Enter")
        screen = pane.wait_all(["✓ bash  $ echo first-output", "✓ ls  .", "→ 2 entries", "listed"])
        assert "\nfirst-output" not in screen and "    first-output" not in screen
        assert "a.txt" not in screen
        pane.keys("C-o")  # the ls again, with its entries
        pane.wait_all(["tool output expanded", "    a.txt", "    b.txt"])
        pane.type("again")
        pane.keys("Enter")  # expanded from now on: the next call shows its output
        pane.wait_all(["✓ bash  $ echo second-output", "    second-output", "echoed"])
        pane.keys("C-o")
        pane.wait_all(["tool output collapsed"])
