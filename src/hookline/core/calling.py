"""Calling handlers: cheap when they answer at once, bounded when they do not.

Two ways, one set of promises:

- *direct* rules (``tool_call``, ``tool_result``, notifications: the hot
  events) ``await`` each handler inline; only the rule's coroutine is stepped
  by hand, once per emit (``start_direct``). If it suspends, a ``Supervised``
  driver takes over: it sees which handler the chain is waiting in
  (``cr_await``) and gives that handler its own ``TaskDeadline``; a handler
  that swallows its cancellation is driven in a task of its own for the grace,
  then abandoned with the rest of the chain's run, and the rule's
  ``abandoned`` continuation answers instead (a block, a withheld output, or
  the remaining notification handlers);
- every other rule calls ``HandlerCalls.outcome``: each handler is stepped by
  hand to its first suspension and, if it suspends, resumed under an
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
import sys
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass, field
from types import CoroutineType
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

from hookline.core.api import Handler
from hookline.core.context import HookContext
from hookline.core.deadlines import DeadlineClock, TaskDeadline
from hookline.core.events import Event

if TYPE_CHECKING:
    import asyncio

    from hookline.core.results import HookResult

#: What a failing *tool* may raise without taking the agent down (hooks are held to
#: more: every ``BaseException`` but the runner's own cancellation, see ``HandlerCalls``).
HOOK_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)

T = TypeVar("T")

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
    """``Type: message``, or the type alone when the message is empty (or cannot be made:
    a failure must be reported whatever its ``__str__`` does)."""
    try:
        message = str(exc)
    except BaseException:
        message = "<message unprintable>"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


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
                if self._grace is not None and is_cancellation(exc):
                    yield from self._abandon(yielded, self._grace)
            else:
                try:
                    yielded = coro.send(sent)
                except StopIteration as stop:
                    return stop.value

    def _abandon(self, yielded: Any, grace: float) -> Generator[Any, Any, NoReturn]:
        """The coroutine swallowed its cancellation: let it run detached, wait ``grace``."""
        import asyncio

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


async def _drive(resume: Awaitable[Any]) -> Any:
    return await resume


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Fetch a detached handler's outcome so asyncio never logs it as unretrieved."""
    if not task.cancelled():
        task.exception()


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


@dataclass(frozen=True, slots=True)
class _Raised:
    """What ``_kept`` caught."""

    exc: BaseException


async def _kept(value: Awaitable[Any]) -> Any:
    """``await value``, returning (not raising) ``KeyboardInterrupt`` and ``SystemExit``:
    asyncio lets those two out of the loop, past the task that holds them, which leaves
    the loop's own wait behind and prints the task's traceback (``run_apart``)."""
    try:
        return await value
    except (KeyboardInterrupt, SystemExit) as exc:
        return _Raised(exc)


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

    def run_apart(self, value: Awaitable[Any]) -> Any:
        """Run ``value`` to its end in an event loop of its own, under ``timeout``: a plain
        handler returned it where no loop runs (``run_inline``). One that ignores its
        cancellation is left behind after the grace, as ``settle`` leaves it."""
        import asyncio

        loop = asyncio.new_event_loop()
        task = loop.create_task(_kept(value))
        try:
            loop.run_until_complete(asyncio.wait({task}, timeout=self.timeout))
            if task.done():
                result = task.result()
                if type(result) is _Raised:
                    raise result.exc
                return result
            late = f"timed out after {self.timeout:g} s"  # whatever it does now
            if not _wind_down(loop, [task], self.grace):
                late += f" and ignored its cancellation (abandoned after {self.grace:g} s more)"
                self.orphans.add(task)  # left behind with its loop, as ``settle`` leaves one
            raise DeadlineExceeded(late)
        finally:
            if task.done() and not loop.is_closed():
                loop.close()

    async def settle(self, path: str, resume: Resume) -> Any:
        """Await a suspended handler under its deadline; ``DeadlineExceeded`` when it ends it."""
        import asyncio  # a handler suspended: the loop runs

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
            if isinstance(exc, TimeoutError) or is_cancellation(exc):
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
        what = text if exc is None else describe(exc) + _no_loop_hint(exc)
        self._report(HookError(path, event, f"{what}; {then}" if then else what, exc))
        return Failed(text, exc)

    def abandon_inflight(self) -> int:
        """End every handler now waiting on a deadline (an abort); how many there were."""
        return self.clock.abandon_all()


# -- direct rules ------------------------------------------------------------------------

