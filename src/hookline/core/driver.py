"""Driving a coroutine that already started: one driver, one grace.

A handler, a tool or a direct rule is first stepped by hand (``coro.send(None)``),
so that one which answers at once never meets the event loop. One that suspends
is awaited through ``Resume``, which steps it on from where it stopped, passing
in what the loop sends and throws. It drives two kinds of coroutine:

- one handler or tool, whose deadline is its awaiter's (an ``asyncio.timeout``
  scope around the ``await``, or the caller's own cancellation);
- a direct rule that awaits its handlers one at a time (``rules``): a ``Watch``
  hears each time the rule waits in another handler, and gives that handler its
  own deadline.

The grace is the same for both. A coroutine that swallows a cancellation thrown
into it and suspends again (still in the same handler) is driven on in a task of
its own for at most ``grace`` seconds. If it ends or moves on within them, all
goes on as if it had been cooperative; if not, it is abandoned there (it runs on,
listed in ``orphans``): a handler's awaiter gets ``HandlerAbandoned``, and a
rule's ``Watch`` answers for the run.

asyncio is imported only once something has suspended: ``hookline claude-hook``
steps plain handlers without a loop and never loads it.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Coroutine, Generator
from types import CoroutineType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import asyncio

#: Seconds a coroutine that swallowed its cancellation may go on before it is abandoned.
ABANDON_GRACE = 0.5


class HandlerAbandoned(Exception):
    """The handler ignored its cancellation past the grace; it runs on, detached."""


def caller_cancelled() -> bool:
    """True when the calling task itself was asked to stop (not a handler's own raise).

    False without a running loop: a run stepped by hand (``run_inline``) has no task.
    """
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return False
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running loop
        return False
    return task is not None and task.cancelling() > 0


def is_cancellation(exc: BaseException) -> bool:
    """``exc`` is an ``asyncio.CancelledError`` (without importing asyncio to find out: a
    process that never imported it cannot have been cancelled by it)."""
    asyncio = sys.modules.get("asyncio")
    return asyncio is not None and isinstance(exc, asyncio.CancelledError)


def loop_running() -> bool:
    """An event loop runs in this thread (asyncio is not imported to find out)."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class Watch(Protocol):
    """What ``Resume`` tells the deadlines of a rule that awaits handlers one at a time,
    and what it asks of them when the rule's run is abandoned."""

    def entered(self) -> None:
        """The rule now waits in another handler (the first one included)."""

    def arrived(self, exc: BaseException) -> None:
        """``exc`` is about to be thrown into the rule (a deadline takes its own back)."""

    def left(self) -> None:
        """The driver is done: no handler waits any more."""

    def give_up(self) -> None:
        """The rule's run is abandoned: it is cancelled, and must end without a word."""

    def answer(self) -> Awaitable[Any]:
        """What the run answers instead, once given up past the grace."""


class _Moved:
    """A rule driven through a grace moved on to another handler, at ``yielded``."""

    __slots__ = ("yielded",)

    def __init__(self, yielded: Any) -> None:
        self.yielded = yielded


class Resume:
    """Awaitable that steps on a coroutine which already ran to its first suspension.

    ``first`` is what the coroutine yielded there. With a ``grace``, a coroutine
    that swallows a cancellation and suspends again is given the grace (see the
    module docstring); abandoned, it is listed in ``orphans``. With a ``watch``,
    the coroutine is a direct rule and each handler it waits in is reported to it
    (the handler is the rule's ``cr_await``, so the rule pays nothing per handler).
    ``within`` is for the grace itself: drive only while the rule waits in that
    handler, and give it back (``_Moved``) once it waits in another.
    """

    __slots__ = ("_coro", "_first", "_grace", "_orphans", "_watch", "_within")

    def __init__(
        self,
        coro: Coroutine[Any, Any, Any],
        first: Any,
        grace: float | None = None,
        orphans: set[asyncio.Task[Any]] | None = None,
        watch: Watch | None = None,
        within: object = None,
    ) -> None:
        self._coro = coro
        self._first = first
        self._grace = grace
        self._orphans = orphans
        self._watch = watch
        self._within = within

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, yielded, watch, within = self._coro, self._first, self._watch, self._within
        rule: CoroutineType[Any, Any, Any] = coro  # type: ignore[assignment]  # a rule's, if watched
        inner: object = None
        try:
            while True:
                if watch is not None:
                    if rule.cr_await is not inner:  # a new handler waits: its deadline
                        inner = rule.cr_await
                        watch.entered()
                elif within is not None and rule.cr_await is not within:
                    return _Moved(yielded)
                try:
                    sent = yield yielded
                except GeneratorExit:
                    coro.close()
                    raise
                except BaseException as exc:  # cancellation, timeouts: pass them in
                    if watch is not None:
                        watch.arrived(exc)
                    try:
                        yielded = coro.throw(exc)
                    except StopIteration as stop:
                        return stop.value
                    if (
                        self._grace is not None
                        and is_cancellation(exc)
                        and (watch is None or rule.cr_await is inner)
                    ):
                        ended, value = yield from self._through_grace(yielded, inner)
                        if ended:
                            return value
                        yielded = value
                else:
                    try:
                        yielded = coro.send(sent)
                    except StopIteration as stop:
                        return stop.value
        finally:
            if watch is not None:
                watch.left()

    def _through_grace(self, yielded: Any, inner: object) -> Generator[Any, Any, tuple[bool, Any]]:
        """The coroutine swallowed its cancellation: drive it in a task of its own (a rule
        only while it waits in ``inner``) for at most the grace.

        ``(True, result)`` when it ended, ``(False, yielded)`` when a rule moved on to
        another handler (this driver takes it back). Past the grace it is abandoned:
        ``HandlerAbandoned`` for a handler, the ``Watch``'s answer for a rule; a handler
        that ended within the grace reads as a cooperative one (``CancelledError``).
        """
        import asyncio  # something suspended: the loop runs

        assert self._grace is not None
        watch = self._watch
        loop = asyncio.get_running_loop()
        rest = Resume(self._coro, yielded, within=inner if watch is not None else None)
        detached = loop.create_task(awaiting(rest))
        detached.add_done_callback(retrieve)
        waiter: asyncio.Future[None] = loop.create_future()

        def wake(_: object = None) -> None:
            if not waiter.done():
                waiter.set_result(None)

        detached.add_done_callback(wake)
        timer = loop.call_later(self._grace, wake)
        try:
            yield from waiter
        except BaseException:
            self._abandon(detached)
            raise
        finally:
            timer.cancel()
            detached.remove_done_callback(wake)
        if detached.done():  # it stopped within the grace
            if watch is None:
                raise asyncio.CancelledError  # as if it had been cooperative
            result = detached.result()
            if type(result) is _Moved:
                return False, result.yielded
            return True, result
        self._abandon(detached)
        if watch is None:
            raise HandlerAbandoned
        if caller_cancelled():
            raise asyncio.CancelledError
        return True, (yield from awaiting(watch.answer()).__await__())

    def _abandon(self, detached: asyncio.Task[Any]) -> None:
        """Leave ``detached`` running on its own: listed, asked once more to stop, not
        waited for."""
        if self._watch is not None:
            self._watch.give_up()
        if self._orphans is not None and not detached.done():
            self._orphans.add(detached)
            detached.add_done_callback(self._orphans.discard)
        detached.cancel()


async def awaiting(value: Awaitable[Any]) -> Any:
    """A coroutine that awaits ``value``: what ``create_task`` and stepping by hand need
    of any awaitable."""
    return await value


def retrieve(task: asyncio.Task[Any]) -> None:
    """Fetch a detached task's outcome so asyncio never logs it as unretrieved."""
    if not task.cancelled():
        task.exception()
