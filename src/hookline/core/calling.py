"""Calling one handler cheaply: step it to its first suspension, deadline only after.

A handler that answers at once never meets a timer (DESIGN.md §7: ten
``wait_for`` calls cost ~160 µs); one that really suspends is resumed under
``asyncio.timeout``. Only the runner's own deadline counts as a timeout: a
handler's own ``TimeoutError`` is an ordinary failure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine, Generator
from typing import Any, TypeVar

T = TypeVar("T")

#: What a failing hook may raise without taking the agent down: a handler that
#: calls ``sys.exit()`` is a failed hook, not a request to end hookline.
HOOK_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)


class Resume:
    """Awaitable that continues a coroutine which already ran to its first suspension."""

    __slots__ = ("_coro", "_first")

    def __init__(self, coro: Coroutine[Any, Any, Any], first: Any) -> None:
        self._coro = coro
        self._first = first

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
            else:
                try:
                    yielded = coro.send(sent)
                except StopIteration as stop:
                    return stop.value


class DeadlineExceeded(Exception):
    """The runner's deadline expired (a handler's own ``TimeoutError`` is not this)."""


async def under_deadline(awaitable: Awaitable[T], timeout: float) -> T:
    scope = asyncio.timeout(timeout)
    try:
        async with scope:
            return await awaitable
    except TimeoutError:
        if scope.expired():
            raise DeadlineExceeded from None
        raise


class Pending:
    """A handler that suspended: what is left to await."""

    __slots__ = ("awaitable",)

    def __init__(self, awaitable: Awaitable[Any]) -> None:
        self.awaitable = awaitable
