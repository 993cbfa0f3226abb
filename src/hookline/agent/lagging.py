"""Hook handlers the run does not wait for: pi's queue of agent events.

pi hands ``turn_end`` (like its other loop notifications) to extension
handlers through a queue and goes on: the next model call goes out while a
slow ``turn_end`` handler still runs. The handlers still run to the end, in
order, and their failures are reported as any handler's. Here only
``turn_end`` starts the lag; while it lasts, the notifications pi queues
behind it wait behind it too, and an event whose answer the run needs
(``message_end``, ``agent_end``, ``stop``) or a tool call waits for the queue
to empty first, as pi's tool calls do.

Settings hooks are waited for as before: Claude Code's ``PostToolBatch``
output must reach the next model call.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from hookline.core.events import Event
from hookline.core.runner import HookRunner

#: The event whose module handlers the run never waits for.
LAGGING = "turn_end"
#: Notifications pi queues: while handlers lag, these join the queue behind them.
QUEUED = frozenset(
    {
        "agent_start",
        "turn_start",
        "turn_end",
        "message_start",
        "message_update",
        "tool_execution_start",
        "tool_execution_update",
        "tool_execution_end",
    }
)
#: Events answered in order: while handlers lag, they wait for the queue to empty.
AFTER_THE_QUEUE = frozenset({"message_end", "stop", "agent_end"})


class LaggingHandlers:
    """The agent's queue of hook handlers it does not wait for, run one event at a time.

    ``waited_for``: the path of the hook whose handlers are always awaited (the
    settings hooks), or ``None``.
    """

    def __init__(self, runner: HookRunner, waited_for: str | None) -> None:
        self._runner = runner
        self._waited_for = waited_for
        self._tail: asyncio.Task[None] | None = None

    @property
    def pending(self) -> bool:
        """Handlers queued or running that the run has not waited for."""
        return self._tail is not None and not self._tail.done()

    async def emit(self, event: Event) -> Any:
        """Emit ``event`` to the hooks: queued behind lagging handlers, after them, or now."""
        kind = event.type
        if kind == LAGGING or (kind in QUEUED and self.pending):
            return await self._queue(event)
        if kind in AFTER_THE_QUEUE:
            await self.drain()
        return await self._runner.emit(event)

    async def drain(self) -> None:
        """Wait until every queued handler has finished."""
        while self.pending:
            assert self._tail is not None
            await asyncio.wait([self._tail])

    def _is_waited_for(self, path: str) -> bool:
        return path == self._waited_for

    def _lags(self, path: str) -> bool:
        return path != self._waited_for

    async def _queue(self, event: Event) -> None:
        others: Callable[[str], bool] | None = None
        if self._waited_for is not None:
            await self._runner.emit(event, where=self._is_waited_for)
            others = self._lags
        previous = self._tail

        async def run() -> None:
            if previous is not None and not previous.done():
                await asyncio.wait([previous])
            with contextlib.suppress(Exception):  # the runner reports handler failures
                await self._runner.emit(event, where=others)

        self._tail = asyncio.ensure_future(run())
        await asyncio.sleep(0)  # the handlers start now, before the run goes on
