"""``HookRunner``: dispatches events to loaded hooks with the seeds' combination rules.

Hot-path notes (DESIGN.md §7): handlers are called directly and an
``async def`` handler is stepped by hand until it first suspends; only a
handler that really suspends is put under the ``hook_timeout`` deadline, so a
handler that answers at once costs about what the floor costs.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from types import CoroutineType
from typing import Any, TypeVar, cast

from hookline.core.api import (
    Handler,
    LoadedHook,
    MessageRenderer,
    RegisteredCommand,
    RegisteredShortcut,
)
from hookline.core.calling import HOOK_FAILURES, DeadlineExceeded, Pending, Resume, under_deadline
from hookline.core.context import CommandContext, HookContext
from hookline.core.events import (
    ContextEvent,
    Event,
    InputEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from hookline.core.host import AgentHost, DetachedHost
from hookline.core.messages import Message
from hookline.core.results import (
    ContextResult,
    HookResult,
    InputResult,
    ToolCallResult,
    ToolResultResult,
    coerce_result,
)
from hookline.core.rules import RULES, CombinationRules, Entry
from hookline.core.tool import Tool
from hookline.core.ui import HookUI

log = logging.getLogger("hookline")

DEFAULT_HOOK_TIMEOUT = 30.0

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class HookError:
    """A hook failed: raised, timed out, or returned something invalid."""

    hook_path: str
    event: str
    error: str
    exception: BaseException | None = None


ErrorListener = Callable[[HookError], None]


class HookRunner(CombinationRules):
    """Holds loaded hooks and emits events to them.

    Handler order is load order, then registration order. ``tool_call`` has no
    timeout and fails closed; every other event runs each handler under
    ``timeout`` seconds, reports failures to ``on_error`` listeners and goes on.
    """

    def __init__(
        self,
        hooks: Iterable[LoadedHook] = (),
        *,
        cwd: str = ".",
        timeout: float | None = DEFAULT_HOOK_TIMEOUT,
        host: AgentHost | None = None,
    ) -> None:
        self.timeout = timeout
        self._own_deadlines: set[str] = set()
        self.context = HookContext(cwd, host)
        self.hooks: list[LoadedHook] = []
        self._handlers: dict[str, list[Entry]] = {}
        self._listeners: list[ErrorListener] = []
        for hook in hooks:
            self.add_hook(hook)

    # -- set-up ------------------------------------------------------------

    def add_hook(self, hook: LoadedHook, api: Any = None) -> None:
        """Append a hook after those already loaded; ``api`` (its HookAPI) gets bound."""
        self.hooks.append(hook)
        for event, fns in hook.handlers.items():
            entries = self._handlers.setdefault(event, [])
            entries.extend((hook.path, fn) for fn in fns)
        if hook.own_deadlines:
            self._own_deadlines.add(hook.path)
        if api is not None:
            api._bind(self.context)

    def bind_host(self, host: AgentHost) -> None:
        """Attach the agent; what hooks sent before is replayed into it in order."""
        previous = self.context.host
        self.context.host = host
        if isinstance(previous, DetachedHost):
            host.set_system_prompt(previous.system_prompt or host.get_system_prompt())
            previous.replay_into(host)

    def set_ui(self, ui: HookUI, has_ui: bool) -> None:
        self.context.ui = ui
        self.context.has_ui = has_ui

    def set_session_file(self, path: str | None) -> None:
        self.context.session_file = path

    def on_error(self, listener: ErrorListener) -> Callable[[], None]:
        """Subscribe to hook errors; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # -- queries -----------------------------------------------------------

    def has_handlers(self, event: str) -> bool:
        """True when some hook listens to ``event`` (callers skip building events otherwise)."""
        return event in self._handlers

    def get_command(self, name: str) -> RegisteredCommand | None:
        """The first loaded hook's command of that name."""
        for hook in self.hooks:
            if name in hook.commands:
                return hook.commands[name]
        return None

    def get_registered_commands(self) -> list[RegisteredCommand]:
        """Every registered command, duplicates included, in load order."""
        return [cmd for hook in self.hooks for cmd in hook.commands.values()]

    def get_registered_shortcuts(self) -> dict[str, RegisteredShortcut]:
        """Hook shortcuts by normalized key; the first loaded hook wins a key."""
        shortcuts: dict[str, RegisteredShortcut] = {}
        for hook in self.hooks:
            for key, shortcut in hook.shortcuts.items():
                shortcuts.setdefault(key, shortcut)
        return shortcuts

    def get_message_renderer(self, custom_type: str) -> MessageRenderer | None:
        for hook in self.hooks:
            if custom_type in hook.renderers:
                return hook.renderers[custom_type]
        return None

    def get_registered_tools(self) -> dict[str, Tool]:
        """Hook tools by name; the first loaded hook wins a name."""
        tools: dict[str, Tool] = {}
        for hook in self.hooks:
            for name, tool in hook.tools.items():
                tools.setdefault(name, tool)
        return tools

    # -- errors --------------------------------------------------------------

    def report(self, hook_path: str, event: str, error: str | BaseException) -> None:
        """Send a ``HookError`` to the listeners (or the log when there are none)."""
        exc = error if isinstance(error, BaseException) else None
        text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        err = HookError(hook_path, event, text, exc)
        if not self._listeners:
            log.warning("hook %s failed on %s: %s", hook_path, event, text)
        for listener in list(self._listeners):
            try:
                listener(err)
            except HOOK_FAILURES:  # a broken listener must not break dispatch
                log.exception("hook error listener failed")

    # -- calling one handler -------------------------------------------------

    def _start(self, fn: Handler, event: Event) -> Any:
        """Run ``fn`` until it first suspends: its value, or a ``Pending`` to await.

        Plain function calls, no coroutine of our own: a handler that answers at
        once costs about what the floor costs.
        """
        value = fn(event, self.context)
        if value is None:
            return None
        if type(value) is CoroutineType:
            try:
                first = value.send(None)
            except StopIteration as stop:
                return stop.value
            return Pending(Resume(value, first))
        if isinstance(value, Awaitable):
            return Pending(value)
        return value

    async def _call(self, fn: Handler, event: Event, timeout: float | None) -> Any:
        value = self._start(fn, event)
        if type(value) is not Pending:
            return value
        if timeout is None:
            return await value.awaitable
        return await under_deadline(value.awaitable, timeout)

    def _deadline(self, path: str) -> float | None:
        """The runner's timeout, unless the hook keeps its own (settings hooks do)."""
        return None if path in self._own_deadlines else self.timeout

    async def _guarded(self, path: str, fn: Handler, event: Event) -> HookResult | None:
        """Call under the timeout; report and return None on any failure."""
        try:
            value = self._start(fn, event)
            if type(value) is Pending:
                timeout = self._deadline(path)
                if timeout is None:
                    value = await value.awaitable
                else:
                    value = await under_deadline(value.awaitable, timeout)
            return None if value is None else coerce_result(event.type, value)
        except DeadlineExceeded:
            self.report(path, event.type, f"timed out after {self.timeout:g}s")
        except HOOK_FAILURES as exc:
            self.report(path, event.type, exc)
        return None

    # -- emitting ------------------------------------------------------------

    async def emit(self, event: Event) -> HookResult | None:
        """Emit ``event`` with its combination rule; returns the combined result."""
        entries = self._handlers.get(event.type)
        if not entries:
            return None
        rule = RULES.get(event.type, CombinationRules._notify)
        return await rule(self, event, entries)

    async def emit_tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """``tool_call``: first block wins, a failing handler blocks, input rewrites chain."""
        return cast(ToolCallResult | None, await self.emit(event))

    async def emit_tool_result(self, event: ToolResultEvent) -> ToolResultResult | None:
        return cast(ToolResultResult | None, await self.emit(event))

    async def emit_context(self, messages: list[Message]) -> list[Message]:
        """The messages after every ``context`` handler, each fed the previous output."""
        result = await self.emit(ContextEvent(messages=messages))
        if isinstance(result, ContextResult) and result.messages is not None:
            return result.messages
        return messages

    async def emit_input(self, event: InputEvent) -> InputResult | None:
        return cast(InputResult | None, await self.emit(event))

    async def run_command(self, name: str, args: str = "") -> bool:
        """Run slash command ``name``; False when no hook registered it. Errors are reported."""
        command = self.get_command(name)
        if command is None:
            return False
        ctx = CommandContext(self.context)
        try:
            value = command.handler(args, ctx)
            if isinstance(value, Awaitable):
                await value
        except HOOK_FAILURES as exc:
            self.report(command.hook_path, f"command:{name}", exc)
        return True

    async def run_shortcut(self, key: str) -> bool:
        """Run the hook shortcut bound to normalized ``key``; False when none is. Errors are
        reported like a command's."""
        shortcut = self.get_registered_shortcuts().get(key)
        if shortcut is None:
            return False
        try:
            value = shortcut.handler(CommandContext(self.context))
            if isinstance(value, Awaitable):
                await value
        except HOOK_FAILURES as exc:
            self.report(shortcut.hook_path, f"shortcut:{key}", exc)
        return True
