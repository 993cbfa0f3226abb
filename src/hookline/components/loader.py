"""A spinner with a message, turning every 80 ms while it is shown."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hookline.components.basic import Text
from hookline.components.component import TUI

FRAMES = ("⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏")
INTERVAL = 0.08


class Loader(Text):
    """Starts turning when made (on the running event loop); ``stop()`` ends it."""

    def __init__(
        self,
        tui: TUI | None,
        spinner_color_fn: Callable[[str], str] = lambda s: s,
        message_color_fn: Callable[[str], str] = lambda s: s,
        message: str = "Loading...",
    ) -> None:
        super().__init__("", 1, 0)
        self._tui = tui
        self._spinner = spinner_color_fn
        self._paint = message_color_fn
        self.message = message
        self.frame = 0
        self._timer: asyncio.TimerHandle | None = None
        self.start()

    def render(self, width: int) -> list[str]:
        return ["", *super().render(width)]

    def start(self) -> None:
        self._show()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a test rendering it): the first frame stays
        self._timer = loop.call_later(INTERVAL, self._tick)

    def _tick(self) -> None:
        self.frame = (self.frame + 1) % len(FRAMES)
        self._show()
        self._timer = asyncio.get_running_loop().call_later(INTERVAL, self._tick)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def set_message(self, message: str) -> None:
        self.message = message
        self._show()

    def _show(self) -> None:
        self.set_text(f"{self._spinner(FRAMES[self.frame])} {self._paint(self.message)}")
        if self._tui is not None:
            self._tui.request_render()
