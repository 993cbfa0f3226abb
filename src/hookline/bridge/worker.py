"""``AnswerWorker``: a server's hook inputs answered off its loop, each within a deadline.

``hookline serve`` keeps one process for every event, so a plain ``def`` handler
stuck in ``while True`` or ``time.sleep`` must not stop it: the hooks run on a
thread of their own (with an event loop there for ``async`` handlers) and the
server waits for each answer at most ``seconds`` from its arrival, however many
events are ahead of it (they run one at a time). Past that the answer is a deny
(``failure_answer``), the stuck thread is reported on stderr and abandoned, and
the next event gets a new thread; module state carries over, as it is the same
modules. What the abandoned thread returns later is dropped.

A thread cannot be killed: code that holds the GIL without pause (a catastrophic
regular expression in C) stalls the whole server until it returns, and an
abandoned handler goes on running beside later events. ``claude-hook``, one
process per event, stops both (``hookline.bridge.watchdog``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

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
        self._loop: asyncio.AbstractEventLoop | None = None
        self._turn: asyncio.Lock | None = None
        self._finishing: set[asyncio.Task[None]] = set()

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

        The deadline runs from the call, not from its turn: an event queued behind slow
        ones is answered within ``seconds`` all the same. ``what`` names the request in
        the warning about an abandoned thread.
        """
        if self._turn is None:
            self._turn = asyncio.Lock()
        deadline = asyncio.get_running_loop().time() + self.seconds
        try:
            async with asyncio.timeout_at(deadline):
                await self._turn.acquire()  # one event at a time: hooks keep state
        except TimeoutError:
            return expired(f"the hooks were busy with earlier events for {self.seconds:g} s")
        begun = asyncio.get_running_loop().time()
        loop = self._loop or self._start()
        answer = asyncio.wrap_future(asyncio.run_coroutine_threadsafe(_awaited(work), loop))
        try:
            async with asyncio.timeout_at(deadline):
                result = await asyncio.shield(answer)
        except TimeoutError:
            left = begun + self.seconds - asyncio.get_running_loop().time()
            if left <= 0:  # it had its whole time: stuck
                self._turn.release()
                return expired(self._expired(what, loop))
            # Late for this caller, not stuck yet: the handler keeps the turn until it
            # returns or has run ``seconds`` itself, and only then is its thread left.
            finishing = asyncio.create_task(self._finish(answer, loop, what, left))
            self._finishing.add(finishing)
            finishing.add_done_callback(self._finishing.discard)
            return expired(f"the hooks gave no answer within {self.seconds:g} s")
        except BaseException:
            self._turn.release()
            raise
        self._turn.release()
        return result

    async def _finish(
        self, answer: asyncio.Future[Any], loop: asyncio.AbstractEventLoop, what: str, left: float
    ) -> None:
        """Wait ``left`` seconds more for a handler whose caller was answered, then leave
        its thread; the next event's turn comes after."""
        assert self._turn is not None
        try:
            await asyncio.wait_for(answer, left)
        except TimeoutError:
            self._expired(what, loop)
        except Exception:  # its caller was answered already: what it raised is dropped
            pass
        finally:
            self._turn.release()

    async def close(self) -> None:
        """Stop the hooks' thread once the event it runs (if any) has been answered."""
        if self._turn is None:
            self._turn = asyncio.Lock()
        async with self._turn:
            if self._loop is not None:
                self._loop.call_soon_threadsafe(self._loop.stop)
                self._loop = None

    def _start(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.new_event_loop()
        thread = threading.Thread(
            target=loop.run_forever, name="hookline-bridge-hooks", daemon=True
        )
        thread.start()
        self._loop = loop
        return loop

    def _expired(self, what: str, loop: asyncio.AbstractEventLoop) -> str:
        """Report and leave the stuck thread (its loop stops once the handler returns);
        the reason the answer gives."""
        self._loop = None
        self.abandoned += 1
        loop.call_soon_threadsafe(loop.stop)
        reason = f"the hooks gave no answer within {self.seconds:g} s"
        self._warn(
            f"{what}: {reason}; answered for them, and the thread running them is abandoned "
            f"(still running; {self.abandoned} so far): fix the handler that blocks"
        )
        return reason


async def _awaited(work: Callable[[], Awaitable[T]]) -> T:
    return await work()
