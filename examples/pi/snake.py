"""pi's snake example: ``/snake`` plays Snake in the terminal app.

A component with a game loop: a timer moves the snake every 100 ms and asks for
a redraw (``tui.request_render()``); arrows or WASD steer, Esc pauses and saves
the game in the session (an ``append_entry``), Q quits and forgets it, R or
Space restarts after a crash. ``/snake`` again resumes a saved game, paused
until a key; the high score lives on in the saved state. Needs a UI.

    hookline --hook examples/pi/snake.py      then  /snake
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from hookline import CommandContext, HookAPI, Theme
from hookline.components import TUI, Keybindings, matches_key, visible_width

GAME_WIDTH = 40
GAME_HEIGHT = 15
TICK_SECONDS = 0.1
SNAKE_SAVE_TYPE = "snake-save"

Direction = Literal["up", "down", "left", "right"]
Point = tuple[int, int]
_STEP: dict[str, Point] = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
_KEYS: dict[str, Direction] = {"w": "up", "s": "down", "a": "left", "d": "right"}


def spawn_food(snake: list[Point]) -> Point:
    while True:
        food = (random.randrange(GAME_WIDTH), random.randrange(GAME_HEIGHT))
        if food not in snake:
            return food


@dataclass
class GameState:
    snake: list[Point]
    food: Point
    direction: Direction = "right"
    next_direction: Direction = "right"
    score: int = 0
    game_over: bool = False
    high_score: int = 0

    @classmethod
    def new(cls, high_score: int = 0) -> GameState:
        x, y = GAME_WIDTH // 2, GAME_HEIGHT // 2
        snake = [(x, y), (x - 1, y), (x - 2, y)]
        return cls(snake, spawn_food(snake[:1]), high_score=high_score)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        fields = {**data, "snake": [tuple(p) for p in data["snake"]], "food": tuple(data["food"])}
        return cls(**fields)


def _dim(s: str) -> str:
    return f"\x1b[2m{s}\x1b[22m"


def _green(s: str) -> str:
    return f"\x1b[32m{s}\x1b[0m"


def _red(s: str) -> str:
    return f"\x1b[31m{s}\x1b[0m"


def _yellow(s: str) -> str:
    return f"\x1b[33m{s}\x1b[0m"


def _bold(s: str) -> str:
    return f"\x1b[1m{s}\x1b[22m"


@dataclass
class SnakeComponent:
    """The game: its state, the timer that moves it, and how it draws."""

    tui: TUI
    on_close: Callable[[], None]
    on_save: Callable[[GameState | None], None]
    state: GameState = field(default_factory=GameState.new)
    paused: bool = False
    _timer: asyncio.TimerHandle | None = None

    @classmethod
    def resume(
        cls,
        tui: TUI,
        on_close: Callable[[], None],
        on_save: Callable[[GameState | None], None],
        saved: GameState | None,
    ) -> SnakeComponent:
        """A saved game that was not over resumes paused; else a new one starts."""
        if saved is not None and not saved.game_over:
            return cls(tui, on_close, on_save, saved, paused=True)
        game = cls(tui, on_close, on_save, GameState.new(saved.high_score if saved else 0))
        game.start()
        return game

    def start(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(TICK_SECONDS, self._loop)

    def _loop(self) -> None:
        if not self.state.game_over:
            self.tick()
            self.tui.request_render()
        self.start()

    def tick(self) -> None:
        """One step: turn, move, eat or crash."""
        s = self.state
        s.direction = s.next_direction
        dx, dy = _STEP[s.direction]
        head = (s.snake[0][0] + dx, s.snake[0][1] + dy)
        if not (0 <= head[0] < GAME_WIDTH and 0 <= head[1] < GAME_HEIGHT) or head in s.snake:
            s.game_over = True
            return
        s.snake.insert(0, head)
        if head == s.food:
            s.score += 10
            s.high_score = max(s.high_score, s.score)
            s.food = spawn_food(s.snake)
        else:
            s.snake.pop()

    def handle_input(self, data: str) -> None:
        if self.paused:
            if matches_key(data, "escape") or data in ("q", "Q"):
                self.dispose()  # quit, keeping the save
                self.on_close()
                return
            self.paused = False  # any other key resumes
            self.start()
            return
        if matches_key(data, "escape"):
            self.dispose()
            self.on_save(self.state)
            self.on_close()
            return
        if data in ("q", "Q"):
            self.dispose()
            self.on_save(None)
            self.on_close()
            return
        turn = _KEYS.get(data.lower()) if len(data) == 1 else None
        for key in ("up", "down", "left", "right"):
            if matches_key(data, key):
                turn = key
        if turn is not None and _OPPOSITE[turn] != self.state.direction:
            self.state.next_direction = turn
        if self.state.game_over and data in ("r", "R", " "):
            self.state = GameState.new(self.state.high_score)
            self.on_save(None)
            self.tui.request_render()

    def invalidate(self) -> None:
        return None

    def render(self, width: int) -> list[str]:
        s = self.state
        columns = min(GAME_WIDTH, (width - 4) // 2)  # each cell two characters: square
        box = columns * 2

        def pad(line: str) -> str:
            return line + " " * max(0, width - visible_width(line))

        def boxed(content: str) -> str:
            return pad(
                _dim(" │") + content + " " * max(0, box - visible_width(content)) + _dim("│")
            )

        score = f"Score: {_bold(_yellow(str(s.score)))}"
        high = f"High: {_bold(_yellow(str(s.high_score)))}"
        lines = [
            pad(_dim(f" ╭{'─' * box}╮")),
            boxed(f"{_bold(_green('SNAKE'))} │ {score} │ {high}"),
            pad(_dim(f" ├{'─' * box}┤")),
        ]
        body = set(s.snake[1:])
        for y in range(GAME_HEIGHT):
            row = ""
            for x in range(columns):
                if (x, y) == s.snake[0]:
                    row += _green("██")
                elif (x, y) in body:
                    row += _green("▓▓")
                elif (x, y) == s.food:
                    row += _red("◆ ")
                else:
                    row += "  "
            lines.append(pad(_dim(" │") + row + _dim("│")))
        if self.paused:
            footer = f"{_yellow(_bold('PAUSED'))} Press any key to continue, {_bold('Q')} to quit"
        elif s.game_over:
            footer = (
                f"{_red(_bold('GAME OVER!'))} Press {_bold('R')} to restart, {_bold('Q')} to quit"
            )
        else:
            footer = f"↑↓←→ or WASD to move, {_bold('ESC')} pause, {_bold('Q')} quit"
        lines += [
            pad(_dim(f" ├{'─' * box}┤")),
            boxed(footer),
            pad(_dim(f" ╰{'─' * box}╯")),
        ]
        return lines

    def dispose(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def register(pi: HookAPI) -> None:
    @pi.register_command("snake", description="Play Snake!")
    async def snake(args: str, ctx: CommandContext) -> None:
        if not ctx.has_ui:
            ctx.ui.notify("Snake requires interactive mode", "error")
            return
        saved = None
        for entry in reversed(ctx.session_manager.get_entries()):
            if entry.get("type") == "custom" and entry.get("custom_type") == SNAKE_SAVE_TYPE:
                saved = GameState.from_json(entry["data"]) if entry.get("data") else None
                break

        def save(state: GameState | None) -> None:
            pi.append_entry(SNAKE_SAVE_TYPE, state.to_json() if state else None)

        def factory(
            tui: TUI, theme: Theme, keybindings: Keybindings, done: Callable[[Any], None]
        ) -> SnakeComponent:
            return SnakeComponent.resume(tui, lambda: done(None), save, saved)

        await ctx.ui.custom(factory)
