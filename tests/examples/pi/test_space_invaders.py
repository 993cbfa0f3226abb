"""pi's space invaders (examples/pi/space_invaders.py):
A component with a 50 ms game loop, saved in the session.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookline.authoring import HookHarness
from tests.modes.tui.pane import needs_tmux

from .port_runs import print_mode, tui


async def _open(harness: HookHarness) -> tuple[asyncio.Future[Any], Any]:
    task = asyncio.ensure_future(harness.command("invaders"))
    shown = await harness.ui.next_component()
    game = shown.component
    game.dispose()  # the test moves it, not the timer
    return task, shown


async def test_the_player_moves_fires_and_scores(example: Callable[..., HookHarness]) -> None:
    harness = example("space_invaders", answers={})
    task, shown = await _open(harness)
    game = shown.component
    state = game.state
    assert "SPACE INVADERS │ Score: 0 │ Hi: 0 │ Lv: 1 │ ♥♥♥" in shown.text(70)
    assert sum(a.alive for a in state.aliens) == 55
    shown.press("right")
    for _ in range(6):
        game.tick()
    assert state.player_x == 32  # held 4 ticks (no releases), moved every other tick
    shown.type("f")
    game.tick()
    bullet = state.bullets[-1]
    assert (bullet.x, bullet.direction) == (32, -1)
    target = next(a for a in state.aliens if a.kind == 0)
    target.x, target.y = bullet.x, bullet.y - 1
    game.tick()
    assert not target.alive and state.score == 10 and state.high_score == 10
    assert "Score: 10 │ Hi: 10" in shown.text(70)
    shown.press("escape")  # pause: the game is saved, the component closes
    await task
    kind, saved = harness.host.entries[-1]
    assert kind == "space-invaders-save" and saved["score"] == 10 and saved["player_x"] == 32


async def test_a_key_release_ends_the_hold(example: Callable[..., HookHarness]) -> None:
    harness = example("space_invaders", answers={})
    task, shown = await _open(harness)
    game = shown.component
    game.handle_input("\x1b[97;1:3u")  # the terminal reports releases: hold until one
    shown.type("a")
    for _ in range(20):
        game.tick()
    assert game.state.player_x == 20
    game.handle_input("\x1b[97;1:3u")
    for _ in range(4):
        game.tick()
    assert game.state.player_x == 20
    shown.type("q")
    await task
    assert harness.host.entries == [("space-invaders-save", None)]


async def test_aliens_reaching_the_player_end_the_game(example: Callable[..., HookHarness]) -> None:
    harness = example("space_invaders", answers={})
    task, shown = await _open(harness)
    game = shown.component
    game.state.alien_dropping = True
    game.state.alien_move_delay = 1
    for alien in game.state.aliens:
        alien.y += 17
    game.tick()
    assert game.state.game_over and "GAME OVER!" in shown.text(70)
    shown.type("r")
    assert not game.state.game_over and game.state.high_score == 0
    shown.type("q")
    await task


@needs_tmux
def test_invaders_play_in_the_terminal_app_and_resume_paused(tmp_path: Path) -> None:
    def player(screen: str) -> int:
        found = re.search(r"═▲═", screen)
        return found.start() if found else -1

    with tui(tmp_path, "space_invaders", "--no-session") as pane:
        pane.tmux("resize-window", "-t", pane.target, "-y", "40")  # the game is 30 rows
        pane.ready()
        pane.type("/invaders")
        pane.keys("Enter")
        screen = pane.wait_for("SPACE INVADERS │ Score: 0")
        start = player(screen)
        assert start > 0 and "▼" in screen and "› " not in screen
        pane.type("ddd")
        moved = player(pane.wait_for(lambda s: player(s) > start))
        pane.keys("Escape")  # pause: saved in the session
        pane.wait_for(lambda s: "SPACE INVADERS" not in s)
        pane.type("/invaders")
        pane.keys("Enter")
        screen = pane.wait_for("PAUSED Press any key to continue")
        assert player(screen) >= moved  # where it was left
        pane.type("q")
        pane.wait_for(lambda s: "SPACE INVADERS" not in s and "›" in s)


def test_print_mode_has_no_invaders(tmp_path: Path) -> None:
    done = print_mode(tmp_path, "space_invaders", "/invaders")
    assert done.returncode == 0, done.stderr
    assert "[error] Space Invaders requires interactive mode" in done.stderr
