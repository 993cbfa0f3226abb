"""``AnswerWorker``: a server's hook inputs answered off its loop, each within a deadline.

``hookline serve`` keeps one process for every event, so a plain ``def`` handler
stuck in ``while True`` or ``time.sleep`` must not stop it: the hooks run on a
thread of their own (with an event loop there for ``async`` handlers) and each
caller is answered within ``seconds`` of its event's arrival, however many
events are ahead of it (they run one at a time): Claude Code runs the tool when
its own timeout passes first. Past that the answer is a deny
(``failure_answer``); an event still queued then never runs. A handler that
runs ``seconds`` itself is stuck: its thread is reported on stderr and
abandoned, and the events queued behind it go to a new thread; module state
carries over, as it is the same modules. What the abandoned thread returns
later is dropped.

The hand-off is cheap under load: events queue on the hooks' thread, which takes
them one after the other without waiting for the server's loop in between (one
wake-up for what one turn of the server's loop brings), and one timer on the
server's loop watches the event being answered, instead of a timeout per request.
The hooks' loop is uvloop where it is installed, as the server's is.

A thread cannot be killed: code that holds the GIL without pause (a catastrophic
regular expression in C) stalls the whole server until it returns, and an
abandoned handler goes on running beside later events. ``claude-hook``, one
process per event, stops both (``hookline.bridge.watchdog``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Generic, TypeVar, cast

from hookline.bridge.engine import BridgeHooks
from hookline.bridge.mapping import ClaudeAnswer, claude_event_name, failure_answer
from hookline.bridge.metrics import NO_HOOK, Decision, claude_decision

T = TypeVar("T")


class AnswerWorker:
    """Runs ``bridge``'s events one at a time on a worker thread, each under ``seconds``."""

    def __init__(self, bridge: BridgeHooks, seconds: float, warn: Callable[[str], None]) -> None:
        self.bridge = bridge
        self.seconds = seconds
        self.abandoned = 0
        self._warn = warn
        self._thread: _HooksThread | None = None
        #: Events handed to the hooks and not answered yet (the server's loop's).
        self._flight: set[_Event[Any]] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._idle: asyncio.Event | None = None

    async def answer(self, payload: Mapping[str, Any]) -> ClaudeAnswer:
        """The hooks' answer to ``payload``, or a deny when they gave none in time."""
        started = time.perf_counter()
        event = claude_event_name(payload)
        answer, decision = await self.run(
            lambda: self.bridge.decide(payload), lambda reason: self._late(event, reason), event
        )
        self.bridge.metrics.decided(decision, started)  # never a late answer of a lost thread
        return answer

    def _late(self, event: str, reason: str) -> tuple[ClaudeAnswer, Decision]:
        """The deny for an event the hooks did not answer in time, counted as a timeout."""
        answer = failure_answer(event, reason)
        decision = claude_decision(event, NO_HOOK, answer)
        self.bridge.metrics.event_timed_out(decision.event)
        return answer, decision

    async def run(
        self, work: Callable[[], Awaitable[T]], expired: Callable[[str], T], what: str
    ) -> T:
        """``work()`` on the hooks' thread, in turn; ``expired(reason)`` when it is late.

        ``what`` names the request in the warning about an abandoned thread.
        """
        loop = asyncio.get_running_loop()
        event: _Event[T] = _Event(work, expired, what, loop.create_future())
        self._flight.add(event)
        if self._idle is not None:
            self._idle.clear()
        self._hand(event)
        if self._timer is None:
            self._timer = loop.call_later(self.seconds, self._watch)
        try:
            return await event.future
        finally:
            self._flight.discard(event)
            if not self._flight and self._idle is not None:
                self._idle.set()

    async def close(self) -> None:
        """Stop the hooks' thread once the events handed to it (if any) are answered."""
        if self._flight:
            self._idle = self._idle or asyncio.Event()
            await self._idle.wait()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._thread is not None:
            self._thread.stop()
            self._thread = None

    def _hand(self, event: _Event[Any]) -> None:
        thread = self._thread
        if thread is None:
            thread = self._thread = _HooksThread(asyncio.get_running_loop())
        thread.queue(event)

    def _watch(self) -> None:
        """The timer: answer for the event the hooks hold past ``seconds``, and look again
        when the one they run now would be late (while any event is in flight)."""
        self._timer = None
        thread = self._thread
        first = thread.first() if thread is not None else None
        if not self._flight and first is None:
            return  # idle; a handler still running for a caller already answered is watched
        # The event the hooks run, from when it began; or, when none runs, the first one
        # queued, from when it was queued: a loop stuck outside any event (a task a
        # handler left behind) starts nothing, and that must not wait for ever either.
        wait = self.seconds
        if thread is not None and first is not None:
            event, started = first
            wait = started + self.seconds - time.perf_counter()
            if wait <= 0:
                queued = thread.abandon(event)
                if queued is None:  # it moved on just now: look at the next one
                    wait = 0.0
                else:
                    self._expire(thread, event, queued)
                    wait = self.seconds
        self._answer_overdue()  # after a stuck thread was left: its queue moved on
        waiting = [e.queued for e in self._flight if not e.future.done()]
        if waiting:  # the next caller whose own deadline comes first
            wait = min(wait, min(waiting) + self.seconds - time.perf_counter())
        self._timer = asyncio.get_running_loop().call_later(max(wait, 0.001), self._watch)

    def _answer_overdue(self) -> None:
        """Deny every caller whose event arrived ``seconds`` ago: one still queued is taken
        out (it never runs); one running keeps its thread until it has had its own time."""
        now = time.perf_counter()
        thread = self._thread
        for event in [e for e in self._flight if e.queued + self.seconds <= now]:
            if event.future.done():
                continue
            dropped = thread is not None and thread.drop(event)
            why = (
                f"the hooks were busy with earlier events for {self.seconds:g} s"
                if dropped
                else f"the hooks gave no answer within {self.seconds:g} s"
            )
            event.future.set_result(event.expired(why))

    def _expire(self, thread: _HooksThread, event: _Event[Any], queued: list[_Event[Any]]) -> None:
        """Answer for ``event``, leave its thread, and hand what waited behind it to a new one."""
        self._thread = None
        self.abandoned += 1
        thread.stop()  # once the stuck handler returns
        reason = f"the hooks gave no answer within {self.seconds:g} s"
        self._warn(
            f"{event.what}: {reason}; answered for them, and the thread running them is "
            f"abandoned (still running; {self.abandoned} so far): fix the handler that blocks"
        )
        if not event.future.done():
            event.future.set_result(event.expired(reason))
        for waiting in queued:
            self._hand(waiting)


