"""Calling handlers: cheap when they answer at once, bounded when they do not.

Two ways, one set of promises:

- *direct* rules (``tool_call``, ``tool_result``, notifications: the hot
  events) ``await`` each handler inline; only the rule's coroutine is stepped
  by hand, once per emit (``start_direct``). If it suspends, the driver
  (``driver.Resume``) takes over with the rule's ``RuleDeadlines``: each
  handler the rule waits in gets its own ``TaskDeadline``; a handler that
  swallows its cancellation is driven in a task of its own for the grace, then
  abandoned with the rest of the rule's run, and the rule's ``abandoned``
  continuation answers instead (a block, a withheld output, or the remaining
  notification handlers);
- every other rule calls ``HandlerCalls.outcome``: each handler is stepped by
  hand to its first suspension and, if it suspends, driven on under an
  ``asyncio.timeout`` scope.

A handler that answers at once never meets a timer (measured: ten
``wait_for`` calls cost ~160 µs). Deadline clocks stop while a UI dialog is
open (``deadlines.py``).

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

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from operator import length_hint
from types import CoroutineType
from typing import TYPE_CHECKING, Any, cast, final

from hookline.core.api import Handler
from hookline.core.context import HookContext
from hookline.core.deadlines import DeadlineClock, TaskDeadline
from hookline.core.driver import (
    ABANDON_GRACE,
    HandlerAbandoned,
    Resume,
    awaiting,
    caller_cancelled,
    is_cancellation,
    loop_running,
)
from hookline.core.events import Event

if TYPE_CHECKING:
    import asyncio

    from hookline.core.results import HookResult

#: What a failing *tool* may raise without taking the agent down (hooks are held to
#: more: every ``BaseException`` but the runner's own cancellation, see ``HandlerCalls``).
HOOK_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)


@dataclass(frozen=True, slots=True)
class HookError:
    """A hook failed: raised, timed out, or returned something invalid."""

    hook_path: str
    event: str
    error: str
    exception: BaseException | None = None

    @property
    def timed_out(self) -> bool:
        """Whether the runner's deadline ended the handler (its own ``TimeoutError`` is a
        failure like any other)."""
        return self.exception is None and self.error.startswith(TIMED_OUT)


@dataclass(frozen=True, slots=True)
class Failed:
    """A handler's outcome when it failed; ``text`` reads after the hook's name."""

    text: str
    exception: BaseException | None = None


#: How the text of a failure the runner's deadline caused begins (``HookError.timed_out``).
TIMED_OUT = "timed out after"


class DeadlineExceeded(Exception):
    """The runner's deadline ended the handler (a handler's own ``TimeoutError`` is not this)."""


def describe(exc: BaseException) -> str:
    """``Type: message``, or the type alone when the message is empty (or cannot be made:
    a failure must be reported whatever its ``__str__`` does); hookline's own complete
    messages (an invalid result) without the type."""
    from hookline.core.plain_errors import PlainError

    try:
        message = str(exc)
    except BaseException:
        message = "<message unprintable>"
    if isinstance(exc, PlainError) and message:
        return message
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


#: Appended to a plain handler's "no running event loop" failure where none runs.
NO_LOOP_HINT = (
    ": this plain `def` handler ran without an event loop (hookline claude-hook runs plain"
    " handlers so); a handler that needs the running loop must be `async def`"
)


def _no_loop_hint(exc: BaseException) -> str:
    """``NO_LOOP_HINT`` when ``exc`` is asyncio saying there is no loop, and none runs."""
    if type(exc) is RuntimeError and "event loop" in describe(exc) and not loop_running():
        return NO_LOOP_HINT
    return ""


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

    def seen_by(self, context: HookContext) -> HandlerCalls:
        """These calls (deadlines, clock, orphans, reports) with handlers given ``context``."""
        calls = HandlerCalls(context, self.timeout, self._report, self.grace)
        calls.clock, calls.orphans, calls.own_deadlines = (
            self.clock,
            self.orphans,
            self.own_deadlines,
        )
        return calls

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

    def resume_awaitable(self, value: Awaitable[Any]) -> Any:
        """Any other awaitable a handler returned: stepped like a coroutine (a value or a
        ``Resume``)."""
        coro = awaiting(value)
        try:
            first = coro.send(None)
        except StopIteration as stop:
            return stop.value
        return Resume(coro, first, self.grace, self.orphans)

    def deadline_of(self, path: str) -> float | None:
        """Seconds a handler of hook ``path`` may go on once it suspends (``None``: no
        deadline; hooks that keep their own, settings hooks, are not timed here)."""
        return None if path in self.own_deadlines else self.timeout

    async def settle(self, resume: Resume, seconds: float | None) -> Any:
        """Await a suspended handler under its deadline; ``DeadlineExceeded`` when it ends it."""
        import asyncio  # a handler suspended: the loop runs

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
            raise DeadlineExceeded(self.ignored(self.overdue(seconds, aborted))) from None
        except BaseException as exc:
            if not scope.expired() or caller_cancelled():
                raise
            if isinstance(exc, TimeoutError) or is_cancellation(exc):
                raise DeadlineExceeded(self.overdue(seconds, aborted)) from None
            raise DeadlineExceeded(self.overdue(seconds, aborted) + f" ({describe(exc)})") from exc
        if scope.expired():  # it swallowed the cancellation and returned anyway
            raise DeadlineExceeded(self.overdue(seconds, aborted))
        return value

    async def awaited(self, value: Awaitable[Any]) -> Any:
        """``value``, which a plain handler returned, awaited under ``timeout`` (``run_apart``
        runs this where no loop runs)."""
        started = self.resume_awaitable(value)
        if type(started) is Resume:
            return await self.settle(started, self.timeout)
        return started

    def overdue(self, seconds: float | None, aborted: bool) -> str:
        """Why a handler's wait ended: its deadline passed, or an abort expired it."""
        return "was stopped: the run was aborted" if aborted else f"{TIMED_OUT} {seconds:g} s"

    def ignored(self, overdue: str) -> str:
        """``overdue``, for a handler that also ignored its cancellation past the grace."""
        return f"{overdue} and ignored its cancellation (abandoned after {self.grace:g} s more)"

    # -- whole calls ---------------------------------------------------------------

    async def outcome(
        self, path: str, fn: Handler, event: Event, then: str = ""
    ) -> HookResult | Failed | None:
        """The handler's result, or ``Failed`` (already reported, ``then`` appended)."""
        try:
            value = self.start(fn, event)
            if type(value) is Resume:
                value = await self.settle(value, self.deadline_of(path))
            return None if value is None else coerce(event.type, value)
        except BaseException as exc:
            return self.failure(path, event.type, exc, then)

    def failure(self, path: str, event: str, exc: BaseException, then: str = "") -> Failed:
        """What ``exc`` out of a handler call means: reported, as ``Failed``.

        Re-raises the caller's own cancellation: that one is not the hook's.
        """
        if type(exc) is DeadlineExceeded:
            return self.failed(path, event, str(exc), None, then)
        if is_cancellation(exc) and caller_cancelled():
            raise exc
        return self.failed(path, event, f"failed ({describe(exc)}){_no_loop_hint(exc)}", exc, then)

    async def guarded(self, path: str, fn: Handler, event: Event) -> HookResult | None:
        """The handler's result; ``None`` on failure (reported, the chain goes on)."""
        result = await self.outcome(path, fn, event)
        return None if type(result) is Failed else result  # type: ignore[return-value]

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
        what = text if exc is None else describe(exc) + _no_loop_hint(exc)
        self._report(HookError(path, event, f"{what}; {then}" if then else what, exc))
        return Failed(text, exc)

    def abandon_inflight(self) -> int:
        """End every handler now waiting on a deadline (an abort); how many there were."""
        return self.clock.abandon_all()


