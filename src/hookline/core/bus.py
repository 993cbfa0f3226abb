"""``pi.events``: a channel bus hooks use to talk to each other.

It is separate from the agent's events on purpose: a hook cannot fake a
``tool_call`` on it, and agent events never reach it. ``emit`` calls each
subscriber in subscription order; an ``async def`` subscriber is scheduled
as a task on the running loop. A subscriber's failure goes to ``on_error``
and never stops the others.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio

BusHandler = Callable[[Any], Any]
BusErrorHandler = Callable[[str, BaseException], None]


class EventBus:
    """Named channels; ``on`` returns the function that unsubscribes."""

    def __init__(self, on_error: BusErrorHandler | None = None) -> None:
        self._channels: dict[str, list[BusHandler]] = {}
        self._owners: dict[str, list[Callable[[], None]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.on_error = on_error

    def on(self, channel: str, handler: BusHandler, *, owner: str = "") -> Callable[[], None]:
        """Call ``handler(data)`` for every ``emit(channel, data)``."""
        if not callable(handler):
            raise TypeError(f"events.on({channel!r}): handler is not callable: {handler!r}")
        self._channels.setdefault(channel, []).append(handler)

        def off() -> None:
            handlers = self._channels.get(channel, [])
            if handler in handlers:
                handlers.remove(handler)

        self._owners.setdefault(owner, []).append(off)
        return off

    def has_subscribers(self) -> bool:
        """True when some channel has a subscriber."""
        return any(self._channels.values())

    def forget(self, owner: str) -> None:
        """Drop every subscription ``owner`` made (a hook that failed to load)."""
        for off in self._owners.pop(owner, []):
            off()

    def view(self, owner: str) -> BusView:
        """The bus as one hook sees it: its subscriptions are recorded as its own."""
        return BusView(self, owner)

    def emit(self, channel: str, data: Any = None) -> None:
        """Deliver ``data`` to the channel's subscribers (none: nothing happens)."""
        for handler in list(self._channels.get(channel, ())):
            try:
                value = handler(data)
            except Exception as exc:
                self._failed(channel, exc)
                continue
            if inspect.isawaitable(value):
                import asyncio  # only an async subscriber needs the loop

                task = asyncio.ensure_future(value)
                self._tasks.add(task)
                task.add_done_callback(functools.partial(self._settled, channel))

    def _settled(self, channel: str, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self._failed(channel, task.exception())  # type: ignore[arg-type]

    def _failed(self, channel: str, exc: BaseException) -> None:
        if self.on_error is not None:
            self.on_error(channel, exc)

    def clear(self) -> None:
        """Forget every subscriber (a reload starts from an empty bus)."""
        self._channels.clear()
        self._owners.clear()


class BusView:
    """``pi.events``: ``on`` and ``emit`` on the shared bus, on behalf of one hook."""

    def __init__(self, bus: EventBus, owner: str) -> None:
        self.bus = bus
        self.owner = owner

    def on(self, channel: str, handler: BusHandler) -> Callable[[], None]:
        """Call ``handler(data)`` for every ``emit(channel, data)``; returns ``off()``."""
        return self.bus.on(channel, handler, owner=self.owner)

    def emit(self, channel: str, data: Any = None) -> None:
        """Deliver ``data`` to every hook subscribed to ``channel``."""
        self.bus.emit(channel, data)