class _Event(Generic[T]):
    """One piece of work for the hooks, and where its outcome goes."""

    __slots__ = ("expired", "future", "queued", "what", "work")

    def __init__(
        self,
        work: Callable[[], Awaitable[T]],
        expired: Callable[[str], T],
        what: str,
        future: asyncio.Future[T],
    ) -> None:
        self.work = work
        self.expired = expired
        self.what = what
        self.future = future
        self.queued = time.perf_counter()

    def settle(self, value: T | None, error: Exception | None) -> None:
        """The hooks' outcome, on the server's loop (dropped when already late)."""
        if self.future.done():
            return
        if error is None:
            self.future.set_result(cast(T, value))
        else:
            self.future.set_exception(error)


class _HooksThread:
    """A thread with an event loop running queued events one at a time.

    ``queue`` (server's loop) and the thread share ``_queued`` under ``_lock``: the
    thread takes the next event only once the one before is answered, and never once
    ``abandon`` has taken what is queued.
    """

    def __init__(self, answers: asyncio.AbstractEventLoop) -> None:
        self._answers = answers
        self._lock = threading.Lock()
        self._queued: deque[_Event[Any]] = deque()
        self._draining = False
        self._waking = False
        self._abandoned = False
        #: The event being answered and when it began.
        self.running: tuple[_Event[Any], float] | None = None
        self._loop = _new_loop()
        threading.Thread(
            target=self._loop.run_forever, name="hookline-bridge-hooks", daemon=True
        ).start()

    def queue(self, event: _Event[Any]) -> None:
        """Queue ``event`` (on the server's loop). The thread is woken once the server's
        loop has queued what this turn of it brings, so one wake-up takes them all."""
        with self._lock:
            self._queued.append(event)
            wake = not (self._draining or self._waking)
            self._waking = self._waking or wake
        if wake:
            self._answers.call_soon(self._wake)

    def _wake(self) -> None:
        with self._lock:
            self._waking = False
            wake = bool(self._queued) and not self._draining
            self._draining = self._draining or wake
        if wake:
            self._loop.call_soon_threadsafe(self._start)

    def _start(self) -> None:
        self._loop.create_task(self._drain())

    def first(self) -> tuple[_Event[Any], float] | None:
        """The event being answered and when it began, or else the first one queued and
        when it was queued (None: nothing is)."""
        with self._lock:
            if self.running is not None:
                return self.running
            return (self._queued[0], self._queued[0].queued) if self._queued else None

    def abandon(self, event: _Event[Any]) -> list[_Event[Any]] | None:
        """Leave this thread if ``event`` is still ``first``: the events queued behind it
        (None: it has moved on)."""
        with self._lock:
            if self.running is not None:
                if self.running[0] is not event:
                    return None
            elif not self._queued or self._queued[0] is not event:
                return None
            else:
                self._queued.popleft()
            self._abandoned = True
            queued = list(self._queued)
            self._queued.clear()
            return queued

    def drop(self, event: _Event[Any]) -> bool:
        """Take ``event`` out of the queue if it has not begun (True: it will never run)."""
        with self._lock:
            try:
                self._queued.remove(event)
            except ValueError:
                return False
            return True

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)

    async def _drain(self) -> None:
        """Answer the queued events one after the other, in one task: an event that does not
        suspend costs no turn of the loop, so a queue is answered in one go."""
        while True:
            with self._lock:
                if self._abandoned or not self._queued:
                    self.running, self._draining = None, False
                    return
                event = self._queued.popleft()
                self.running = (event, time.perf_counter())
            value: Any = None
            error: Exception | None = None
            try:
                value = await event.work()
            except Exception as exc:
                error = exc
            except asyncio.CancelledError:  # this task itself: a new one takes the rest
                error = RuntimeError("the hooks' task was cancelled")
                self._answers.call_soon_threadsafe(event.settle, None, error)
                self._loop.call_soon(self._start)
                return
            except BaseException as exc:  # SystemExit out of a handler would stop this loop
                error = RuntimeError(f"the hooks raised {exc!r:.200}")
            self._answers.call_soon_threadsafe(event.settle, value, error)


def _new_loop() -> asyncio.AbstractEventLoop:
    """uvloop where it is installed (the ``serve`` extra has it, as uvicorn runs on it): its
    hand-overs between threads and its task steps cost the hooks' thread less."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()
