"""``idle_prompt``: the Notification Claude Code sends when its answer has waited a minute.

When a turn ends and the prompt waits, a timer starts; if no key was pressed
by the time it fires (Claude Code's ``messageIdleNotifThresholdMs``, 60 s;
``HOOKLINE_IDLE_NOTIFY_MS`` changes it), no dialog is open and nothing runs,
``notification`` hooks get ``idle_prompt`` ("hookline is waiting for your
input"): once per answer, never before the first one. Only the terminal app
has a prompt that waits, so ``-p`` and the other modes send none.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Mapping

#: Claude Code's default wait before ``idle_prompt`` (seconds).
IDLE_SECONDS = 60.0
#: Milliseconds to wait instead (tests, or a shorter nudge).
IDLE_ENV = "HOOKLINE_IDLE_NOTIFY_MS"
#: Claude Code's words, with hookline's name.
IDLE_MESSAGE = "hookline is waiting for your input"


def idle_seconds(environ: Mapping[str, str] = os.environ) -> float:
    """The wait: ``HOOKLINE_IDLE_NOTIFY_MS`` when a positive number, else 60 s."""
    try:
        ms = float(environ.get(IDLE_ENV, ""))
    except ValueError:
        return IDLE_SECONDS
    return ms / 1000 if ms > 0 else IDLE_SECONDS


class IdleNotifier:
    """Arms a timer when a turn ends; a key press since then, a dialog or work disarms it."""

    def __init__(
        self,
        delay: float,
        quiet: Callable[[], bool],
        notify: Callable[[], Awaitable[None]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._delay = delay
        #: Whether the prompt waits with nothing else on screen (no dialog, nothing running).
        self._quiet = quiet
        self._notify = notify
        self._clock = clock
        self._touched = float("-inf")
        self._timer: asyncio.Task[None] | None = None

    @property
    def timer(self) -> asyncio.Task[None] | None:
        """The armed wait, if any: done once it has notified or decided not to."""
        return self._timer

    def answered(self) -> None:
        """A turn ended: the prompt waits from now."""
        self.cancel()
        self._timer = asyncio.ensure_future(self._wait(self._clock()))

    def touched(self) -> None:
        """A key was pressed: the user is here."""
        self._touched = self._clock()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def _wait(self, since: float) -> None:
        await asyncio.sleep(self._delay)
        self._timer = None
        if self._touched >= since or not self._quiet():
            return
        await self._notify()
