"""Retrying transient model errors with exponential backoff.

The SDK clients are built with their own retries off so that every retry goes
through here and the agent can report it (``auto_retry_start``/``auto_retry_end``).
"""

from __future__ import annotations

import asyncio
import inspect
import random
from collections.abc import Awaitable, Callable
from typing import Any

from hookline.agent.provider import ModelRequest, Provider, ProviderError, TextDelta
from hookline.agent.providers._common import PartialReply, run_abortable
from hookline.core.messages import AssistantMessage

#: ``(attempt, max_attempts, delay_ms, error)``; ``attempt`` numbers the call about to run.
RetryStart = Callable[[int, int, int, str], Awaitable[None] | None]
#: ``(success, attempt, final_error)``; ``attempt`` numbers the last call made.
RetryEnd = Callable[[bool, int, str | None], Awaitable[None] | None]


async def complete_with_retry(
    provider: Provider,
    request: ModelRequest,
    on_text: TextDelta | None = None,
    *,
    max_attempts: int = 3,
    base_delay: float = 0.5,
    max_delay: float = 30.0,
    on_retry_start: RetryStart | None = None,
    on_retry_end: RetryEnd | None = None,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    jitter: Callable[[float], float] | None = None,
    cancel_retry: asyncio.Event | None = None,
) -> AssistantMessage:
    """``provider.complete`` with up to ``max_attempts`` calls in all.

    A transient ``ProviderError`` waits ``base_delay * 2**(n-1)`` seconds plus up to a
    quarter more at random (``jitter``, so many agents hitting one limit do not retry
    in step), at least the server's ``retry-after`` when it sent one, capped at
    ``max_delay``, and calls again; a non-transient one is raised at once.
    ``on_retry_start`` runs before each wait, ``on_retry_end`` once when a retry
    sequence ends (success, a final error, or an abort during the wait, which
    returns an ``aborted`` message). Without a retry neither is called. Text
    streamed by a failed attempt is not taken back: ``on_text`` sees it again.

    ``cancel_retry`` (RPC's ``abort_retry``) stops retrying without aborting the
    run: a wait in progress ends at once, ``on_retry_end`` reports
    ``RETRY_CANCELLED`` and the last error is raised. It is cleared as each wait
    starts: only a wait in progress is cancelled, never a later one.
    """
    attempt = 1
    while True:
        try:
            message = await provider.complete(request, on_text)
        except ProviderError as exc:
            if not exc.transient or attempt >= max_attempts:
                if attempt > 1:
                    await _call(on_retry_end, False, attempt, str(exc))
                raise
            delay = retry_delay(attempt, exc.retry_after, base_delay, max_delay, jitter)
            attempt += 1
            if cancel_retry is not None:
                cancel_retry.clear()  # before anyone hears of the wait: a cancel now counts
            await _call(on_retry_start, attempt, max_attempts, round(delay * 1000), str(exc))
            stop = _Either(request.signal, cancel_retry)
            try:
                aborted, _ = await run_abortable(_wait(sleep, delay), stop.event)
            finally:
                stop.close()
            if aborted and request.signal is not None and request.signal.is_set():
                await _call(on_retry_end, False, attempt - 1, "aborted")
                return PartialReply(model=provider.model_id).aborted()
            if aborted:
                await _call(on_retry_end, False, attempt - 1, RETRY_CANCELLED)
                raise exc
            continue
        if attempt > 1:
            await _call(on_retry_end, True, attempt, None)
        return message


#: ``auto_retry_end``'s ``final_error`` when the wait was cancelled (pi's words).
RETRY_CANCELLED = "Retry cancelled"


class _Either:
    """One event set when either of two is (a relay task; ``close`` ends it)."""

    def __init__(self, a: asyncio.Event | None, b: asyncio.Event | None) -> None:
        sources = [e for e in (a, b) if e is not None]
        self.event: asyncio.Event | None = None
        self._relays: list[asyncio.Task[None]] = []
        if len(sources) == 1:
            self.event = sources[0]
        elif sources:
            self.event = asyncio.Event()
            self._relays = [asyncio.ensure_future(_relay(e, self.event)) for e in sources]

    def close(self) -> None:
        for relay in self._relays:
            relay.cancel()


async def _relay(source: asyncio.Event, target: asyncio.Event) -> None:
    await source.wait()
    target.set()


def retry_delay(
    attempt: int,
    retry_after: float | None,
    base_delay: float,
    max_delay: float,
    jitter: Callable[[float], float] | None = None,
) -> float:
    """Seconds to wait before call ``attempt + 1``: exponential backoff with jitter, never
    less than the server's ``retry-after``, never more than ``max_delay``."""
    backoff = float(base_delay * 2 ** (attempt - 1))
    backoff += (jitter or _jitter)(backoff)
    if retry_after is not None:
        backoff = max(backoff, retry_after)
    return float(min(backoff, max_delay))


def _jitter(delay: float) -> float:
    return random.uniform(0, delay / 4)


async def _wait(sleep: Callable[[float], Awaitable[Any]], delay: float) -> None:
    await sleep(delay)


async def _call(callback: Callable[..., Awaitable[None] | None] | None, *args: Any) -> None:
    """Run a sync or async callback."""
    if callback is None:
        return
    result = callback(*args)
    if inspect.isawaitable(result):
        await result
