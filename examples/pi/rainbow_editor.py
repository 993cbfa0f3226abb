"""pi's rainbow-editor example: "ultrathink" in the prompt drawn in a moving rainbow.

``ctx.ui.set_editor_component`` replaces the terminal app's prompt with a
``CustomEditor`` that draws every "ultrathink" (any case) letter by letter in
seven colours (coral, yellow, green, teal, blue, purple, pink) with a
three-letter shine running across it. While the text holds the word a timer
moves the shine every 60 ms (``tui.request_render()``): ten frames of shine,
ten of pause. Everything else is the app's editor: Enter sends, Up recalls.

    hookline --hook examples/pi/rainbow_editor.py
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from hookline import HookAPI, HookContext
from hookline.components import CustomEditor

#: coral → yellow → green → teal → blue → purple → pink
COLORS: list[tuple[int, int, int]] = [
    (233, 137, 115),
    (228, 186, 103),
    (141, 192, 122),
    (102, 194, 179),
    (121, 157, 207),
    (157, 134, 195),
    (206, 130, 172),
]
RESET = "\x1b[0m"
FRAME_SECONDS = 0.06
_WORD = re.compile("ultrathink", re.IGNORECASE)


def brighten(rgb: tuple[int, int, int], factor: float) -> str:
    """The colour moved ``factor`` of the way to white, as a 24-bit foreground escape."""
    r, g, b = (round(c + (255 - c) * factor) for c in rgb)
    return f"\x1b[38;2;{r};{g};{b}m"


def colorize(text: str, shine: int) -> str:
    """Each letter its colour; the letter at ``shine`` brightest, its neighbours less
    (``shine`` -1: no shine)."""
    out = []
    for i, char in enumerate(text):
        distance = abs(i - shine)
        factor = 0.0 if shine < 0 else 0.7 if distance == 0 else 0.35 if distance == 1 else 0.0
        out.append(brighten(COLORS[i % len(COLORS)], factor) + char)
    return "".join(out) + RESET


class RainbowEditor(CustomEditor):
    """The editor, with "ultrathink" coloured and a timer that moves its shine."""

    frame = 0
    _timer: asyncio.TimerHandle | None = None

    def _has_ultrathink(self) -> bool:
        return _WORD.search(self.get_text()) is not None

    def _tick(self) -> None:
        self.frame += 1
        if self.tui is not None:
            self.tui.request_render()
        self._timer = asyncio.get_running_loop().call_later(FRAME_SECONDS, self._tick)

    def _start(self) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(FRAME_SECONDS, self._tick)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def handle_input(self, data: str) -> None:
        super().handle_input(data)
        if self._has_ultrathink():
            self._start()
        else:
            self._stop()

    def render(self, width: int) -> list[str]:
        cycle = self.frame % 20  # ten frames of shine, ten of pause
        shine = cycle if cycle < 10 else -1
        return [
            _WORD.sub(lambda m: colorize(m.group(), shine), line) for line in super().render(width)
        ]


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def start(event: Any, ctx: HookContext) -> None:
        ctx.ui.set_editor_component(RainbowEditor)
