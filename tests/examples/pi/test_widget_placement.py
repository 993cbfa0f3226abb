"""pi's widget-placement example (``examples/pi/widget_placement.py``): one widget above
the editor, one below it, on the terminal app's screen."""

from __future__ import annotations

from pathlib import Path

from tests.examples.harness import example_path
from tests.modes.tui.helpers import app


def test_the_widgets_sit_above_and_below_the_editor(tmp_path: Path) -> None:
    hook = str(example_path("widget_placement"))
    with app(tmp_path, [], None, "--hook", hook) as pane:

        def placed(screen: str) -> bool:
            lines = screen.splitlines()
            above = [i for i, line in enumerate(lines) if "Above editor widget" in line]
            below = [i for i, line in enumerate(lines) if "Below editor widget" in line]
            editor = [i for i, line in enumerate(lines) if line.startswith("›")]
            footer = [i for i, line in enumerate(lines) if "msgs · ctx" in line]
            if not (above and below and editor and footer):
                return False
            return above[0] < editor[-1] < below[0] < footer[0]

        pane.wait_for(placed)
        pane.type("/new")
        pane.keys("Enter")
        pane.wait_for(placed)  # still in place in the new session


async def test_without_a_ui_nothing_is_set(tmp_path: Path) -> None:
    from hookline.authoring import HookHarness

    harness = HookHarness(tmp_path).load(example_path("widget_placement"))
    await harness.emit("session_start")  # has_ui is false: it returns at once
    assert harness.ui.notifications == []
