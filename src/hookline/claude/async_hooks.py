"""Background command hooks (Claude's async protocol).

A hook whose first stdout line is ``{"async": true, "asyncTimeout": N}`` (or
that is configured with ``"async": true``) hands off: the event goes on at
once and the process keeps running as an ``AsyncHookTask``. ``asyncTimeout``
is in milliseconds, as in Claude Code; without it the budget is the hook's own
timeout. The budget counts from the hand-off. When the process ends (or is
killed at its budget, or ``cancel()``-ed), its outcome — read from the output
after the first line — goes to the registry's listeners. The process is
still run by ``core.process.run_process``, so killing it kills its group.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from hookline.claude.config import HookDefinition
from hookline.claude.outcome import Outcome
from hookline.core.process import ExecResult

log = logging.getLogger("hookline.claude")

AsyncListener = Callable[["AsyncHookTask", Outcome], None]
#: Turns the finished process into an outcome: (result, cancel reason or None) → Outcome.
Finisher = Callable[[ExecResult, "str | None"], Outcome]

_ids = itertools.count(1)


@dataclass(slots=True)
class AsyncHookTask:
    """One background hook: id, budget (seconds), and cancellation."""

    id: str
    hook: HookDefinition
    budget: float | None
    started: float
    _abort: asyncio.Event
    _process: asyncio.Future[ExecResult]
    _watcher: asyncio.Task[Outcome] | None = None
    _cancel_reason: str | None = None
    outcome: Outcome | None = None
    listeners: list[AsyncListener] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.outcome is not None

    def cancel(self, reason: str = "async hook cancelled") -> None:
        """Kill the hook's process group; its outcome is ``cancelled``."""
        if self.outcome is None and self._cancel_reason is None:
            self._cancel_reason = reason
            self._abort.set()

    async def wait(self) -> Outcome:
        """The outcome once the hook ended."""
        assert self._watcher is not None
        return await asyncio.shield(self._watcher)


class AsyncHookRegistry:
    """Tracks background hooks and tells listeners when each one ends."""

    def __init__(self) -> None:
        self.tasks: dict[str, AsyncHookTask] = {}
        self._listeners: list[AsyncListener] = []

    def on_result(self, listener: AsyncListener) -> Callable[[], None]:
        """Subscribe to finished background hooks; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def running(self) -> list[AsyncHookTask]:
        return [t for t in self.tasks.values() if not t.done]

    def start(
        self,
        hook: HookDefinition,
        process: asyncio.Future[ExecResult],
        abort: asyncio.Event,
        budget: float | None,
        finish: Finisher,
    ) -> AsyncHookTask:
        """Adopt a running process (``process`` resolves when run_process returns)."""
        task = AsyncHookTask(f"async-{next(_ids)}", hook, budget, time.monotonic(), abort, process)
        task._watcher = asyncio.ensure_future(self._watch(task, finish))
        self.tasks[task.id] = task
        return task

    async def _watch(self, task: AsyncHookTask, finish: Finisher) -> Outcome:
        try:
            res = await asyncio.wait_for(asyncio.shield(task._process), task.budget)
        except TimeoutError:
            if task._cancel_reason is None:
                task._cancel_reason = f"async hook timed out after {task.budget:g}s"
            task._abort.set()
            res = await task._process
        except asyncio.CancelledError:
            task._abort.set()
            with contextlib.suppress(BaseException):
                await task._process
            raise
        outcome = finish(res, task._cancel_reason)
        task.outcome = outcome
        for listener in [*self._listeners, *task.listeners]:
            try:
                listener(task, outcome)
            except Exception:  # a broken listener must not lose the others' reports
                log.exception("async hook listener failed")
        return outcome

    async def cancel_all(self) -> None:
        """Kill every running background hook and wait for their outcomes (shutdown)."""
        running = self.running()
        for t in running:
            t.cancel("async hook cancelled at shutdown")
        for t in running:
            with contextlib.suppress(BaseException):
                await t.wait()