AsyncHandler = Callable[[Event, HookContext], Coroutine[Any, Any, Any]]
Entry = tuple[str, AsyncHandler]  # (hook path, handler made async by ``as_async``)


class Chain(list[str]):
    """One emit of a direct rule: what the deadline of the handler it waits in decided.

    A list so that the rule's check after each handler is ``if chain:``, the
    cheapest test there is: ``Supervised`` appends the deadline's text when it
    cancelled the handler, and sets ``abandoned`` when the chain's run was
    given up on (the rule then ends without a word). The rule's loop variable
    ``entry`` names the handler it waits in (``waiting_in``).
    """

    abandoned: bool = False

    def expired(self) -> DeadlineExceeded:
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


def waiting_in(coro: CoroutineType[Any, Any, Any]) -> Entry:
    """The entry a suspended direct rule waits in: its loop variable ``entry``.

    Read from the frame only when the rule has suspended, so that the rule
    pays nothing per handler to say where it is.
    """
    frame = coro.cr_frame
    assert frame is not None
    return cast(Entry, frame.f_locals["entry"])


RuleRun = Callable[["HandlerCalls", Event, list[Entry], Chain], Coroutine[Any, Any, Any]]
#: ``(calls, event, entries, index, text)``: the answer when handler ``index`` was abandoned.
RuleAbandoned = Callable[["HandlerCalls", Event, list[Entry], int, str], Awaitable[Any]]


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
    (``calls.run_apart``).
    """
    if inspect.iscoroutinefunction(fn):
        return cast(AsyncHandler, fn)

    async def call(event: Event, ctx: HookContext) -> Any:
        value = fn(event, ctx)
        if value is not None and isinstance(value, Awaitable):
            if not loop_running():
                return calls.run_apart(value)
            return await value
        return value

    return call


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


def run_inline(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end without an event loop, as far as it never suspends.

    ``hookline claude-hook`` answers an event whose handlers are all plain
    functions this way, so a process that answers one event never imports
    asyncio. Should a step suspend anyway, the rest runs under ``asyncio.run``.
    """
    try:
        first = coro.send(None)
    except StopIteration as stop:
        result: T = stop.value
        return result
    return cast(T, run_to_end(_drive(Resume(coro, first))))


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


def _wind_down(
    loop: asyncio.AbstractEventLoop, tasks: list[asyncio.Task[Any]], grace: float
) -> bool:
    """Cancel ``tasks`` and give them ``grace`` seconds on ``loop``; True when all ended
    (the loop is then closed), False when some ignored it (left behind with the loop)."""
    import asyncio

    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.wait(tasks, timeout=grace))
    for task in tasks:
        if task.done():
            _retrieve(task)
    if not all(task.done() for task in tasks):
        return False
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()
    return True


def start_direct(calls: HandlerCalls, rule: DirectRule, event: Event, entries: list[Entry]) -> Any:
    """Run ``rule`` to its end or its first suspension: its result, or a ``Supervised`` to
    await (test with ``type(x) is Supervised``)."""
    chain = Chain()
    coro = rule.run(calls, event, entries, chain)
    try:
        first = coro.send(None)
    except StopIteration as stop:
        return stop.value
    return Supervised(calls, rule, event, entries, chain, coro, first)


