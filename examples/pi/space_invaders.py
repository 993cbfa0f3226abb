"""pi's space-invaders example: ``/invaders`` plays Space Invaders in the terminal app.

A component on a 50 ms game loop (``tui.request_render()`` after each tick):
five rows of eleven aliens march and drop, shoot back from their lowest rank,
and speed up as they thin out; four shields crumble where bullets hit; three
lives. Left/Right or A/D move, Space or F fires (two shots in the air at most),
Esc pauses and saves the game in the session (an ``append_entry``), Q quits and
forgets it, R restarts after a game over or goes to the next level after a
victory. ``/invaders`` again resumes a saved game, paused until a key.

pi reads key releases (the kitty keyboard protocol) to know how long a key is
held; a terminal that reports none (most, and the terminal app does not ask for
them) gets a held key from its auto-repeat instead: each press holds the key
for a few ticks. Needs a UI.

    hookline --hook examples/pi/space_invaders.py      then  /invaders
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from hookline import CommandContext, HookAPI, Theme
from hookline.components import (
    TUI,
    Keybindings,
    matches_key,
    parse_key,
    released_key,
    truncate_to_width,
    visible_width,
)

GAME_WIDTH = 60
GAME_HEIGHT = 24
TICK_SECONDS = 0.05
PLAYER_Y = GAME_HEIGHT - 2
SHIELD_Y = PLAYER_Y - 5
ALIEN_ROWS = 5
ALIEN_COLS = 11
ALIEN_START_Y = 2
#: Ticks a press holds its key where the terminal reports no release.
HOLD_TICKS = 4
INVADERS_SAVE_TYPE = "space-invaders-save"


@dataclass
class Alien:
    x: int
    y: int
    kind: int  # 0, 1, 2: worth 10, 20, 30
    alive: bool = True


@dataclass
class Bullet:
    x: int
    y: int
    direction: int  # -1 up (the player's), 1 down (an alien's)


def _shield() -> list[list[bool]]:
    return [[True] * 4, [True] * 4, [True, False, False, True]]


@dataclass
class GameState:
    player_x: int = GAME_WIDTH // 2
    lives: int = 3
    aliens: list[Alien] = field(default_factory=list)
    alien_direction: int = 1
    alien_move_counter: int = 0
    alien_move_delay: int = 18
    alien_dropping: bool = False
    bullets: list[Bullet] = field(default_factory=list)
    shields: dict[int, list[list[bool]]] = field(default_factory=dict)
    score: int = 0
    high_score: int = 0
    level: int = 1
    game_over: bool = False
    victory: bool = False
    alien_shoot_counter: int = 0

    @classmethod
    def new(cls, high_score: int = 0, level: int = 1) -> GameState:
        aliens = [
            Alien(4 + col * 5, ALIEN_START_Y + row * 2, 2 if row == 0 else 1 if row < 3 else 0)
            for row in range(ALIEN_ROWS)
            for col in range(ALIEN_COLS)
        ]
        return cls(
            aliens=aliens,
            alien_move_delay=max(5, 20 - level * 2),
            shields={x: _shield() for x in (8, 22, 36, 50)},
            high_score=high_score,
            level=level,
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["shields"] = {str(x): rows for x, rows in self.shields.items()}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(
            **{
                **data,
                "aliens": [Alien(**a) for a in data["aliens"]],
                "bullets": [Bullet(**b) for b in data["bullets"]],
                "shields": {int(x): rows for x, rows in data["shields"].items()},
            }
        )


def _dim(s: str) -> str:
    return f"\x1b[2m{s}\x1b[22m"


def _color(code: int) -> Callable[[str], str]:
    return lambda s: f"\x1b[{code}m{s}\x1b[0m"


_green, _red, _yellow, _cyan, _magenta, _white = map(_color, (32, 31, 33, 36, 35, 97))


def _bold(s: str) -> str:
    return f"\x1b[1m{s}\x1b[22m"


#: Each alien kind: its middle character, the pair either side, its colour.
_SPRITES = (("▼", "╲╱", _green), ("◆", "╱╲", _cyan), ("☆", "◄►", _magenta))
_ACTIONS = {"left": "left", "a": "left", "right": "right", "d": "right", "space": "fire"}
_ACTIONS["f"] = "fire"


class SpaceInvaders:
    """The game: its state, the keys held, the loop that moves it, how it draws."""

    def __init__(
        self,
        tui: TUI,
        on_close: Callable[[], None],
        on_save: Callable[[GameState | None], None],
        saved: GameState | None = None,
    ) -> None:
        self.tui = tui
        self.on_close = on_close
        self.on_save = on_save
        #: Ticks each action is still held for (``None``: until its release).
        self.held: dict[str, int | None] = {}
        self._releases = False  # the terminal reports releases: hold until one comes
        self._timer: asyncio.TimerHandle | None = None
        self.fire_cooldown = 0
        self.player_move_counter = 0
        if saved is not None and not saved.game_over and not saved.victory:
            self.state, self.paused = saved, True
        else:
            self.state, self.paused = GameState.new(saved.high_score if saved else 0), False
            self.start()

    # -- the loop ----------------------------------------------------------------

    def start(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(TICK_SECONDS, self._loop)

    def _loop(self) -> None:
        if not self.state.game_over and not self.state.victory:
            self.tick()
            self.tui.request_render()
        self.start()

    def _holding(self, action: str) -> bool:
        return action in self.held

    def tick(self) -> None:
        """One step: the player moves and fires, bullets and aliens move, hits count."""
        s = self.state
        self.player_move_counter += 1
        if self.player_move_counter >= 2:
            self.player_move_counter = 0
            if self._holding("left") and s.player_x > 2:
                s.player_x -= 1
            if self._holding("right") and s.player_x < GAME_WIDTH - 3:
                s.player_x += 1
        if self.fire_cooldown > 0:
            self.fire_cooldown -= 1
        in_air = sum(b.direction == -1 for b in s.bullets)
        if self._holding("fire") and self.fire_cooldown == 0 and in_air < 2:
            s.bullets.append(Bullet(s.player_x, PLAYER_Y - 1, -1))
            self.fire_cooldown = 8
        for bullet in s.bullets:
            bullet.y += bullet.direction
        s.bullets = [b for b in s.bullets if 0 <= b.y < GAME_HEIGHT]
        s.alien_move_counter += 1
        if s.alien_move_counter >= s.alien_move_delay:
            s.alien_move_counter = 0
            self._move_aliens()
        s.alien_shoot_counter += 1
        if s.alien_shoot_counter >= 30:
            s.alien_shoot_counter = 0
            self._alien_shoot()
        self._collide()
        if not any(a.alive for a in s.aliens):
            s.victory = True
        self._release_held()

    def _release_held(self) -> None:
        """Without releases from the terminal, a press holds its key a few ticks."""
        for action, left in list(self.held.items()):
            if left is None:
                continue
            if left <= 1:
                del self.held[action]
            else:
                self.held[action] = left - 1

    def _move_aliens(self) -> None:
        s = self.state
        alive = [a for a in s.aliens if a.alive]
        if not alive:
            return
        if s.alien_dropping:
            for alien in alive:
                alien.y += 1
                if alien.y >= PLAYER_Y - 1:
                    s.game_over = True
                    return
            s.alien_dropping = False
        elif (s.alien_direction == 1 and max(a.x for a in alive) >= GAME_WIDTH - 3) or (
            s.alien_direction == -1 and min(a.x for a in alive) <= 2
        ):
            s.alien_direction *= -1
            s.alien_dropping = True
        else:
            for alien in alive:
                alien.x += s.alien_direction
        count = len(alive)  # fewer aliens march faster
        if count <= 5:
            s.alien_move_delay = 1
        elif count <= 10:
            s.alien_move_delay = 2
        elif count <= 20:
            s.alien_move_delay = 3

    def _alien_shoot(self) -> None:
        s = self.state
        lowest: dict[int, Alien] = {}
        for alien in (a for a in s.aliens if a.alive):
            if alien.x not in lowest or alien.y > lowest[alien.x].y:
                lowest[alien.x] = alien
        if lowest and sum(b.direction == 1 for b in s.bullets) < 3:
            shooter = random.choice(list(lowest.values()))
            s.bullets.append(Bullet(shooter.x, shooter.y + 1, 1))

    def _collide(self) -> None:
        s = self.state
        spent: list[Bullet] = []
        for bullet in s.bullets:
            if bullet.direction == -1:
                for alien in s.aliens:
                    if alien.alive and abs(bullet.x - alien.x) <= 1 and bullet.y == alien.y:
                        alien.alive = False
                        spent.append(bullet)
                        s.score += (10, 20, 30)[alien.kind]
                        s.high_score = max(s.high_score, s.score)
                        break
            elif abs(bullet.x - s.player_x) <= 1 and bullet.y == PLAYER_Y:
                spent.append(bullet)
                s.lives -= 1
                s.game_over = s.lives <= 0
            for x, rows in s.shields.items():
                dx, dy = bullet.x - x, bullet.y - SHIELD_Y
                if 0 <= dx < 4 and 0 <= dy < 3 and rows[dy][dx]:
                    rows[dy][dx] = False
                    spent.append(bullet)
        s.bullets = [b for b in s.bullets if all(b is not x for x in spent)]

    # -- keys --------------------------------------------------------------------

    def handle_input(self, data: str) -> None:
        released = released_key(data)
        if released is not None:
            self._releases = True
            action = _ACTIONS.get(released.lower())
            if action is not None:
                self.held.pop(action, None)
            return
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
        key = parse_key(data)
        action = _ACTIONS.get(key.lower()) if key is not None else None
        if action is not None:
            self.held[action] = None if self._releases else HOLD_TICKS
        if (self.state.game_over or self.state.victory) and data in ("r", "R", " "):
            level = self.state.level + 1 if self.state.victory else 1
            self.state = GameState.new(self.state.high_score, level)
            self.held.clear()
            self.on_save(None)
            self.tui.request_render()

    # -- drawing -----------------------------------------------------------------

    def invalidate(self) -> None:
        return None

    def _cell(self, x: int, y: int) -> str:
        s = self.state
        for alien in s.aliens:
            if alien.alive and alien.y == y and abs(alien.x - x) <= 1:
                middle, sides, color = _SPRITES[alien.kind]
                return color(middle if x == alien.x else sides[0 if x < alien.x else 1])
        for sx, rows in s.shields.items():
            dx, dy = x - sx, y - SHIELD_Y
            if 0 <= dx < 4 and 0 <= dy < 3:
                if rows[dy][dx]:
                    return _dim("█")
                break
        if y == PLAYER_Y and abs(x - s.player_x) <= 1:
            return _white("▲" if x == s.player_x else "═")
        for bullet in s.bullets:
            if (bullet.x, bullet.y) == (x, y):
                return (_yellow if bullet.direction == -1 else _red)("│")
        return " "

    def render(self, width: int) -> list[str]:
        s = self.state

        def pad(line: str) -> str:
            return line + " " * max(0, width - visible_width(line))

        def boxed(content: str) -> str:
            room = GAME_WIDTH - visible_width(content)
            return pad(_dim(" │") + content + " " * max(0, room) + _dim("│"))

        header = " │ ".join(
            [
                _bold(_green("SPACE INVADERS")),
                f"Score: {_bold(_yellow(str(s.score)))}",
                f"Hi: {_bold(_yellow(str(s.high_score)))}",
                f"Lv: {_bold(_cyan(str(s.level)))}",
                _red("♥" * s.lives),
            ]
        )
        rule = "─" * GAME_WIDTH
        lines = [pad(_dim(f" ╭{rule}╮")), boxed(header), pad(_dim(f" ├{rule}┤"))]
        for y in range(GAME_HEIGHT):
            row = "".join(self._cell(x, y) for x in range(GAME_WIDTH))
            lines.append(pad(_dim(" │") + row + _dim("│")))
        if self.paused:
            footer = f"{_yellow(_bold('PAUSED'))} Press any key to continue, {_bold('Q')} to quit"
        elif s.game_over:
            footer = (
                f"{_red(_bold('GAME OVER!'))} Press {_bold('R')} to restart, {_bold('Q')} to quit"
            )
        elif s.victory:
            footer = (
                f"{_green(_bold('VICTORY!'))} Press {_bold('R')} for level {s.level + 1}, "
                f"{_bold('Q')} to quit"
            )
        else:
            footer = (
                f"←→ or AD to move, {_bold('SPACE')}/F to fire, {_bold('ESC')} pause, "
                f"{_bold('Q')} quit"
            )
        lines += [pad(_dim(f" ├{rule}┤")), boxed(footer), pad(_dim(f" ╰{rule}╯"))]
        return [truncate_to_width(line, width, "") for line in lines]

    def dispose(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def register(pi: HookAPI) -> None:
    @pi.register_command("invaders", description="Play Space Invaders!")
    async def invaders(args: str, ctx: CommandContext) -> None:
        if not ctx.has_ui:
            ctx.ui.notify("Space Invaders requires interactive mode", "error")
            return
        saved = None
        for entry in reversed(ctx.session_manager.get_entries()):
            if entry.get("type") == "custom" and entry.get("custom_type") == INVADERS_SAVE_TYPE:
                saved = GameState.from_json(entry["data"]) if entry.get("data") else None
                break

        def save(state: GameState | None) -> None:
            pi.append_entry(INVADERS_SAVE_TYPE, state.to_json() if state else None)

        def factory(
            tui: TUI, theme: Theme, keybindings: Keybindings, done: Callable[[Any], None]
        ) -> SpaceInvaders:
            return SpaceInvaders(tui, lambda: done(None), save, saved)

        await ctx.ui.custom(factory)
