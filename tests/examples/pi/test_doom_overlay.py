"""pi's doom-overlay (examples/pi/doom_overlay.py):
A first-person maze at 35 fps in a centred overlay.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookline.authoring import HookHarness
from hookline.components import visible_width
from tests.modes.tui.pane import needs_tmux

from .port_runs import print_mode, tui


async def _open(harness: HookHarness) -> tuple[asyncio.Future[Any], Any]:
    task = asyncio.ensure_future(harness.command("doom-overlay"))
    shown = await harness.ui.next_component()
    shown.component.dispose()  # the test moves it, not the timer
    return task, shown


async def test_it_opens_as_pis_overlay_and_draws_half_blocks(
    example: Callable[..., HookHarness],
) -> None:
    harness = example("doom_overlay", answers={})
    task, shown = await _open(harness)
    assert shown.overlay and shown.placement == {
        "width": "75%",
        "max_height": "95%",
        "anchor": "center",
        "margin": {"top": 1},
    }
    lines = shown.render(64)
    assert len(lines) == 20 + 1  # 64 / 3.2 rows of pixels, then the controls
    assert all(visible_width(line) == 64 for line in lines[:-1])
    assert "▀" in lines[0] and "\x1b[38;2;" in lines[0] and "\x1b[48;2;" in lines[0]
    assert shown.text(64).splitlines()[-1].startswith(" DOOM | Q=Pause | WASD=Move")
    assert "PISTOL │ SHOTS 0" in shown.text(64)
    shown.type("q")
    await task
    assert [n for _, n in harness.ui.notifications] == ["Loading DOOM..."]


async def test_keys_move_turn_fire_open_doors_and_the_world_lives_on(
    example: Callable[..., HookHarness],
) -> None:
    harness = example("doom_overlay", answers={})
    task, shown = await _open(harness)
    game = shown.component
    world = game.world
    start = (world.x, world.y)
    shown.type("w")
    for _ in range(10):
        game.tick()
    assert world.x > start[0] + 0.3 and world.y == start[1]  # forward: east
    before = shown.render(64)
    shown.press("right")
    for _ in range(10):
        game.tick()
    assert world.angle > 0.4 and shown.render(64) != before  # held 6 frames: turned
    shown.type("f")
    assert world.shots == 1 and world.flash
    shown.type("3")
    assert "SHOTGUN │ SHOTS 1" in shown.text(64)
    world.x, world.y, world.angle = 3.5, 5.5, math.pi / 2  # facing the door below
    assert world.cells[6][3] == "D"
    shown.type(" ")
    assert world.cells[6][3] == "."
    shown.press("tab")
    assert shown.render(64) != before
    shown.press("escape")
    assert "MENU: Esc to resume, Q to quit" in shown.text(64)
    shown.type("w")
    game.tick()
    assert (world.x, world.y) == (3.5, 5.5)  # the menu holds the game
    shown.press("escape")
    shown.type("q")
    await task

    task, again = await _open(harness)  # resumes where Q left it
    assert again.component.world is world
    assert harness.ui.notifications[-1] == ("info", "Resuming DOOM...")
    again.type("q")
    await task


async def test_walls_stop_the_player_and_the_exit_switch_ends_the_level(
    example: Callable[..., HookHarness],
) -> None:
    harness = example("doom_overlay", answers={})
    task, shown = await _open(harness)
    game = shown.component
    world = game.world
    world.angle = math.pi  # west, into the outer wall
    shown.type("W")  # running
    for _ in range(30):
        game.tick()
    assert 1.0 < world.x < 1.5
    world.x, world.y, world.angle = 13.5, 10.5, 0.0  # beside the exit switch
    shown.type(" ")
    assert world.escaped and "EXIT: you found the way out" in shown.text(64)
    shown.type("q")
    await task


async def test_the_loop_runs_at_a_fixed_frame_rate(example: Callable[..., HookHarness]) -> None:
    harness = example("doom_overlay", answers={})
    task = asyncio.ensure_future(harness.command("doom-overlay"))
    shown = await harness.ui.next_component()
    while shown.render_requests < 5:
        await asyncio.sleep(1 / 35)
    shown.type("q")
    await task
    requests = shown.render_requests
    await asyncio.sleep(0.1)
    assert shown.render_requests == requests  # closed: the loop stopped


@needs_tmux
def test_doom_floats_over_the_terminal_app_and_takes_the_keys(tmp_path: Path) -> None:
    with tui(tmp_path, "doom_overlay", "--no-session") as pane:
        pane.ready()
        pane.type("/doom-overlay")
        pane.keys("Enter")
        screen = pane.wait_for(" DOOM | Q=Pause")
        lines = screen.splitlines()
        footer = next(line for line in lines if " DOOM | Q=Pause" in line)
        assert footer.index(" DOOM") in (12, 13)  # 75 of 100 columns, centred
        top = next(row for row, line in enumerate(lines) if "▀" in line)
        assert lines[top].index("▀") == footer.index(" DOOM")
        assert top >= 1 and lines[0].strip() and "▀" not in lines[0]  # the app above it
        assert lines.index(footer) - top == 75 // 3.2  # the height follows the width
        first = pane.styled_screen()
        pane.type("wwww")
        pane.wait_for(lambda s: s != first, styled=True)  # moved: another frame
        pane.keys("Escape")
        pane.wait_for("MENU: Esc to resume, Q to quit")
        pane.keys("Escape")
        pane.wait_for(lambda s: "MENU" not in s)
        pane.type("q")
        pane.wait_for(lambda s: "Q=Pause" not in s and "›" in s)


def test_print_mode_has_no_doom(tmp_path: Path) -> None:
    done = print_mode(tmp_path, "doom_overlay", "/doom-overlay")
    assert done.returncode == 0, done.stderr
    assert "[error] DOOM requires interactive mode" in done.stderr
