"""pi's mac-system-theme example (``examples/pi/mac_system_theme.py``): the theme follows
the system's appearance, asked of a command the test controls."""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path

import pytest

from hookline.authoring import HookHarness
from tests.examples.harness import example_path
from tests.modes.tui.helpers import app


@pytest.fixture
def appearance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file the system's answer is read from: ``true`` is dark mode."""
    answer = tmp_path / "dark-mode"
    answer.write_text("true\n")
    monkeypatch.setenv("SYSTEM_THEME_COMMAND", f"cat {shlex.quote(str(answer))}")
    monkeypatch.setenv("SYSTEM_THEME_INTERVAL", "0.05")
    return answer


async def _theme_becomes(harness: HookHarness, name: str) -> None:
    async with asyncio.timeout(10):
        while harness.ui.theme.name != name:
            await asyncio.sleep(0.01)


async def test_the_theme_follows_the_system(tmp_path: Path, appearance: Path) -> None:
    harness = HookHarness(tmp_path).load(example_path("mac_system_theme"))
    await harness.emit("session_start")
    assert harness.ui.theme.name == "dark"
    appearance.write_text("false\n")
    await _theme_becomes(harness, "light")
    appearance.write_text("true\n")
    await _theme_becomes(harness, "dark")
    await harness.emit("session_shutdown", reason="exit")


async def test_a_failing_command_is_light(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYSTEM_THEME_COMMAND", "exit 3")
    harness = HookHarness(tmp_path).load(example_path("mac_system_theme"))
    await harness.emit("session_start")
    assert harness.ui.theme.name == "light"
    await harness.emit("session_shutdown", reason="exit")


def test_in_the_terminal_app_the_colours_switch(tmp_path: Path, appearance: Path) -> None:
    """The footer is drawn in the theme's colours: they change when the system's do."""
    hook = str(example_path("mac_system_theme"))
    with app(tmp_path, [], None, "--hook", hook) as pane:

        def footer(screen: str) -> str:
            return next(line for line in screen.splitlines() if "msgs · ctx" in line)

        dark = footer(pane.wait_for("msgs · ctx", styled=True))
        appearance.write_text("false\n")
        pane.wait_for(lambda s: "msgs · ctx" in s and footer(s) != dark, styled=True)
