"""pi's status-line example in Python (``examples/pi/status_line.py``): the turn's progress
in the status line, in the theme's colours where there are colours."""

from __future__ import annotations

from pathlib import Path

from hookline.authoring import HookHarness
from hookline.core.theme import theme_by_name
from tests.modes.tui.helpers import app

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pi" / "status_line.py"


def _status(harness: HookHarness) -> str:
    return dict(harness.ui.status.items())["status-demo"]


async def test_the_status_follows_the_turns(tmp_path: Path) -> None:
    harness = HookHarness(tmp_path).load(EXAMPLE)
    await harness.emit("session_start")
    assert _status(harness) == "Ready"  # the harness's theme is plain: the text alone
    await harness.emit("turn_start", turn_index=0, timestamp=0.0)
    assert _status(harness) == "● Turn 1..."
    await harness.emit("turn_end", turn_index=0)
    assert _status(harness) == "✓ Turn 1 complete"
    await harness.emit("turn_start", turn_index=1, timestamp=0.0)
    await harness.emit("session_switch", reason="new")
    assert _status(harness) == "Ready"
    await harness.emit("turn_start", turn_index=0, timestamp=0.0)
    assert _status(harness) == "● Turn 1..."  # counted again from the new session


async def test_in_colour_with_a_coloured_theme(tmp_path: Path) -> None:
    harness = HookHarness(tmp_path).load(EXAMPLE)
    dark = theme_by_name("dark")
    harness.ui.set_theme(dark)
    await harness.emit("turn_end", turn_index=0)
    assert _status(harness) == dark.fg("success", "✓") + dark.fg("dim", " Turn 0 complete")


async def test_the_command_switches_the_theme(tmp_path: Path) -> None:
    harness = HookHarness(tmp_path).load(EXAMPLE)
    assert await harness.command("status-theme", "light") == []
    assert harness.ui.theme.name == "light"
    await harness.command("status-theme", "lihgt")
    assert harness.ui.notifications[-1] == (
        "error",
        "theme not switched: theme not found: 'lihgt'; did you mean light?",
    )


def test_in_the_terminal_app_the_status_is_coloured(tmp_path: Path) -> None:
    with app(tmp_path, ["first answer"], None, "--hook", str(EXAMPLE)) as pane:
        pane.ready()
        pane.wait_for("Ready")
        pane.type("hello")
        pane.keys("Enter")
        styled = pane.wait_for("Turn 1 complete", styled=True)
        line = next(line for line in styled.splitlines() if "Turn 1 complete" in line)
        tick = line[: line.index("✓")]
        assert "\x1b[38;" in tick  # the theme's "success", drawn in colour
        pane.type("/status-theme light")
        pane.keys("Enter")
        pane.wait_for(lambda s: "Ready" in s and "Turn 1 complete" not in s)