# -- direct rules ------------------------------------------------------------------------

AsyncHandler = Callable[[Event, HookContext], Coroutine[Any, Any, Any]]
Entry = tuple[str, AsyncHandler]  # (hook path, handler made async by ``as_async``)


class Late(list[str]):
    """What the driver tells a direct rule about the handler the rule just awaited.

    Empty while every deadline holds, so the rule's check after each handler is
    ``if late:``, the cheapest test there is. The driver appends the deadline's
    text when it cancelled that handler (the handler may have returned all the
    same: ``late.timeout()`` is its failure), and sets ``abandoned`` when it gave
    up on the rule's run (the rule then ends without a word: the rule's
    ``abandoned`` continuation answers instead).
    """

    abandoned: bool = False

    def timeout(self) -> DeadlineExceeded:
        """The handler returned after its deadline cancelled it: it timed out all the same."""
        return DeadlineExceeded(self.pop())

    def failure(self, exc: BaseException) -> BaseException:
        """What ``exc`` out of the running handler means: the end of its deadline, or itself."""
        if not self or type(exc) is DeadlineExceeded or caller_cancelled():
            return exc
        late = self.pop()
        if isinstance(exc, TimeoutError) or is_cancellation(exc):
            return DeadlineExceeded(late)
        return DeadlineExceeded(f"{late} ({describe(exc)})")


#: ``(calls, event, handlers, late)``: a direct rule's run; ``handlers`` iterates the
#: entries (``rules``' docstring has the contract).
RuleRun = Callable[[HandlerCalls, Event, Iterator[Entry], Late], Coroutine[Any, Any, Any]]
#: ``(calls, event, entries, index, text)``: the answer when handler ``index`` was abandoned.
RuleAbandoned = Callable[[HandlerCalls, Event, list[Entry], int, str], Awaitable[Any]]


