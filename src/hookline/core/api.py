"""``HookAPI``/``ExtensionAPI``: the object a hook module's ``register(pi)`` receives."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, overload

from hookline.core.events import EVENT_NAMES
from hookline.core.keys import check_shortcut_key
from hookline.core.messages import Content, CustomMessage
from hookline.core.process import ExecResult, run_process
from hookline.core.tool import Tool

if TYPE_CHECKING:
    from hookline.core.context import HookContext

Handler = Callable[[Any, "HookContext"], Any]
CommandHandler = Callable[[str, Any], Any]
#: ``completions(prefix)``: argument values to offer, each a string or ``(value, description)``.
ArgumentCompletions = Callable[[str], Sequence[str | tuple[str, str]]]
#: ``handler(ctx)`` with a command context; may be async.
ShortcutHandler = Callable[[Any], Any]
MessageRenderer = Callable[..., Any]
F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=CommandHandler)


class UnknownEventError(ValueError):
    """``on()`` was given a name that is not an event; raised at load time."""


@dataclass(slots=True)
class RegisteredCommand:
    name: str
    handler: CommandHandler
    description: str = ""
    hook_path: str = ""
    get_argument_completions: ArgumentCompletions | None = None


@dataclass(slots=True)
class RegisteredShortcut:
    """A key binding a hook added; ``key`` is normalized (``"ctrl+k"``)."""

    key: str
    handler: ShortcutHandler
    description: str = ""
    hook_path: str = ""


@dataclass(slots=True)
class LoadedHook:
    """Everything one hook module registered, in registration order."""

    path: str
    handlers: dict[str, list[Handler]] = field(default_factory=dict)
    commands: dict[str, RegisteredCommand] = field(default_factory=dict)
    renderers: dict[str, MessageRenderer] = field(default_factory=dict)
    tools: dict[str, Tool] = field(default_factory=dict)
    shortcuts: dict[str, RegisteredShortcut] = field(default_factory=dict)
    #: The hook enforces its own time limits (settings hooks: one per command), so the
    #: runner's ``hook_timeout`` is not applied to its handlers.
    own_deadlines: bool = False


def _suggest(name: str) -> str:
    import difflib

    from hookline.core.vocabulary import claude_event_hint

    if hint := claude_event_hint(name):
        return hint

    close = difflib.get_close_matches(name, sorted(EVENT_NAMES), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class HookAPI:
    """Registers handlers, commands, renderers and tools for one hook module.

    ``ExtensionAPI`` is the same class: hookline has one object for both.
    Calls to ``send``/``send_message``/``append_entry`` made before an agent
    is bound are kept and replayed into it, never dropped.
    """

    def __init__(self, hook: LoadedHook, cwd: str = ".") -> None:
        self.hook = hook
        self.cwd = cwd
        self._context: HookContext | None = None
        self._kept: list[tuple[str, tuple[Any, ...]]] = []

    # -- events ------------------------------------------------------------

    @overload
    def on(self, event: str) -> Callable[[F], F]: ...
    @overload
    def on(self, event: str, handler: F) -> F: ...
    def on(self, event: str, handler: F | None = None) -> F | Callable[[F], F]:
        """Subscribe ``handler`` to ``event``; without a handler, a decorator."""
        if event not in EVENT_NAMES:
            raise UnknownEventError(f"unknown event {event!r}{_suggest(event)}")

        def add(fn: F) -> F:
            if not callable(fn):
                raise TypeError(f"handler for {event!r} is not callable: {fn!r}")
            self.hook.handlers.setdefault(event, []).append(fn)
            return fn

        return add if handler is None else add(handler)

    # -- registrations -----------------------------------------------------

    @overload
    def register_command(
        self,
        name: str,
        handler: None = None,
        *,
        description: str = "",
        get_argument_completions: ArgumentCompletions | None = None,
    ) -> Callable[[C], C]: ...
    @overload
    def register_command(
        self,
        name: str,
        handler: C,
        *,
        description: str = "",
        get_argument_completions: ArgumentCompletions | None = None,
    ) -> C: ...
    def register_command(
        self,
        name: str,
        handler: C | None = None,
        *,
        description: str = "",
        get_argument_completions: ArgumentCompletions | None = None,
    ) -> C | Callable[[C], C]:
        """Add a slash command ``/name``; ``handler(args, ctx)``. Decorator without a handler.

        ``get_argument_completions(prefix)`` offers values for the argument in the
        terminal app's completion menu.
        """

        def add(fn: C) -> C:
            self.hook.commands[name] = RegisteredCommand(
                name, fn, description, self.hook.path, get_argument_completions
            )
            return fn

        return add if handler is None else add(handler)

    def register_shortcut(
        self, key: str, handler: ShortcutHandler, *, description: str = ""
    ) -> ShortcutHandler:
        """Bind ``key`` (``"ctrl+k"``, ``"alt+x"``, ``"f5"``) in the terminal app to ``handler``.

        Keys hookline needs itself (Ctrl+C, Ctrl+D, Enter, Escape, Tab, arrows, ...)
        and malformed keys raise ``KeySpecError`` here, at load time.
        """
        if not callable(handler):
            raise TypeError(f"shortcut {key!r}: handler is not callable: {handler!r}")
        normalized = check_shortcut_key(key)
        self.hook.shortcuts[normalized] = RegisteredShortcut(
            normalized, handler, description, self.hook.path
        )
        return handler

    def register_message_renderer(self, custom_type: str, renderer: MessageRenderer) -> None:
        """Render custom messages of ``custom_type`` in the UI."""
        self.hook.renderers[custom_type] = renderer

    def register_tool(self, tool: Tool) -> None:
        """Offer a tool to the model; a built-in's name replaces the built-in."""
        self.hook.tools[tool.name] = tool

    # -- actions -----------------------------------------------------------

    def _bind(self, context: HookContext) -> None:
        self._context = context
        kept, self._kept = self._kept, []
        for name, args in kept:
            getattr(context.host, name)(*args)

    def _act(self, name: str, *args: Any) -> None:
        if self._context is None:
            self._kept.append((name, args))
        else:
            getattr(self._context.host, name)(*args)

    def send_message(
        self,
        message: CustomMessage | dict[str, Any],
        trigger_turn: bool = False,
    ) -> None:
        """Persist a custom message (``custom_type``, ``content``, ``display``, ``details``)."""
        msg: dict[str, Any] = {"role": "custom", "display": True, **message}
        if "custom_type" not in msg or "content" not in msg:
            raise ValueError("send_message needs 'custom_type' and 'content'")
        self._act("send_message", msg, trigger_turn)

    def send(self, text: str, attachments: list[Content] | None = None) -> None:
        """Inject a user message: queued while the agent streams, else starts a run."""
        self._act("send", text, attachments)

    def append_entry(self, custom_type: str, data: Any = None) -> None:
        """Persist hook state in the session file; the model never sees it."""
        self._act("append_entry", custom_type, data)

    async def exec(
        self,
        command: str,
        args: Sequence[str] = (),
        *,
        timeout: float | None = None,
        signal: asyncio.Event | None = None,
        cwd: str | None = None,
    ) -> ExecResult:
        """Run ``command args...``; ``timeout`` in seconds kills its whole process group."""
        return await run_process(
            [command, *args], cwd=cwd or self.cwd, timeout=timeout, signal=signal
        )


#: The extension name of the same object (pi's ``ExtensionAPI``).
ExtensionAPI = HookAPI