class Supervised:
    """Drives a direct rule that suspended: a deadline per handler it waits in.

    The handler is the rule's ``cr_await`` (the coroutine it is awaiting), so
    the rule pays nothing per handler for this. A deadline that passes cancels
    the task; the cancellation is taken back (``uncancel``) before the handler
    sees it, so only the caller's own cancellation counts as the caller's.
    """

    __slots__ = ("_calls", "_chain", "_coro", "_entries", "_event", "_first", "_rule")

    def __init__(
        self,
        calls: HandlerCalls,
        rule: DirectRule,
        event: Event,
        entries: list[Entry],
        chain: Chain,
        coro: Coroutine[Any, Any, Any],
        first: Any,
    ) -> None:
        self._calls = calls
        self._rule = rule
        self._event = event
        self._entries = entries
        self._chain = chain
        self._coro = cast("CoroutineType[Any, Any, Any]", coro)  # an ``async def`` rule's
        self._first = first

    def __await__(self) -> Generator[Any, Any, Any]:
        import asyncio  # the rule suspended: the loop runs

        calls, chain, coro = self._calls, self._chain, self._coro
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        yielded = self._first
        watched: object = None
        deadline: TaskDeadline | None = None
        seconds: float | None = None
        try:
            while True:
                inner = coro.cr_await
                if inner is not watched:  # a new handler suspended: it gets its own deadline
                    if deadline is not None:
                        deadline.cancel()
                        calls.clock.stop(deadline)
                    watched = inner
                    path = waiting_in(coro)[0]
                    seconds = None if path in calls.own_deadlines else calls.timeout
                    when = None if seconds is None else loop.time() + seconds
                    deadline = TaskDeadline(loop, task, when)
                    calls.clock.start(deadline)
                try:
                    sent = yield yielded
                except GeneratorExit:
                    coro.close()
                    raise
                except BaseException as exc:
                    assert deadline is not None
                    ours = deadline.take(exc)
                    if ours:
                        aborted = calls.clock.stop(deadline)
                        chain.append(calls._late(seconds, aborted))
                    try:
                        yielded = coro.throw(exc)
                    except StopIteration as stop:
                        return stop.value
                    if is_cancellation(exc) and coro.cr_await is watched:
                        # It swallowed the cancellation and waits on: the grace, in a task.
                        done, value = yield from self._grace(yielded, watched)
                        if done:
                            return value
                        yielded = value
                else:
                    try:
                        yielded = coro.send(sent)
                    except StopIteration as stop:
                        return stop.value
        finally:
            if deadline is not None:
                deadline.cancel()
                calls.clock.stop(deadline)

    def _grace(self, yielded: Any, watched: object) -> Generator[Any, Any, tuple[bool, Any]]:
        """Drive the chain in a task of its own while it is still in ``watched``, at most
        ``grace`` seconds: ``(True, result)`` when the chain ended, ``(False, yielded)``
        when it moved on to another handler (this driver takes it back); past the grace
        the chain's run is abandoned and the rule's ``abandoned`` answer is returned."""
        import asyncio

        calls, chain = self._calls, self._chain
        loop = asyncio.get_running_loop()
        detached = loop.create_task(_drive(_Handoff(self._coro, yielded, watched)))
        detached.add_done_callback(_retrieve)
        waiter: asyncio.Future[None] = loop.create_future()

        def wake(_: object = None) -> None:
            if not waiter.done():
                waiter.set_result(None)

        detached.add_done_callback(wake)
        timer = loop.call_later(calls.grace, wake)
        try:
            yield from waiter
        except BaseException:
            chain.abandoned = True
            _orphan(calls.orphans, detached)
            detached.cancel()
            raise
        finally:
            timer.cancel()
            detached.remove_done_callback(wake)
        if detached.done():  # it stopped within the grace: as if it had been cooperative
            result: tuple[bool, Any] = detached.result()
            return result
        chain.abandoned = True
        _orphan(calls.orphans, detached)
        detached.cancel()  # one more request; it is not waited for
        if caller_cancelled():
            raise asyncio.CancelledError
        late = chain.pop() if chain else "was stopped"
        text = f"{late} and ignored its cancellation (abandoned after {calls.grace:g} s more)"
        entry = waiting_in(self._coro)
        index = next(i for i, each in enumerate(self._entries) if each is entry)
        answer = self._rule.abandoned(calls, self._event, self._entries, index, text)
        return True, (yield from _awaited(answer).__await__())


def _orphan(orphans: set[asyncio.Task[Any]], task: asyncio.Task[Any]) -> None:
    if not task.done():
        orphans.add(task)
        task.add_done_callback(orphans.discard)


class _Handoff:
    """Drives a chain while it waits in one handler; ``(False, yielded)`` once it waits in
    another, ``(True, result)`` when it ends."""

    __slots__ = ("_coro", "_first", "_watched")

    def __init__(self, coro: CoroutineType[Any, Any, Any], first: Any, watched: object) -> None:
        self._coro = coro
        self._first = first
        self._watched = watched

    def __await__(self) -> Generator[Any, Any, tuple[bool, Any]]:
        coro, yielded = self._coro, self._first
        while True:
            try:
                sent = yield yielded
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:
                try:
                    yielded = coro.throw(exc)
                except StopIteration as stop:
                    return True, stop.value
            else:
                try:
                    yielded = coro.send(sent)
                except StopIteration as stop:
                    return True, stop.value
            if coro.cr_await is not self._watched:
                return False, yielded


def coerce(event_type: str, value: Any) -> HookResult | None:
    """``results.coerce_result``, imported on the first value a handler returns: a run whose
    handlers return nothing never loads the result models (pydantic)."""
    from hookline.core.results import coerce_result

    return coerce_result(event_type, value)
