"""The app's own work in the background: your commands and prompts, hooks' shortcuts.

Each runs as a task; a hook's failure in one is a notice, not the end of the
app. A ``!cmd`` task is marked a command: Ctrl+C cancels it (its process
group is killed), while a turn is stopped through ``agent.abort()``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from hookline.modes.tui.transcript import hook_failures


class Tasks:
    """The tasks under way; ``started`` and ``ended`` are called as each starts and ends."""

    def __init__(
        self,
        notice: Callable[[str, str], None],
        started: Callable[[], None],
        ended: Callable[[], None],
    ) -> None:
        self._notice = notice
        self._started = started
        self._ended = ended
        self._tasks: set[asyncio.Task[Any]] = set()
        self._commands: set[asyncio.Task[Any]] = set()

    def running(self) -> bool:
        return bool(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, Any], *, command: bool = False) -> asyncio.Task[Any]:
        """Run ``coro`` as a task (``command``: a ``!cmd`` that Ctrl+C cancels)."""
        task = asyncio.ensure_future(self._guard(coro))
        self._tasks.add(task)
        if command:
            self._commands.add(task)
        task.add_done_callback(self._done)
        self._started()
        return task

    def cancel_commands(self) -> None:
        """Ctrl+C during a ``!cmd``: cancel it."""
        for task in list(self._commands):
            task.cancel()

    async def cancel_all(self) -> None:
        """The app ends: cancel what runs and wait for it."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        self._commands.discard(task)
        self._ended()

    async def _guard(self, coro: Coroutine[Any, Any, Any]) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            pass
        except hook_failures() as exc:
            self._notice(f"{type(exc).__name__}: {exc}", "error")
