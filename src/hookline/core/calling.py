"""Calling one handler: cheap when it answers at once, bounded when it does not.

A handler is stepped by hand to its first suspension; one that answers at
once never meets a timer (measured: ten ``wait_for`` calls cost ~160 µs).
One that really suspends is resumed under an ``asyncio.timeout`` scope whose
clock stops while a UI dialog is open (``deadlines.py``).

Three promises hold whatever a handler does:

- every exception it raises, ``BaseException`` included (``KeyboardInterrupt``,
  ``GeneratorExit``, ``SystemExit``, a ``CancelledError`` of its own), is a
  hook failure, never the agent's; only the runner's own cancellation (the
  calling task was cancelled) passes through;
- a deadline always ends the wait: a handler that swallows its cancellation
  and keeps awaiting gets ``grace`` seconds more, then is abandoned (it runs
  on in a task of its own, listed in ``HandlerCalls.orphans``);
- only the runner's deadline counts as a timeout: a handler's own
  ``TimeoutError`` is an ordinary failure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass
from types import CoroutineType
from typing import Any, NoReturn

from hookline.core.api import Handler
from hookline.core.context import HookContext
from hookline.core.deadlines import DeadlineClock
from hookline.core.events import Event
from hookline.core.results import HookResult, coerce_result

#: What a failing *tool* may raise without taking the agent down (hooks are held to
#: more: every ``BaseException`` but the runner's own cancellation, see ``HandlerCalls``).
HOOK_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)

#: Seconds a handler that swallowed its cancellation may go on before it is abandoned.
ABANDON_GRACE = 0.5


@dataclass(frozen=True, slots=True)
class HookError:
    """A hook failed: raised, timed out, or returned something invalid."""

    hook_path: str
    event: str
    error: str
    exception: BaseException | None = None


@dataclass(frozen=True, slots=True)
class Failed:
    """A handler's outcome when it failed; ``text`` reads after the hook's name."""

    text: str
    exception: BaseException | None = None


class DeadlineExceeded(Exception):
    """The runner's deadline ended the handler (a handler's own ``TimeoutError`` is not this)."""


class HandlerAbandoned(Exception):
    """The handler ignored its cancellation past the grace; it runs on, detached."""


def describe(exc: BaseException) -> str:
    """``Type: message``, or the type alone when the message is empty."""
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def caller_cancelled() -> bool:
    """True when the calling task itself was asked to stop (not a handler's own raise)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class Resume:
    """Awaitable that continues a coroutine which already ran to its first suspension.

    With a ``grace``, a coroutine that swallows the cancellation thrown into it
    and suspends again is handed to a task of its own; the awaiter waits at
    most ``grace`` seconds for it, then gets ``HandlerAbandoned``.
    """

    __slots__ = ("_coro", "_first", "_grace", "_orphans")

    def __init__(
        self,
        coro: Coroutine[Any, Any, Any],
        first: Any,
        grace: float | None = None,
        orphans: set[asyncio.Task[Any]] | None = None,
    ) -> None:
        self._coro = coro
        self._first = first
        self._grace = grace
        self._orphans = orphans

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, yielded = self._coro, self._first
        while True:
            try:
                sent = yield yielded
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # cancellation, timeouts: pass them in
                try:
                    yielded = coro.throw(exc)
                except StopIteration as stop:
                    return stop.value
                if self._grace is not None and isinstance(exc, asyncio.CancelledError):
                    yield from self._abandon(yielded, self._grace)
            else:
                try:
                    yielded = coro.send(sent)
                except StopIteration as stop:
                    return stop.value

    def _abandon(self, yielded: Any, grace: float) -> Generator[Any, Any, NoReturn]:
        """The coroutine swallowed its cancellation: let it run detached, wait ``grace``."""
        loop = asyncio.get_running_loop()
        detached = loop.create_task(_drive(Resume(self._coro, yielded)))
        detached.add_done_callback(_retrieve)
        if self._orphans is not None:
            self._orphans.add(detached)
            detached.add_done_callback(self._orphans.discard)
        waiter: asyncio.Future[None] = loop.create_future()

        def wake(_: object = None) -> None:
            if not waiter.done():
                waiter.set_result(None)

        detached.add_done_callback(wake)
        timer = loop.call_later(grace, wake)
        try:
            yield from waiter
        except BaseException:
            detached.cancel()
            raise
        finally:
            timer.cancel()
            detached.remove_done_callback(wake)
        if detached.done():  # it stopped within the grace: as if it had been cooperative
            raise asyncio.CancelledError
        detached.cancel()  # one more request; it is not waited for
        raise HandlerAbandoned


async def _drive(resume: Resume) -> Any:
    return await resume


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Fetch a detached handler's outcome so asyncio never logs it as unretrieved."""
    if not task.cancelled():
        task.exception()


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


class HandlerCalls:
    """How a runner calls its handlers: inline first step, deadline, failures reported.

    ``timeout`` applies to every handler that suspends, ``tool_call`` included,
    except those of hooks that keep their own deadlines (settings hooks).
    """

    __slots__ = ("_report", "clock", "context", "grace", "orphans", "own_deadlines", "timeout")

    def __init__(
        self,
        context: HookContext,
        timeout: float | None,
        report: Callable[[HookError], None],
        grace: float = ABANDON_GRACE,
    ) -> None:
        self.context = context
        self.timeout = timeout
        self.grace = grace
        self.clock = DeadlineClock()
        #: Handlers abandoned after their deadline that are still running.
        self.orphans: set[asyncio.Task[Any]] = set()
        self.own_deadlines: set[str] = set()
        self._report = report

    # -- the two halves of a call ------------------------------------------------

    def start(self, fn: Handler, event: Event) -> Any:
        """Run ``fn`` until it first suspends: its value, or a ``Resume`` to settle.

        Plain function calls, no coroutine of our own: a handler that answers at
        once costs about what the floor costs. Raises what the handler raised.
        """
        value = fn(event, self.context)
        if value is None:
            return None
        if type(value) is not CoroutineType:
            return self.resume_awaitable(value) if isinstance(value, Awaitable) else value
        try:
            first = value.send(None)
        except StopIteration as stop:
            return stop.value
        return Resume(value, first, self.grace, self.orphans)

    def resume(self, coro: Coroutine[Any, Any, Any], first: Any) -> Resume:
        """A coroutine that suspended at ``first``, to ``settle``."""
        return Resume(coro, first, self.grace, self.orphans)

    def resume_awaitable(self, value: Awaitable[Any]) -> Any:
        """Any other awaitable a handler returned: stepped like a coroutine (a value or a
        ``Resume``)."""
        coro = _awaited(value)
        try:
            first = coro.send(None)
        except StopIteration as stop:
            return stop.value
        return Resume(coro, first, self.grace, self.orphans)

    async def settle(self, path: str, resume: Resume) -> Any:
        """Await a suspended handler under its deadline; ``DeadlineExceeded`` when it ends it."""
        seconds = None if path in self.own_deadlines else self.timeout
        scope = asyncio.timeout(seconds)  # even without a deadline: an abort can expire it
        clock = self.clock
        aborted = False
        try:
            async with scope:
                clock.start(scope)
                try:
                    value = await resume
                finally:
                    aborted = clock.stop(scope)
        except HandlerAbandoned:
            if caller_cancelled():
                raise asyncio.CancelledError from None
            raise DeadlineExceeded(self._late(seconds, aborted, abandoned=True)) from None
        except BaseException as exc:
            if not scope.expired() or caller_cancelled():
                raise
            if isinstance(exc, TimeoutError | asyncio.CancelledError):
                raise DeadlineExceeded(self._late(seconds, aborted)) from None
            raise DeadlineExceeded(self._late(seconds, aborted) + f" ({describe(exc)})") from exc
        if scope.expired():  # it swallowed the cancellation and returned anyway
            raise DeadlineExceeded(self._late(seconds, aborted))
        return value

    def _late(self, seconds: float | None, aborted: bool, abandoned: bool = False) -> str:
        text = "was stopped: the run was aborted" if aborted else f"timed out after {seconds:g} s"
        if abandoned:
            text += f" and ignored its cancellation (abandoned after {self.grace:g} s more)"
        return text

    # -- whole calls ---------------------------------------------------------------

    async def outcome(
        self, path: str, fn: Handler, event: Event, then: str = ""
    ) -> HookResult | Failed | None:
        """The handler's result, or ``Failed`` (already reported, ``then`` appended)."""
        try:
            value = self.start(fn, event)
            if type(value) is Resume:
                value = await self.settle(path, value)
            return None if value is None else coerce_result(event.type, value)
        except BaseException as exc:
            return self.failure(path, event.type, exc, then)

    def failure(self, path: str, event: str, exc: BaseException, then: str = "") -> Failed:
        """What ``exc`` out of a handler call means: reported, as ``Failed``.

        Re-raises the caller's own cancellation: that one is not the hook's.
        """
        if type(exc) is DeadlineExceeded:
            return self.failed(path, event, str(exc), None, then)
        if isinstance(exc, asyncio.CancelledError) and caller_cancelled():
            raise exc
        return self.failed(path, event, f"failed ({describe(exc)})", exc, then)

    async def guarded(self, path: str, fn: Handler, event: Event) -> HookResult | None:
        """The handler's result; ``None`` on failure (reported, the chain goes on)."""
        result = await self.outcome(path, fn, event)
        return None if type(result) is Failed else result  # type: ignore[return-value]

    async def finish(self, path: str, event: Event, resume: Resume) -> None:
        """Settle a suspended notification handler; failures are reported."""
        try:
            await self.settle(path, resume)
        except BaseException as exc:
            self.failure(path, event.type, exc)

    def failed(
        self,
        path: str,
        event: str,
        text: str,
        exc: BaseException | None,
        then: str = "",
    ) -> Failed:
        """Report a failure to the runner's listeners; the ``Failed`` outcome.

        Listeners get what went wrong (the exception, or the deadline text) and
        what followed from it (``then``, e.g. "the call is blocked").
        """
        what = text if exc is None else describe(exc)
        self._report(HookError(path, event, f"{what}; {then}" if then else what, exc))
        return Failed(text, exc)

    def abandon_inflight(self) -> int:
        """End every handler now waiting on a deadline (an abort); how many there were."""
        return self.clock.abandon_all()
