"""Hook deadlines whose clock stops while a UI dialog is open.

A handler that asks the user something (``ctx.ui.confirm`` ...) must not be
cut short because the user took a minute to answer: while any dialog opened
through ``ctx.ui`` is open, every running hook deadline of that runner is
paused, and it resumes with the time it had left once the last dialog closes.
The deadlines are ``asyncio.timeout`` scopes or ``TaskDeadline``s, so pausing
is a reschedule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import asyncio


class Deadline(Protocol):
    """What the clock needs of a deadline: ``asyncio.Timeout`` and ``TaskDeadline`` alike."""

    def when(self) -> float | None: ...
    def reschedule(self, when: float | None) -> None: ...
    def expired(self) -> bool: ...


class TaskDeadline:
    """Cancels ``task`` when ``when`` (loop time) passes: an ``asyncio.Timeout`` without
    the ``async with``, for a driver that sees the cancellation arrive (``take``).

    Cheaper than a scope and not tied to a block: ``calling.RuleDeadlines`` keeps
    one per suspended handler and takes the cancellation back itself.
    """

    __slots__ = ("_delivered", "_fired", "_handle", "_loop", "_task", "_when")

    def __init__(
        self, loop: asyncio.AbstractEventLoop, task: asyncio.Task[Any], when: float | None
    ) -> None:
        self._loop = loop
        self._task = task
        self._when: float | None = None
        self._handle: asyncio.Handle | None = None
        self._fired = False
        self._delivered = False
        self.reschedule(when)

    def when(self) -> float | None:
        return self._when

    def expired(self) -> bool:
        return self._fired

    def reschedule(self, when: float | None) -> None:
        """Move the deadline (``None``: no deadline); a deadline that passed stays passed."""
        if self._fired:
            return
        self.cancel()
        self._when = when
        if when is None:
            return
        if when <= self._loop.time():
            self._handle = self._loop.call_soon(self._fire)
        else:
            self._handle = self._loop.call_at(when, self._fire)

    def cancel(self) -> None:
        """Disarm (the handler ended first)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def take(self, exc: BaseException) -> bool:
        """True when ``exc`` is this deadline's cancellation arriving (once): it is taken
        back from the task, so ``task.cancelling()`` counts only the caller's requests."""
        if not self._fired or self._delivered:
            return False
        import asyncio  # a deadline fired: the loop runs

        if not isinstance(exc, asyncio.CancelledError):
            return False
        self._delivered = True
        self._task.uncancel()
        return True

    def _fire(self) -> None:
        self._handle = None
        self._fired = True
        self._task.cancel()


class DeadlineClock:
    """The running deadlines of one runner, and whether a dialog stops their clock."""

    __slots__ = ("_aborted", "_dialogs", "_left", "_running")

    def __init__(self) -> None:
        self._running: set[Deadline] = set()
        self._left: dict[Deadline, float | None] = {}
        self._dialogs = 0
        self._aborted: set[Deadline] = set()

    def start(self, scope: Deadline) -> None:
        """Track an entered scope; it starts paused when a dialog is open."""
        self._running.add(scope)
        if self._dialogs:
            self._pause(scope)

    def stop(self, scope: Deadline) -> bool:
        """Forget ``scope``; True when it was ended by ``abandon_all`` (an abort)."""
        self._running.discard(scope)
        self._left.pop(scope, None)
        if scope in self._aborted:
            self._aborted.discard(scope)
            return True
        return False

    @property
    def paused(self) -> bool:
        return self._dialogs > 0

    def dialog_opened(self) -> None:
        self._dialogs += 1
        if self._dialogs == 1:
            for scope in self._running:
                self._pause(scope)

    def dialog_closed(self) -> None:
        self._dialogs -= 1
        if self._dialogs:
            return
        loop = _loop()
        for scope, left in list(self._left.items()):
            if left is not None and not scope.expired():
                scope.reschedule(loop.time() + left)
        self._left.clear()

    def abandon_all(self) -> int:
        """Expire every running deadline now (the run was aborted); how many there were."""
        now = _loop().time()
        count = 0
        for scope in list(self._running):
            if not scope.expired():
                self._aborted.add(scope)
                self._left.pop(scope, None)
                scope.reschedule(now)
                count += 1
        self._running.clear()
        return count

    def _pause(self, scope: Deadline) -> None:
        if scope.expired() or scope in self._left:
            return
        when = scope.when()
        self._left[scope] = None if when is None else max(when - _now(), 0.0)
        scope.reschedule(None)


def _now() -> float:
    return _loop().time()


def _loop() -> asyncio.AbstractEventLoop:
    """The running loop. asyncio is imported where a deadline needs it, not at module
    import: ``claude-hook`` steps plain handlers without a loop and never imports it."""
    import asyncio

    return asyncio.get_running_loop()


class DialogPausingUI:
    """``ctx.ui`` as handlers see it: the mode's UI, with the clock stopped during dialogs.

    Only the methods that wait for a person pause (``select``, ``confirm``,
    ``input``, ``editor``, ``custom``); everything else is the wrapped UI's own.
    """

    __slots__ = ("_clock", "_open", "_ui")

    def __init__(self, ui: Any, clock: DeadlineClock) -> None:
        self._ui = ui
        self._clock = clock
        #: The dialogs open now, each run as a task of its own so it can be closed.
        self._open: set[asyncio.Task[Any]] = set()

    @property
    def wrapped(self) -> Any:
        """The mode's own UI object."""
        return self._ui

    async def _dialog(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        import asyncio

        self._clock.dialog_opened()
        dialog = asyncio.ensure_future(getattr(self._ui, name)(*args, **kwargs))
        self._open.add(dialog)
        try:
            return await dialog
        finally:
            # A handler cancelled (its deadline, an abort) while waiting: close its dialog.
            dialog.cancel()
            self._open.discard(dialog)
            self._clock.dialog_closed()

    def close_dialogs(self) -> int:
        """Close every open hook dialog (the run was aborted: each one's handler is being
        abandoned, even one that awaits its dialog from a task of its own); how many.

        A mode's UI with its own ``close_dialogs`` (RPC: it tells the client why) closes
        them itself on an abort; nothing is done here for it.
        """
        if callable(getattr(self._ui, "close_dialogs", None)):
            return 0
        open_now = [d for d in self._open if not d.done()]
        for dialog in open_now:
            dialog.cancel()
        return len(open_now)

    async def select(self, *args: Any, **kwargs: Any) -> Any:
        return await self._dialog("select", args, kwargs)

    async def confirm(self, *args: Any, **kwargs: Any) -> Any:
        return await self._dialog("confirm", args, kwargs)

    async def input(self, *args: Any, **kwargs: Any) -> Any:
        return await self._dialog("input", args, kwargs)

    async def editor(self, *args: Any, **kwargs: Any) -> Any:
        return await self._dialog("editor", args, kwargs)

    async def custom(self, *args: Any, **kwargs: Any) -> Any:
        return await self._dialog("custom", args, kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ui, name)
