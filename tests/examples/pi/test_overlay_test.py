"""pi's overlay-test: a hand-drawn overlay with inline inputs, centred over the app."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from hookline.authoring import HookHarness
from tests.modes.tui.pane import HEIGHT, WIDTH, needs_tmux

from .port_runs import OVERLAY_TOP, print_mode, tui

PANEL = 70


async def test_typing_into_a_field_answers_its_action_and_query(
    example: Callable[..., HookHarness],
) -> None:
    harness = example("overlay_test", answers={})
    task = asyncio.ensure_future(harness.command("overlay-test"))
    shown = await harness.ui.next_component()
    assert shown.overlay
    lines = shown.text(100).splitlines()
    assert len(lines[0]) == PANEL and "🧪 Overlay Test" in lines[1]
    assert any(" ▶ Search: " in line for line in lines)
    shown.press("down").type("abc").press("left", "backspace").type("X")
    assert any(" ▶ Run: aXc" in line for line in shown.text().splitlines())
    shown.press("enter")
    await task
    assert shown.value == {"action": "Run", "query": "aXc"}
    assert harness.ui.notifications[-1] == ("info", 'Run: "aXc"')


async def test_escape_cancels_without_a_notification(example: Callable[..., HookHarness]) -> None:
    harness = example("overlay_test", answers={})
    task = asyncio.ensure_future(harness.command("overlay-test"))
    (await harness.ui.next_component()).press("escape")
    await task
    assert harness.ui.notifications == []


@needs_tmux
def test_the_overlay_is_centred_over_the_app_and_takes_the_keys(tmp_path: Path) -> None:
    with tui(tmp_path, "overlay_test", "--no-session") as pane:
        pane.ready()
        pane.type("/overlay-test")
        pane.keys("Enter")
        screen = pane.wait_for("Overlay Test")
        lines = screen.splitlines()
        top = next(i for i, line in enumerate(lines) if "╭" in line)
        left = (WIDTH - 80) // 2  # centred as 80 columns wide (pi's default), drawn 70
        assert lines[top][left : left + PANEL] == "╭" + "─" * (PANEL - 2) + "╮", screen
        # 16 rows, centred on the screen (the terminal less one row)
        assert top == OVERLAY_TOP + (HEIGHT - 1 - 16) // 2, screen
        assert lines[top + 15][left] == "╰"
        pane.type("hello")
        pane.wait_for(" ▶ Search: hello")
        pane.keys("Enter")
        pane.wait_for('Search: "hello"', whole=True)
        pane.wait_for(lambda s: "Overlay Test" not in s)


def test_print_mode_shows_the_panel_once_as_text(tmp_path: Path) -> None:
    done = print_mode(tmp_path, "overlay_test", "/overlay-test")
    assert done.returncode == 0, done.stderr
    assert "[info] ╭" + "─" * (PANEL - 2) + "╮" in done.stderr
    assert "│ 🧪 Overlay Test" in done.stderr and "\x1b[" not in done.stderr
