"""``HookRunner``: dispatches events to loaded hooks with the combination rules (README table).

Hot-path notes: ``tool_call``, ``tool_result`` and notifications await their
handlers inline, and only the rule's coroutine is stepped by hand, once per
emit; only a handler that really suspends is put under the ``hook_timeout``
deadline, so handlers that answer at once cost about what awaiting them
costs. How handlers are called lives in ``calling``, how several combine in
``rules``; the runner owns one ``HandlerCalls`` and picks the rule.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from hookline.core import events
from hookline.core.api import (
    HookAPI,
    LoadedHook,
    MessageRenderer,
    RegisteredCommand,
    RegisteredFlag,
    RegisteredShortcut,
    StreamRule,
)
from hookline.core.calling import (
    DirectRule,
    Entry,
    HandlerCalls,
    HookError,
    Late,
    as_async,
    describe,
    start_direct,
    supervised,
)
from hookline.core.context import CommandContext, HeadlessContext, HookContext
from hookline.core.deadlines import DialogPausingUI
from hookline.core.driver import ABANDON_GRACE, Resume, caller_cancelled, is_cancellation
from hookline.core.events import Event
from hookline.core.host import AgentHost, DetachedHost
from hookline.core.messages import Message
from hookline.core.rules import (
    NOTIFY,
    RULE_OF,
    TOOL_CALL,
    TOOL_RESULT,
    run_tool_call,
)
from hookline.core.tool import Tool, ToolWrapperExecute
from hookline.core.ui import HookUI

if TYPE_CHECKING:
    import asyncio

    from hookline.core.events import InputEvent, ToolCallEvent, ToolResultEvent
    from hookline.core.resources import SlashCommandInfo

    # Annotations only: the result models (pydantic) load when a handler returns a value.
    from hookline.core.results import HookResult, InputResult, ToolCallResult, ToolResultResult

log = logging.getLogger("hookline")

DEFAULT_HOOK_TIMEOUT = 30.0

T = TypeVar("T")


__all__ = ["DEFAULT_HOOK_TIMEOUT", "ErrorListener", "HookError", "HookRunner"]

ErrorListener = Callable[[HookError], None]


class HookRunner:
    """Holds loaded hooks and emits events to them.

    Handler order is load order, then registration order. Every handler that
    suspends runs under ``timeout`` seconds (``None``: no deadline), whose clock
    stops while the handler waits on a ``ctx.ui`` dialog; a handler that
    ignores its cancellation is abandoned ``grace`` seconds later. ``tool_call``
    fails closed (a failing or late handler blocks the call), ``tool_result``
    too (its output is withheld); every other event reports failures to
    ``on_error`` listeners and goes on. Whatever a hook raises, ``BaseException``
    included, is its failure: only the caller's own cancellation propagates.
    """

    def __init__(
        self,
        hooks: Iterable[LoadedHook] = (),
        *,
        cwd: str = ".",
        timeout: float | None = DEFAULT_HOOK_TIMEOUT,
        host: AgentHost | None = None,
        grace: float = ABANDON_GRACE,
    ) -> None:
        self.context = HookContext(cwd, host)
        self._calls = HandlerCalls(self.context, timeout, self._dispatch_error, grace)
        self.hooks: list[LoadedHook] = []
        self._handlers: dict[str, list[Entry]] = {}
        #: Events some ``async def`` handler listens to (``runs_inline``).
        self._async_events: set[str] = set()
        self._listeners: list[ErrorListener] = []
        #: Tool names registered by more than one hook: (name, winner path, loser path).
        self._conflicts_reported: set[tuple[str, str]] = set()
        for hook in hooks:
            self.add_hook(hook)

    @property
    def timeout(self) -> float | None:
        """Seconds a suspended handler may take (``hookTimeout``); ``None`` for no deadline."""
        return self._calls.timeout

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        self._calls.timeout = value

    # -- set-up ------------------------------------------------------------

    def add_hook(self, hook: LoadedHook, api: HookAPI | None = None) -> None:
        """Append a hook after those already loaded; its ``api`` gets the runner's context."""
        self.hooks.append(hook)
        for event, fns in hook.handlers.items():
            entries = self._handlers.setdefault(event, [])
            for fn in fns:
                call = as_async(fn, self._calls)
                entries.append((hook.path, call))
                if call is fn:
                    self._async_events.add(event)
        if hook.own_deadlines:
            self._calls.own_deadlines.add(hook.path)
        if api is not None:
            api.bind_context(self.context)

    def replace_hooks(
        self, old: Iterable[LoadedHook], new: Iterable[tuple[LoadedHook, HookAPI | None]]
    ) -> None:
        """Swap the hooks ``old`` for ``new`` (a reload): the new ones come first, in their
        order, before the hooks that stay; their APIs get bound."""
        gone = {id(hook) for hook in old}
        kept = [hook for hook in self.hooks if id(hook) not in gone]
        self.hooks = []
        self._handlers = {}
        self._async_events = set()
        self._conflicts_reported.clear()
        for hook, api in new:
            self.add_hook(hook, api)
        for hook in kept:
            self.add_hook(hook)

    def bind_host(self, host: AgentHost) -> None:
        """Attach the agent; what hooks sent before is replayed into it in order."""
        previous = self.context.attach(host)
        if isinstance(previous, DetachedHost):
            host.set_system_prompt(previous.system_prompt or host.get_system_prompt())
            previous.replay_into(host)

    def set_ui(self, ui: HookUI, has_ui: bool) -> None:
        """Give handlers ``ui``; while one of its dialogs is open, hook deadlines stand still."""
        self.context.ui = cast(HookUI, DialogPausingUI(ui, self._calls.clock))
        self.context.has_ui = has_ui

    #: pi's name for ``set_ui``.
    set_ui_context = set_ui

    def on_error(self, listener: ErrorListener) -> Callable[[], None]:
        """Subscribe to hook errors; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # -- queries -----------------------------------------------------------

    def has_handlers(self, event: str) -> bool:
        """True when some hook listens to ``event`` (callers skip building events otherwise)."""
        return event in self._handlers

    def runs_inline(self, event: str) -> bool:
        """True when every handler of ``event`` is a plain function: its ``emit`` can be
        stepped without an event loop (``loopless.run_inline``)."""
        return event not in self._async_events

    def get_command(self, name: str) -> RegisteredCommand | None:
        """The first loaded hook's command of that name."""
        for hook in self.hooks:
            if name in hook.commands:
                return hook.commands[name]
        return None

    def get_registered_commands(self) -> list[RegisteredCommand]:
        """Every registered command, duplicates included, in load order."""
        return [cmd for hook in self.hooks for cmd in hook.commands.values()]

    def slash_commands(self) -> list[SlashCommandInfo]:
        """The hooks' commands as ``get_commands()`` lists them (``source="extension"``)."""
        from hookline.core.resources import SlashCommandInfo

        return [
            SlashCommandInfo(c.name, c.description, "extension", path=c.hook_path or None)
            for c in self.get_registered_commands()
        ]

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
        """Hook tools by name; the first loaded hook wins a name, and each other hook that
        registered it is reported once (``register_tool``, naming the winner)."""
        tools: dict[str, Tool] = {}
        owners: dict[str, str] = {}
        for hook in self.hooks:
            for name, tool in hook.tools.items():
                if name not in tools:
                    tools[name] = tool
                    owners[name] = hook.path
                elif (name, hook.path) not in self._conflicts_reported:
                    self._conflicts_reported.add((name, hook.path))
                    self.report(
                        hook.path,
                        "register_tool",
                        f"tool {name!r} is also registered by {owners[name]}, which was loaded "
                        f"first and wins; this hook's {name!r} is not used (rename one)",
                    )
        return tools

    def get_tool_owners(self) -> dict[str, str]:
        """The path of the hook whose tool is used, by tool name."""
        owners: dict[str, str] = {}
        for hook in self.hooks:
            for name in hook.tools:
                owners.setdefault(name, hook.path)
        return owners

    def get_tool_wrappers(self) -> list[tuple[str, ToolWrapperExecute]]:
        """``wrap_tool`` registrations in load order (applied innermost first)."""
        return [w for hook in self.hooks for w in hook.tool_wrappers]

    def get_registered_flags(self) -> dict[str, RegisteredFlag]:
        """Hook flags by name; the first loaded hook wins a name."""
        flags: dict[str, RegisteredFlag] = {}
        for hook in self.hooks:
            for name, flag in hook.flags.items():
                flags.setdefault(name, flag)
        return flags

    def get_stream_rules(self) -> list[StreamRule]:
        """Every hook's stream rules, in load order."""
        return [rule for hook in self.hooks for rule in hook.stream_rules]

    # -- errors --------------------------------------------------------------

    def report(self, hook_path: str, event: str, error: str | BaseException) -> None:
        """Send a ``HookError`` to the listeners (or the log when there are none)."""
        exc = error if isinstance(error, BaseException) else None
        text = error if isinstance(error, str) else describe(error)
        self._dispatch_error(HookError(hook_path, event, text, exc))

    def _dispatch_error(self, err: HookError) -> None:
        if not self._listeners:
            log.warning("hook %s failed on %s: %s", err.hook_path, err.event, err.error)
        for listener in list(self._listeners):
            try:
                listener(err)
            except Exception:  # a broken listener must not break dispatch
                log.exception("hook error listener failed")

    # -- deadlines -------------------------------------------------------------

    def abandon_inflight(self) -> int:
        """Stop waiting for every handler now running (an abort); how many there were.

        Each is cancelled at once, as if its deadline had passed: a ``tool_call``
        handler's call is blocked, a ``tool_result`` handler's output withheld.
        One that ignores the cancellation is abandoned after the grace.
        """
        self.close_dialogs()
        return self._calls.abandon_inflight()

    def close_dialogs(self) -> int:
        """Close every dialog hooks have open (an abort); how many there were."""
        ui = self.context.ui
        return ui.close_dialogs() if isinstance(ui, DialogPausingUI) else 0

    @property
    def orphans(self) -> set[asyncio.Task[Any]]:
        """Handlers abandoned after their deadline that are still running."""
        return self._calls.orphans

    # -- emitting ------------------------------------------------------------

    async def emit(
        self, event: Event, *, where: Callable[[str], bool] | None = None
    ) -> HookResult | None:
        """Emit ``event`` with its combination rule; returns the combined result.

        ``where``: only the handlers of the hooks whose path it accepts.
        """
        name = event.type
        entries = self._handlers.get(name)
        if entries and where is not None:
            entries = [entry for entry in entries if where(entry[0])]
        if not entries:
            return None
        rule = RULE_OF.get(name, NOTIFY)
        if type(rule) is not DirectRule:
            return await rule(self._calls, event, entries)
        late = Late()
        handlers = iter(entries)
        coro = rule.run(self._calls, event, handlers, late)
        try:
            first = coro.send(None)
        except StopIteration as stop:
            result: HookResult | None = stop.value  # typed without a ``cast`` call
            return result
        driver = supervised(self._calls, rule, event, entries, handlers, late, coro, first)
        return cast("HookResult | None", await driver)

    async def emit_tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """``tool_call``: first block wins, a failing or late handler blocks, rewrites chain.

        One call level for wrapped tools: the rule runs straight from here.
        """
        entries = self._handlers.get("tool_call")
        if not entries:
            return None
        calls = self._calls_for(event)
        # ``start_direct`` inlined: this is the call every wrapped tool makes.
        late = Late()
        handlers = iter(entries)
        coro = run_tool_call(calls, event, handlers, late)
        try:
            first = coro.send(None)
        except StopIteration as stop:
            answer: ToolCallResult | None = stop.value  # typed without a ``cast`` call
            return answer
        driver = supervised(calls, TOOL_CALL, event, entries, handlers, late, coro, first)
        return cast("ToolCallResult | None", await driver)

    async def emit_tool_result(self, event: ToolResultEvent) -> ToolResultResult | None:
        """``tool_result``: the override to apply. A failing or late handler withholds the
        output: the result is then an error whose only content names the hook."""
        entries = self._handlers.get("tool_result")
        if not entries:
            return None
        value = start_direct(self._calls_for(event), TOOL_RESULT, event, entries)
        if type(value) is Resume:
            value = await value
        return value  # type: ignore[no-any-return]

    def _calls_for(self, event: ToolCallEvent | ToolResultEvent) -> HandlerCalls:
        """How to call the handlers of a tool event: a ``task`` sub-agent's call (its
        ``agent_id``) is seen through a ``HeadlessContext``, without the UI."""
        if event.agent_id is None:
            return self._calls
        return self._calls.seen_by(HeadlessContext(self.context))

    async def emit_context(self, messages: list[Message]) -> list[Message]:
        """The messages after every ``context`` handler, each fed the previous output."""
        result = await self.emit(events.ContextEvent(messages=messages))
        if result is None:
            return messages
        from hookline.core.results import ContextResult  # loaded: a handler returned it

        if isinstance(result, ContextResult) and result.messages is not None:
            return result.messages
        return messages

    async def emit_input(self, event: InputEvent) -> InputResult | None:
        return cast("InputResult | None", await self.emit(event))

    async def run_command(self, name: str, args: str = "") -> bool:
        """Run slash command ``name``; False when no hook registered it. Errors are reported."""
        command = self.get_command(name)
        if command is None:
            return False
        ctx = CommandContext(self.context)
        await self._run_action(
            command.hook_path, f"command:{name}", lambda: command.handler(args, ctx)
        )
        return True

    async def run_shortcut(self, key: str) -> bool:
        """Run the hook shortcut bound to normalized ``key``; False when none is. Errors are
        reported like a command's."""
        shortcut = self.get_registered_shortcuts().get(key)
        if shortcut is None:
            return False
        ctx = CommandContext(self.context)
        await self._run_action(shortcut.hook_path, f"shortcut:{key}", lambda: shortcut.handler(ctx))
        return True

    async def _run_action(self, hook_path: str, what: str, call: Callable[[], Any]) -> None:
        """A command's or shortcut's handler: whatever it raises is reported as its failure;
        only the caller's own cancellation goes through."""
        try:
            value = call()
            if isinstance(value, Awaitable):
                await value
        except BaseException as exc:
            if is_cancellation(exc) and caller_cancelled():
                raise
            self.report(hook_path, what, exc)
