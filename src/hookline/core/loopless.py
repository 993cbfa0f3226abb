"""Running coroutines where no event loop runs.

``hookline claude-hook`` answers one event per process. When every handler of
the event is a plain function, ``run_inline`` steps the emit by hand and the
process never imports asyncio; otherwise ``run_to_end`` runs it in a loop of its
own that does not wait at the end for handlers abandoned past their deadline.
A plain handler that returns an awaitable where no loop runs has it awaited in
a loop of its own (``run_apart``).

Deadlines and the grace are the driver's (``driver.Resume``) in every case;
these runners only own the loop.
"""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from hookline.core.driver import ABANDON_GRACE, Resume, awaiting, retrieve

if TYPE_CHECKING:
    import asyncio

T = TypeVar("T")


def run_inline(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end without an event loop, as far as it never suspends.

    ``hookline claude-hook`` answers an event whose handlers are all plain
    functions this way, so a process that answers one event never imports
    asyncio. Should a step suspend anyway, the rest runs under ``run_to_end``.
    """
    try:
        first = coro.send(None)
    except StopIteration as stop:
        result: T = stop.value
        return result
    return cast(T, run_to_end(awaiting(Resume(coro, first))))


def run_to_end(coro: Coroutine[Any, Any, T], grace: float = ABANDON_GRACE) -> T:
    """``asyncio.run(coro)`` for a process that answers once, without its last wait for
    every task left: a handler abandoned past its deadline ignores cancellation, and
    that wait would hold the answer forever. Tasks left get their cancellation and
    ``grace`` seconds, then are left behind with the loop."""
    import asyncio

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        _wind_down(loop, [task for task in asyncio.all_tasks(loop) if not task.done()], grace)


def run_apart(coro: Coroutine[Any, Any, T]) -> T:
    """``run_to_end`` for a coroutine that awaits a plain handler's awaitable under its
    deadline (``HandlerCalls.awaited``): the driver already gave a handler that ignored
    its cancellation its grace, so what it left running is left behind at once.

    ``KeyboardInterrupt`` and ``SystemExit`` out of the handler are raised here, as
    the handler's: asyncio would let them out of the loop past the task that holds
    them, leaving the loop's own wait behind and printing the task's traceback.
    """
    result = run_to_end(_kept(coro), grace=0)
    if type(result) is _Raised:
        raise result.exc
    return cast(T, result)


@dataclass(frozen=True, slots=True)
class _Raised:
    """What ``_kept`` caught."""

    exc: BaseException


async def _kept(coro: Coroutine[Any, Any, T]) -> T | _Raised:
    """``await coro``, returning (not raising) ``KeyboardInterrupt`` and ``SystemExit``."""
    try:
        return await coro
    except (KeyboardInterrupt, SystemExit) as exc:
        return _Raised(exc)


def _wind_down(
    loop: asyncio.AbstractEventLoop, tasks: list[asyncio.Task[Any]], grace: float
) -> None:
    """Cancel ``tasks`` and give them ``grace`` seconds on ``loop``; when all ended the
    loop is closed, else it is left behind with the ones that ignored it."""
    import asyncio

    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.wait(tasks, timeout=grace))
    for task in tasks:
        if task.done():
            retrieve(task)
    if not all(task.done() for task in tasks):
        return
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()
