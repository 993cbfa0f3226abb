"""pi's message-renderer example (``examples/pi/message_renderer.py``): ``/status``
messages drawn by the hook's component, their time shown once expanded with Ctrl+O."""

from __future__ import annotations

import re
from pathlib import Path

from hookline.authoring import HookHarness
from hookline.core.theme import theme_by_name
from tests.examples.harness import example_path
from tests.modes.tui.helpers import app


def test_ctrl_o_expands_the_message_to_show_its_time(tmp_path: Path) -> None:
    with app(tmp_path, [], None, "--hook", str(example_path("message_renderer"))) as pane:
        pane.ready()
        pane.type("/status warn disk low")
        pane.keys("Enter")
        screen = pane.wait_for("[WARN] disk low")
        assert "[status-update]" not in screen  # the hook drew it, not the default
        assert " at " not in screen
        lines = pane.styled_screen().splitlines()
        at = next(i for i, line in enumerate(lines) if "[WARN]" in line)
        # the box's padding row above, on the custom-message background (tmux writes a
        # colour once, where it starts)
        assert "\x1b[48;" in lines[at - 1]
        pane.keys("C-o")
        pane.wait_for(lambda s: re.search(r"  at \d\d:\d\d:\d\d", s) is not None)
        pane.keys("C-o")
        pane.wait_for("tool output collapsed")


async def test_the_levels_and_their_colours(tmp_path: Path) -> None:
    harness = HookHarness(tmp_path).load(example_path("message_renderer"))
    await harness.command("status", "error it broke")
    sent = harness.host.messages[-1]
    renderer = harness.runner.get_message_renderer("status-update")
    assert renderer is not None
    dark = theme_by_name("dark")
    message = {"content": "it broke", "details": {"level": "error", "timestamp": 0}}
    lines = renderer(message, {"expanded": False}, dark).render(30)
    assert len(lines) == 3 and dark.fg("error", "[ERROR]") in lines[1]
    assert sent["custom_type"] == "status-update" and sent["content"] == "it broke"
    assert sent["details"]["level"] == "error"
