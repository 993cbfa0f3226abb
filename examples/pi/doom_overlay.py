"""pi's doom-overlay example: ``/doom-overlay`` plays a first-person maze in an overlay.

An overlay component redrawn 35 times a second (``tui.request_render()`` from a
timer), drawn with half blocks: each cell is two pixels, the upper one the
foreground colour of ``▀``, the lower one its background, in 24-bit colour. Its
height follows its width (3.2 cells wide per row, as DOOM's 640x400 on half
blocks) with a line of controls under it; the overlay is centred, 75% of the
terminal wide, at most 95% high, one row free at the top: pi's placement.

The controls are pi's: W/S or Up/Down move, A/D strafe, Left/Right turn, Shift
(W A S D in capitals) runs, F or a Ctrl key fires, Space opens the door in front
(or throws the exit switch), 1-7 pick a weapon, Tab shows the map, Esc opens the
menu (Esc again resumes), Q pauses and closes. The world lives on: ``/doom-overlay``
again resumes where Q left it.

What differs from pi: pi runs the real DOOM engine (doomgeneric compiled to
WebAssembly) on a shareware WAD it downloads on first use, or a WAD given as
the command's argument. Python has neither the engine nor, here, anything to
download at run time, so this port draws its own world: a small raycast maze
(walls in several colours, shaded by distance, doors, an exit switch) with a
weapon that flashes when it fires and no monsters. The argument is ignored. pi
tracks held keys by their releases (the kitty keyboard protocol); where the
terminal reports none, a press holds its key for a few frames, which the
terminal's auto-repeat renews while the key is down.

    hookline --hook examples/pi/doom_overlay.py      then  /doom-overlay
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hookline import CommandContext, HookAPI, Theme
from hookline.components import TUI, Keybindings, parse_key, released_key

FPS = 35
ASPECT_RATIO = 3.2
MIN_HEIGHT = 10
#: Frames a press holds its key where the terminal reports no release.
HOLD_FRAMES = 6
FOOTER = " DOOM | Q=Pause | WASD=Move | Shift+WASD=Run | Space=Use | F=Fire | 1-7=Weapons"
WEAPONS = ("FIST", "PISTOL", "SHOTGUN", "CHAINGUN", "ROCKETS", "PLASMA", "BFG")

#: The maze: ``#`` and digits are walls (their colour), ``D`` a closed door, ``E``
#: the exit switch, ``.`` floor. The player starts at the ``@``.
MAZE = (
    "################",
    "#@.............#",
    "#..##....333...#",
    "#..#......3....#",
    "#..#..22..3..4.#",
    "#.....22.......#",
    "###D#######..###",
    "#......1.......#",
    "#..55..D...44..#",
    "#..55..1.......#",
    "#......1......E#",
    "################",
)

RGB = tuple[int, int, int]
_WALLS: dict[str, RGB] = {
    "#": (140, 140, 150),
    "1": (170, 60, 50),
    "2": (60, 140, 70),
    "3": (70, 90, 170),
    "4": (180, 150, 60),
    "5": (130, 80, 150),
    "D": (120, 90, 50),
    "E": (40, 200, 90),
}
_MOVE = 0.07  # cells a frame
_TURN = 0.07  # radians a frame
_PLANE = 0.66  # the camera plane: a field of view of about 66 degrees


@dataclass
class World:
    """The maze and the player in it: what survives between two ``/doom-overlay``."""

    cells: list[list[str]] = field(default_factory=lambda: [list(row) for row in MAZE])
    x: float = 0.0
    y: float = 0.0
    angle: float = 0.0
    weapon: int = 1
    shots: int = 0
    flash: int = 0
    escaped: bool = False

    def __post_init__(self) -> None:
        for row, line in enumerate(self.cells):
            if "@" in line:
                col = line.index("@")
                self.cells[row][col] = "."
                self.x, self.y = col + 0.5, row + 0.5

    def solid(self, x: float, y: float) -> bool:
        row, col = int(y), int(x)
        if not (0 <= row < len(self.cells) and 0 <= col < len(self.cells[row])):
            return True
        return self.cells[row][col] != "."

    def walk(self, forward: float, side: float) -> None:
        """Move along the view (``forward``) and across it (``side``), sliding on walls."""
        dx = math.cos(self.angle) * forward - math.sin(self.angle) * side
        dy = math.sin(self.angle) * forward + math.cos(self.angle) * side
        if not self.solid(self.x + dx * 2, self.y):
            self.x += dx
        if not self.solid(self.x, self.y + dy * 2):
            self.y += dy

    def use(self) -> None:
        """Open the door in front, or throw the exit switch."""
        col = int(self.x + math.cos(self.angle))
        row = int(self.y + math.sin(self.angle))
        if self.cells[row][col] == "D":
            self.cells[row][col] = "."
        elif self.cells[row][col] == "E":
            self.escaped = True

    def cast(self, ray_x: float, ray_y: float) -> tuple[float, str, bool]:
        """The distance (along the view) to the wall a ray meets, its kind, and whether
        it was met on a north or south face (drawn darker)."""
        col, row = int(self.x), int(self.y)
        step_x = 1 if ray_x >= 0 else -1
        step_y = 1 if ray_y >= 0 else -1
        delta_x = abs(1 / ray_x) if ray_x else math.inf
        delta_y = abs(1 / ray_y) if ray_y else math.inf
        side_x = ((col + 1 - self.x) if ray_x >= 0 else (self.x - col)) * delta_x
        side_y = ((row + 1 - self.y) if ray_y >= 0 else (self.y - row)) * delta_y
        for _ in range(64):
            if side_x < side_y:
                side_x += delta_x
                col += step_x
                north_south = False
            else:
                side_y += delta_y
                row += step_y
                north_south = True
            if not (0 <= row < len(self.cells) and 0 <= col < len(self.cells[row])):
                break
            kind = self.cells[row][col]
            if kind != ".":
                distance = (side_y - delta_y) if north_south else (side_x - delta_x)
                return max(distance, 0.05), kind, north_south
        return 64.0, "#", False


def _shade(color: RGB, factor: float) -> RGB:
    r, g, b = color
    return (int(r * factor), int(g * factor), int(b * factor))


def view(world: World, width: int, height: int) -> list[list[RGB]]:
    """The player's view, ``width`` x ``height`` pixels: ceiling, walls, floor, weapon."""
    pixels = [
        [(30 + y, 30 + y, 38 + y) if y < height // 2 else (60 + y, 45 + y // 2, 30)] * width
        for y in range(height)
    ]
    dir_x, dir_y = math.cos(world.angle), math.sin(world.angle)
    plane_x, plane_y = -dir_y * _PLANE, dir_x * _PLANE
    for x in range(width):
        camera = 2 * x / width - 1
        distance, kind, dark = world.cast(dir_x + plane_x * camera, dir_y + plane_y * camera)
        tall = int(height / distance)
        top, bottom = max(0, (height - tall) // 2), min(height, (height + tall) // 2)
        shade = max(0.25, 1 - distance / 12) * (0.7 if dark else 1.0)
        color = _shade(_WALLS.get(kind, _WALLS["#"]), shade)
        for y in range(top, bottom):
            pixels[y][x] = color
    _weapon(world, pixels, width, height)
    return pixels


def _weapon(world: World, pixels: list[list[RGB]], width: int, height: int) -> None:
    """The weapon at the bottom centre, a muzzle flash over it after a shot."""
    size = max(2, height // 6)
    middle = width // 2
    for y in range(height - size, height):
        for x in range(middle - size // 2, middle + size // 2 + 1):
            pixels[y][x] = (90, 90, 100) if world.weapon else (200, 160, 130)
    if world.flash:
        for y in range(height - size - 3, height - size):
            for x in range(middle - 1, middle + 2):
                pixels[y][x] = (255, 220, 80)


def overview(world: World, width: int, height: int) -> list[list[RGB]]:
    """The map (Tab): the maze from above, the player in red."""
    rows, cols = len(world.cells), len(world.cells[0])
    scale = max(1, min(width // cols, height // rows))
    left, top = (width - cols * scale) // 2, (height - rows * scale) // 2
    pixels: list[list[RGB]] = [[(0, 0, 0)] * width for _ in range(height)]
    for row, line in enumerate(world.cells):
        for col, kind in enumerate(line):
            color = _WALLS.get(kind, (25, 25, 25))
            for y in range(top + row * scale, top + (row + 1) * scale):
                for x in range(left + col * scale, left + (col + 1) * scale):
                    if 0 <= y < height and 0 <= x < width:
                        pixels[y][x] = color
    px, py = left + int(world.x * scale), top + int(world.y * scale)
    if 0 <= py < height and 0 <= px < width:
        pixels[py][px] = (255, 40, 40)
    return pixels


def half_blocks(pixels: list[list[RGB]]) -> list[str]:
    """Two pixel rows per line: ``▀`` in the upper colour on the lower one."""
    lines = []
    for upper, lower in zip(pixels[::2], pixels[1::2], strict=False):
        line, last = "", None
        for top, bottom in zip(upper, lower, strict=True):
            if (top, bottom) != last:
                line += f"\x1b[38;2;{top[0]};{top[1]};{top[2]}m"
                line += f"\x1b[48;2;{bottom[0]};{bottom[1]};{bottom[2]}m"
                last = (top, bottom)
            line += "▀"
        lines.append(line + "\x1b[0m")
    return lines


def _banner(text: str, width: int) -> str:
    shown = text[:width].center(width)
    return f"\x1b[1;97;41m{shown}\x1b[0m"


#: What each key does: (action, run). Arrows turn, A/D strafe, capitals run.
_ACTIONS: dict[str, tuple[str, bool]] = {
    "up": ("forward", False),
    "down": ("back", False),
    "left": ("turn_left", False),
    "right": ("turn_right", False),
    "w": ("forward", False),
    "s": ("back", False),
    "a": ("strafe_left", False),
    "d": ("strafe_right", False),
    "shift+w": ("forward", True),
    "shift+s": ("back", True),
    "shift+a": ("strafe_left", True),
    "shift+d": ("strafe_right", True),
}


class DoomOverlay:
    """The game's component: keys held, a 35 fps loop, the view drawn in half blocks."""

    wants_key_release = True  # pi's opt-in; releases are honoured when they come

    def __init__(self, tui: TUI, world: World, on_exit: Callable[[], None]) -> None:
        self.tui = tui
        self.world = world
        self.on_exit = on_exit
        #: Frames each action is still held for (``None``: until its release).
        self.held: dict[str, int | None] = {}
        self.running = False
        self._releases = False
        self.menu = False
        self.map = False
        self._timer: asyncio.TimerHandle | None = None
        self._start()

    def _start(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(1 / FPS, self._loop)

    def _loop(self) -> None:
        self.tick()
        self.tui.request_render()
        self._start()

    def tick(self) -> None:
        """One frame: the held keys move the player; the muzzle flash fades."""
        w = self.world
        if not self.menu and not w.escaped:
            speed = 2 if self.running else 1
            held = self.held
            w.walk(_MOVE * speed * (("forward" in held) - ("back" in held)), 0.0)
            w.walk(0.0, _MOVE * speed * (("strafe_right" in held) - ("strafe_left" in held)))
            w.angle += _TURN * (("turn_right" in held) - ("turn_left" in held))
        w.flash = max(0, w.flash - 1)
        for action, left in list(self.held.items()):
            if left is not None:
                if left <= 1:
                    del self.held[action]
                else:
                    self.held[action] = left - 1
        if not self.held:
            self.running = False

    def handle_input(self, data: str) -> None:
        released = released_key(data)
        if released is not None:
            self._releases = True
            if released in _ACTIONS:
                self.held.pop(_ACTIONS[released][0], None)
            return
        if data in ("q", "Q"):  # pause and close; the world stays for next time
            self.dispose()
            self.on_exit()
            return
        key = parse_key(data)
        if key is not None and len(key) == 1 and key.isupper():
            key = f"shift+{key.lower()}"  # a capital: the letter with Shift
        if key == "escape":
            self.menu = not self.menu
        elif self.menu:
            return
        elif key == "tab":
            self.map = not self.map
        elif key in _ACTIONS:
            action, run = _ACTIONS[key]
            self.held[action] = None if self._releases else HOLD_FRAMES
            self.running = self.running or run
        elif key in ("f", "shift+f") or (
            key is not None and key.startswith("ctrl+") and key != "ctrl+c"
        ):
            self.world.shots += 1
            self.world.flash = 4
        elif key == "space":
            self.world.use()
        elif key is not None and len(key) == 1 and key in "1234567":
            self.world.weapon = int(key) - 1

    def invalidate(self) -> None:
        return None

    def render(self, width: int) -> list[str]:
        height = max(MIN_HEIGHT, int(width / ASPECT_RATIO))
        draw = overview if self.map else view
        lines = half_blocks(draw(self.world, width, height * 2))
        middle = height // 2
        if self.menu:
            lines[middle] = _banner("MENU: Esc to resume, Q to quit", width)
        elif self.world.escaped:
            lines[middle] = _banner("EXIT: you found the way out. Q to leave", width)
        status = f" {WEAPONS[self.world.weapon]} │ SHOTS {self.world.shots}"
        lines[-1] = f"\x1b[1;97;100m{status[:width].ljust(width)}\x1b[0m"  # the status bar
        lines.append(f"\x1b[2m{FOOTER[:width]}\x1b[0m")
        return lines

    def dispose(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def register(pi: HookAPI) -> None:
    world: World | None = None  # lives on between invocations, as pi's engine

    @pi.register_command(
        "doom-overlay", description="Play DOOM as an overlay. Q to pause and exit."
    )
    async def doom(args: str, ctx: CommandContext) -> None:
        nonlocal world
        if not ctx.has_ui:
            ctx.ui.notify("DOOM requires interactive mode", "error")
            return
        ctx.ui.notify("Loading DOOM...", "info")
        if world is None:
            world = World()
        else:
            ctx.ui.notify("Resuming DOOM...", "info")
        playing = world

        def factory(
            tui: TUI, theme: Theme, keybindings: Keybindings, done: Callable[[Any], None]
        ) -> DoomOverlay:
            return DoomOverlay(tui, playing, lambda: done(None))

        await ctx.ui.custom(
            factory,
            overlay=True,
            width="75%",
            max_height="95%",
            anchor="center",
            margin={"top": 1},
        )