@final
@dataclass(frozen=True, slots=True)
class DirectRule:
    """A rule that awaits its handlers inline, and what it answers when one is abandoned."""

    run: RuleRun
    abandoned: RuleAbandoned = field(repr=False)


def as_async(fn: Handler, calls: HandlerCalls) -> AsyncHandler:
    """``fn`` itself when it is an ``async def``; else a coroutine function that calls it
    (and awaits what it returns when that is awaitable), so direct rules always ``await``.

    Only an ``async def`` handler makes its event need an event loop (``run_inline``);
    an awaitable a plain one returns where no loop runs gets a loop of its own
    (``run_apart``).
    """
    if inspect.iscoroutinefunction(fn):
        return cast(AsyncHandler, fn)

    async def call(event: Event, ctx: HookContext) -> Any:
        value = fn(event, ctx)
        if value is not None and isinstance(value, Awaitable):
            if not loop_running():
                from hookline.core.loopless import run_apart  # no loop runs: it is needed

                return run_apart(calls.awaited(value))
            return await value
        return value

    return call


def start_direct(calls: HandlerCalls, rule: DirectRule, event: Event, entries: list[Entry]) -> Any:
    """Run ``rule`` to its end or its first suspension: its result, or a ``Resume`` to
    await (test with ``type(x) is Resume``)."""
    late = Late()
    handlers = iter(entries)
    coro = rule.run(calls, event, handlers, late)
    try:
        first = coro.send(None)
    except StopIteration as stop:
        return stop.value
    return supervised(calls, rule, event, entries, handlers, late, coro, first)


def supervised(
    calls: HandlerCalls,
    rule: DirectRule,
    event: Event,
    entries: list[Entry],
    handlers: Iterator[Entry],
    late: Late,
    coro: Coroutine[Any, Any, Any],
    first: Any,
) -> Resume:
    """The driver of a direct rule's run that suspended at ``first``."""
    deadlines = RuleDeadlines(calls, rule, event, entries, handlers, late)
    return Resume(coro, first, calls.grace, calls.orphans, deadlines)


class RuleDeadlines:
    """The deadlines of a direct rule's run that suspended: the ``driver.Watch`` of it.

    Each handler the rule waits in gets a ``TaskDeadline``; one that passes cancels
    the task, and the cancellation is taken back (``uncancel``) before the handler
    sees it, so only the caller's own cancellation counts as the caller's. Which
    handler the rule waits in is the one it took last from ``handlers``, a list
    iterator over ``entries`` (it knows how many are left): the rule says so by
    the way it loops, no frame is read.
    """

    __slots__ = (
        "_calls",
        "_deadline",
        "_entries",
        "_event",
        "_handlers",
        "_late",
        "_loop",
        "_rule",
        "_seconds",
        "_task",
    )

    def __init__(
        self,
        calls: HandlerCalls,
        rule: DirectRule,
        event: Event,
        entries: list[Entry],
        handlers: Iterator[Entry],
        late: Late,
    ) -> None:
        self._calls = calls
        self._rule = rule
        self._event = event
        self._entries = entries
        self._handlers = handlers
        self._late = late
        self._deadline: TaskDeadline | None = None
        self._seconds: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None

    def waiting_in(self) -> int:
        """The index in ``entries`` of the handler the rule waits in: the last it took."""
        return len(self._entries) - length_hint(self._handlers) - 1

    def entered(self) -> None:
        calls, loop, task = self._calls, self._loop, self._task
        if loop is None or task is None:  # the first handler: the rule's run just suspended
            import asyncio

            loop = self._loop = asyncio.get_running_loop()
            task = self._task = asyncio.current_task()
            assert task is not None
        self.left()
        seconds = self._seconds = calls.deadline_of(self._entries[self.waiting_in()][0])
        when = None if seconds is None else loop.time() + seconds
        self._deadline = TaskDeadline(loop, task, when)
        calls.clock.start(self._deadline)

    def arrived(self, exc: BaseException) -> None:
        deadline = self._deadline
        assert deadline is not None
        if deadline.take(exc):
            aborted = self._calls.clock.stop(deadline)
            self._late.append(self._calls.overdue(self._seconds, aborted))

    def left(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._calls.clock.stop(self._deadline)

    def give_up(self) -> None:
        self._late.abandoned = True

    def answer(self) -> Awaitable[Any]:
        calls, late = self._calls, self._late
        text = calls.ignored(late.pop() if late else "was stopped")
        return self._rule.abandoned(calls, self._event, self._entries, self.waiting_in(), text)


def coerce(event_type: str, value: Any) -> HookResult | None:
    """``results.coerce_result``, imported on the first value a handler returns: a run whose
    handlers return nothing never loads the result models (pydantic)."""
    from hookline.core.results import coerce_result

    return coerce_result(event_type, value)
