"""pi's snake: a component with a game loop on a timer, saved in the session."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookline.authoring import HookHarness
from tests.modes.tui.pane import needs_tmux

from .port_runs import print_mode, tui


async def _open(harness: HookHarness) -> tuple[asyncio.Future[Any], Any]:
    task = asyncio.ensure_future(harness.command("snake"))
    shown = await harness.ui.next_component()
    return task, shown


async def test_the_snake_moves_turns_eats_and_crashes(example: Callable[..., HookHarness]) -> None:
    harness = example("snake", answers={})
    task, shown = await _open(harness)
    game = shown.component
    game.dispose()  # the test moves it, not the timer
    state = game.state
    assert state.snake[0] == (20, 7) and "SNAKE │ Score: 0 │ High: 0" in shown.text(90)
    state.food = (20, 8)
    shown.press("down")
    shown.press("left")  # the opposite of the direction taken: ignored... until it turns
    game.tick()
    assert state.snake[0] == (20, 8) and state.score == 10 and len(state.snake) == 4
    assert "Score: 10 │ High: 10" in shown.text(90)
    for _ in range(10):
        game.tick()
    assert state.game_over and "GAME OVER!" in shown.text(90)
    shown.type("r")
    assert not game.state.game_over and game.state.high_score == 10
    shown.press("escape")  # pause: the game is saved, the component closes
    await task
    kind, saved = harness.host.entries[-1]
    assert kind == "snake-save" and saved["high_score"] == 10 and saved["game_over"] is False


async def test_q_quits_and_forgets_the_game(example: Callable[..., HookHarness]) -> None:
    harness = example("snake", answers={})
    task, shown = await _open(harness)
    shown.type("q")
    await task
    assert shown.done and harness.host.entries == [("snake-save", None)]
    assert shown.component._timer is None  # the loop stopped


async def test_the_timer_drives_the_game_and_asks_for_redraws(
    example: Callable[..., HookHarness],
) -> None:
    harness = example("snake", answers={})
    task, shown = await _open(harness)
    start = shown.component.state.snake[0]
    while shown.render_requests < 3:
        await asyncio.sleep(0.05)
    assert shown.component.state.snake[0][0] >= start[0] + 3
    shown.type("q")
    await task


@needs_tmux
def test_snake_plays_in_the_terminal_app_and_resumes_paused(tmp_path: Path) -> None:
    with tui(tmp_path, "snake", "--no-session") as pane:
        pane.ready()
        pane.type("/snake")
        pane.keys("Enter")
        screen = pane.wait_for("SNAKE │ Score: 0")
        assert "▓▓▓▓██" in screen and "› " not in screen  # body and head, no editor
        pane.wait_for("GAME OVER!")  # straight into the right wall
        pane.type("r")
        pane.wait_for(lambda s: "GAME OVER!" not in s and "WASD to move" in s)
        pane.keys("Escape")  # pause: saved in the session
        pane.wait_for(lambda s: "SNAKE" not in s)
        pane.type("/snake")
        pane.keys("Enter")
        pane.wait_for("PAUSED Press any key to continue")
        pane.type("q")
        pane.wait_for(lambda s: "SNAKE" not in s and "›" in s)


def test_print_mode_has_no_snake(tmp_path: Path) -> None:
    done = print_mode(tmp_path, "snake", "/snake")
    assert done.returncode == 0, done.stderr
    assert "[error] Snake requires interactive mode" in done.stderr
