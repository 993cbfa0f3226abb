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
            await _call(on_retry_start, attempt, max_attempts, round(delay * 1000), str(exc))
            aborted, _ = await run_abortable(_wait(sleep, delay), request.signal)
            if aborted:
                await _call(on_retry_end, False, attempt - 1, "aborted")
                return PartialReply(model=provider.model_id).aborted()
            continue
        if attempt > 1:
            await _call(on_retry_end, True, attempt, None)
        return message


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
