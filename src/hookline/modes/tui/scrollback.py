"""Finished blocks printed into the terminal's scrollback, above the app's live rows.

A block is printed once and never redrawn: a burst of them is rendered in one
batch, off the loop (rich takes most of a second over a 5 000-line output),
and written where the live rows were, which are drawn again below it.
"""

from __future__ import annotations

import asyncio
import io
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from prompt_toolkit.application import Application

from hookline.modes.tui import render

if TYPE_CHECKING:
    from rich.console import RenderableType

    from hookline.core.theme import Theme
    from hookline.modes.tui.style import Palette


def terminal_width(app: Application[None]) -> int:
    """The terminal's width in columns (at least 20; 80 when there is no terminal)."""
    try:
        return max(app.output.get_size().columns, 20)
    except OSError:
        return 80


def terminal_height(app: Application[None]) -> int:
    """The terminal's height in rows (24 when there is no terminal)."""
    try:
        return max(app.output.get_size().rows, 1)
    except OSError:
        return 24


class Scrollback:
    """Prints blocks above ``app``, in order, each batch in one redraw."""

    def __init__(self, app: Application[None], palette: Palette) -> None:
        self._app = app
        self._palette = palette
        self._pending: list[RenderableType] = []
        self._printer: asyncio.Task[None] | None = None

    def print(self, renderable: RenderableType) -> None:
        """Print a finished block above the app (batched into one redraw)."""
        self._pending.append(renderable)
        if self._printer is None or self._printer.done():
            self._printer = asyncio.ensure_future(self._flush())

    def notice(self, text: str, kind: str = "info") -> None:
        self.print(render.notice(text, kind))

    async def drain(self) -> None:
        """Wait until everything printed so far is on the screen."""
        while self._printer is not None and not self._printer.done():
            await self._printer

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # let a burst of events land in one batch
        while self._pending:
            batch, self._pending = self._pending, []
            width = terminal_width(self._app)
            # Rendered off the loop: an expanded 5 000-line output takes rich most of a
            # second, and keys go on being read meanwhile. Batches stay in order.
            theme = self._palette.theme
            text = await asyncio.to_thread(_render_batch, batch, width, theme)
            await _terminal_free(self._app)
            self.write_above(text)

    def write_above(self, text: str) -> None:
        """Erase the live part, write ``text`` where it was, and draw the live part below.

        Unlike ``run_in_terminal`` the input stays attached and in raw mode: a key
        typed while output streams is never cooked (Ctrl+C a SIGINT, Ctrl+D lost).
        """
        app = self._app
        output = app.output
        running = app.is_running and not app.is_done
        if running:
            app.renderer.erase()
        output.write_raw(text.replace("\n", "\r\n"))
        output.flush()
        if running:
            app.renderer.reset()
            app.renderer.request_absolute_cursor_position()
            app.invalidate()


async def _terminal_free(app: Application[None]) -> None:
    """Wait while a program has the terminal (a hook's ``run_in_terminal``: an editor, a
    pager): what is printed meanwhile would land on its screen, and the cursor position
    the app asks for after writing would be read as the program's input."""
    while (handed_over := app._running_in_terminal_f) is not None and not handed_over.done():
        await asyncio.shield(handed_over)


class PrintedLines(io.TextIOBase):
    """``sys.stdout`` and ``sys.stderr`` while the app runs (``printed_above``): each line
    written (a hook's ``print``, a log record, from any thread) becomes a block above the
    app, wrapped at words where the terminal would have cut it anywhere.

    A line is sent when it ends, or at ``flush``; the loop prints it in order.
    """

    def __init__(
        self, scrollback: Scrollback, loop: asyncio.AbstractEventLoop, original: TextIO
    ) -> None:
        super().__init__()
        self._scrollback = scrollback
        self._loop = loop
        self._original = original
        self._partial = ""
        self._lock = threading.Lock()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False  # plain lines (the log's rich handler writes to a terminal only)

    def fileno(self) -> int:
        return self._original.fileno()

    def write(self, text: str) -> int:
        with self._lock:
            *lines, self._partial = (self._partial + text).split("\n")
        if lines:
            self._send("\n".join(lines))
        return len(text)

    def flush(self) -> None:
        with self._lock:
            partial, self._partial = self._partial, ""
        if partial:
            self._send(partial)

    def _send(self, text: str) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self._scrollback.print(render.printed(text))
        elif not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._scrollback.print, render.printed(text))
        else:
            self._original.write(text + "\n")


@contextmanager
def printed_above(scrollback: Scrollback) -> Iterator[None]:
    """While the app runs, what is printed to stdout and stderr shows above it."""
    loop = asyncio.get_running_loop()
    saved = sys.stdout, sys.stderr
    streams = [PrintedLines(scrollback, loop, original) for original in saved]
    sys.stdout, sys.stderr = streams[0], streams[1]
    try:
        yield
    finally:
        for stream in streams:
            stream.flush()
        sys.stdout, sys.stderr = saved


def _render_batch(batch: list[RenderableType], width: int, theme: Theme) -> str:
    return "".join(render.to_ansi(r, width, theme) for r in batch)
