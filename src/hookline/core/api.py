"""``HookAPI``/``ExtensionAPI``: the object a hook module's ``register(pi)`` receives."""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from hookline.core.bus import EventBus
from hookline.core.events import EVENT_NAMES
from hookline.core.keys import check_shortcut_key
from hookline.core.messages import Content, CustomMessage
from hookline.core.tool import Tool, ToolInfo, ToolResult, ToolUpdate, ToolWrapperExecute
from hookline.core.tool_params import check_parameters

if TYPE_CHECKING:
    import asyncio

    from hookline.core.context import HookContext
    from hookline.core.host import NamedModel
    from hookline.core.process import ExecResult
    from hookline.core.provider_config import ProviderConfig
    from hookline.core.resources import SlashCommandInfo

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


class LateRegistrationError(RuntimeError):
    """``on()`` was called after ``register(pi)`` returned: the runner read the hook's
    handlers when it was loaded, so a handler added later would never run."""


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
class RegisteredFlag:
    """A command-line flag a hook added: ``--name`` once hooks are loaded."""

    name: str
    type: Literal["boolean", "string"]
    default: bool | str | None
    description: str = ""
    hook_path: str = ""


@dataclass(frozen=True, slots=True)
class StreamRule:
    """A Time-Traveling Stream Rule: when ``pattern`` matches the model's streamed output,
    the stream is cut, ``text`` is injected as a system reminder and the call is retried."""

    name: str
    pattern: re.Pattern[str]
    text: str
    source: str = ""


@dataclass(slots=True)
class LoadedHook:
    """Everything one hook module registered, in registration order."""

    path: str
    handlers: dict[str, list[Handler]] = field(default_factory=dict)
    commands: dict[str, RegisteredCommand] = field(default_factory=dict)
    renderers: dict[str, MessageRenderer] = field(default_factory=dict)
    tools: dict[str, Tool] = field(default_factory=dict)
    shortcuts: dict[str, RegisteredShortcut] = field(default_factory=dict)
    #: ``wrap_tool`` registrations: (tool name, execute taking the original first).
    tool_wrappers: list[tuple[str, ToolWrapperExecute]] = field(default_factory=list)
    flags: dict[str, RegisteredFlag] = field(default_factory=dict)
    stream_rules: list[StreamRule] = field(default_factory=list)
    #: ``register_provider`` calls made while the hook loaded, applied by the agent.
    providers: dict[str, ProviderConfig] = field(default_factory=dict)
    #: The hook enforces its own time limits (settings hooks: one per command), so the
    #: runner's ``hook_timeout`` is not applied to its handlers.
    own_deadlines: bool = False


#: Event names pi's hooks once had, and what replaced them (said instead of a look-alike).
_REPLACED_EVENTS = {
    "session": (
        " (pi split its single 'session' event, with its `reason` and `entries`, into "
        "session_start, session_before_switch, session_switch, session_before_fork, "
        "session_fork, session_before_compact, session_compact, session_before_tree, "
        "session_tree and session_shutdown; read the entries with "
        "ctx.session_manager.get_entries())"
    ),
}


def _suggest(name: str) -> str:
    from hookline._typos import closest_hint
    from hookline.core.vocabulary import claude_event_hint

    return _REPLACED_EVENTS.get(name) or claude_event_hint(name) or closest_hint(name, EVENT_NAMES)


class HookAPI:
    """``pi``: what a hook module's ``register(pi)`` receives, one per module.

    It subscribes handlers (``on``), registers commands, shortcuts, flags, tools and
    renderers, and acts on the agent (``send_user_message``, ``set_model``, ``exec``).
    ``ExtensionAPI`` is the same class: hookline has one object for both.
    Registrations are read when ``register(pi)`` returns, so they belong inside it;
    calls to ``send``/``send_message``/``append_entry`` made before an agent is bound
    are kept and replayed into it, never dropped. pi's call forms work too
    (``register_command(name, {"description": ..., "handler": fn})``, camelCase keys).

    Attributes: ``cwd`` (the project folder), ``events`` (a bus shared by the hooks
    loaded together: ``pi.events.on(channel, fn)``, ``pi.events.emit(channel, data)``).

    Example:

        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                if event.tool_name == "bash" and "rm -rf" in event.input["command"]:
                    return {"block": True, "reason": "no rm -rf here"}
    """

    def __init__(
        self,
        hook: LoadedHook,
        cwd: str = ".",
        *,
        events: EventBus | None = None,
        flag_values: dict[str, bool | str] | None = None,
    ) -> None:
        self.hook = hook
        self.cwd = cwd
        #: The bus shared by the hooks loaded together; isolated from agent events.
        self.events = (events if events is not None else EventBus()).view(hook.path)
        #: Flag values from the command line, shared by the hooks loaded together.
        self.flag_values = flag_values if flag_values is not None else {}
        self._context: HookContext | None = None
        self._kept: list[tuple[str, tuple[Any, ...]]] = []

    # -- events ------------------------------------------------------------

    @overload
    def on(self, event: str) -> Callable[[F], F]: ...
    @overload
    def on(self, event: str, handler: F) -> F: ...
    def on(self, event: str, handler: F | None = None) -> F | Callable[[F], F]:
        """Subscribe ``handler(event, ctx)`` to ``event``; without a handler, a decorator.

        ``event`` is a name from the event reference (``tool_call``,
        ``session_before_compact`` ...); a mistyped one raises ``UnknownEventError``
        with a did-you-mean at load time. The handler may be ``async``; what it
        returns (``None``, a dict or the event's result class) is the event's result.

        Example:

            @pi.on("session_start")
            async def hello(event, ctx):
                ctx.ui.notify("hook loaded", "info")

            pi.on("agent_end", lambda event, ctx: ctx.ui.set_status("run", None))
        """
        if event not in EVENT_NAMES:
            raise UnknownEventError(f"unknown event {event!r}{_suggest(event)}")
        if self._context is not None:  # bound: the runner has read the handlers
            raise LateRegistrationError(
                f"hook {self.hook.path}: pi.on({event!r}) after register(pi) returned; "
                "handlers are read when the hook is loaded: subscribe inside register(pi)"
            )

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
    @overload
    def register_command(self, name: str, handler: Mapping[str, Any]) -> CommandHandler: ...
    def register_command(
        self,
        name: str,
        handler: C | Mapping[str, Any] | None = None,
        *,
        description: str = "",
        get_argument_completions: ArgumentCompletions | None = None,
    ) -> C | CommandHandler | Callable[[C], C]:
        """Add the slash command ``/name``, run as ``handler(args, ctx)`` when typed.

        ``args`` is the text after the name; ``ctx`` is a command context (it may also
        ``wait_for_idle()``, ``new_session()``, ``fork()``). ``description`` is shown by
        ``/help``, the completion menu and ``get_commands()``;
        ``get_argument_completions(prefix)`` offers values for the argument in the
        terminal app's completion menu. Without a handler it is a decorator. pi's
        options object is accepted too: ``register_command(name, {"description": ...,
        "handler": fn})``, camelCase keys included; an unknown key or a handler that
        cannot be called fails while the hook loads.

        Example:

            @pi.register_command("deploy", description="Deploy the current branch")
            async def deploy(args: str, ctx) -> None:
                ctx.ui.notify(f"deploying {args or 'main'}", "info")
        """
        from hookline.core.options import OptionsError, check_callable, option_keywords

        form = f'register_command({name!r}, description="…", handler=fn)'
        given: Any = handler
        if isinstance(handler, Mapping):
            call = f"register_command({name!r}, {{...}})"
            _no_keywords(
                call, description=description, get_argument_completions=get_argument_completions
            )
            options = option_keywords(
                handler,
                ("description", "handler", "get_argument_completions"),
                call=call,
                python_form=form,
            )
            if "handler" not in options:
                raise OptionsError(f"{call}: no 'handler' (the Python form: {form})")
            given = options["handler"]
            description = options.get("description", "")
            get_argument_completions = options.get("get_argument_completions")
        call = f"register_command({name!r})"
        if get_argument_completions is not None:
            check_callable(
                get_argument_completions, "get_argument_completions", call=call, python_form=form
            )
        if not isinstance(description, str):
            raise OptionsError(f"{call}: description must be a string, got {description!r}")

        def add(fn: C) -> C:
            check_callable(fn, "the handler", call=call, python_form=form)
            self.hook.commands[name] = RegisteredCommand(
                name, fn, description, self.hook.path, get_argument_completions
            )
            return fn

        return add if given is None else add(given)

    def register_shortcut(
        self,
        key: str,
        handler: ShortcutHandler | Mapping[str, Any],
        *,
        description: str = "",
    ) -> ShortcutHandler:
        """Bind ``key`` (``"ctrl+k"``, ``"alt+x"``, ``"f5"``) in the terminal app to
        ``handler(ctx)``; ``description`` is listed with the app's keys.

        Keys hookline needs itself (Ctrl+C, Ctrl+D, Enter, Escape, Tab, arrows, ...)
        and malformed keys raise ``KeySpecError`` here, at load time. pi's
        ``{"description": ..., "handler": fn}`` is accepted too.

        Example:

            def clear_status(ctx) -> None:
                ctx.ui.set_status("deploy", None)

            pi.register_shortcut("ctrl+k", clear_status, description="Clear the deploy status")
        """
        from hookline.core.options import check_callable, option_keywords

        form = f'register_shortcut({key!r}, handler, description="…")'
        call = f"register_shortcut({key!r})"
        given: object = handler
        if isinstance(handler, Mapping):
            call = f"register_shortcut({key!r}, {{...}})"
            _no_keywords(call, description=description)
            options = option_keywords(
                handler, ("description", "handler"), call=call, python_form=form
            )
            given = options.get("handler")
            description = options.get("description", "")
        fn = check_callable(given, "the handler", call=call, python_form=form)
        normalized = check_shortcut_key(key)
        self.hook.shortcuts[normalized] = RegisteredShortcut(
            normalized, fn, description, self.hook.path
        )
        return fn

    def register_message_renderer(self, custom_type: str, renderer: MessageRenderer) -> None:
        """Draw custom messages of ``custom_type`` (from ``send_message``) in the terminal
        app with ``renderer(message, options, theme)``; it returns text (colours kept), a
        rich renderable or a component.

        Example:

            pi.register_message_renderer(
                "deploy", lambda message, options, theme: theme.fg("success", message["content"])
            )
        """
        self.hook.renderers[custom_type] = renderer

    def register_tool(self, tool: Tool | Mapping[str, Any]) -> None:
        """Offer a tool to the model; a built-in's name replaces the built-in.

        After start-up (from ``session_start``, a command, a handler) the tool is
        live on the next model call. An ``execute`` with a fifth parameter gets
        the hook context (``ctx``) as its last argument. ``parameters`` may be a
        pydantic model class; one whose schema cannot be generated is refused here.
        pi's tool definition (a mapping with ``name``, ``description``,
        ``parameters``, ``execute``, ``label``, ``promptSnippet``,
        ``promptGuidelines``, ``renderCall``, ``renderResult``) is accepted too.

        Example:

            async def forecast(tool_call_id, params, signal, on_update):
                return ToolResult(content=[{"type": "text", "text": "sunny"}])

            pi.register_tool(Tool("forecast", "Weather forecast for a city.", Forecast, forecast))
        """
        if isinstance(tool, Mapping):
            tool = _tool_from_options(tool)
        if not isinstance(tool, Tool):
            raise TypeError(
                f"register_tool takes a Tool, got {type(tool).__name__} (the Python form: "
                "register_tool(Tool(name, description, parameters, execute)))"
            )
        check_parameters(tool.name, tool.parameters)
        self.hook.tools[tool.name] = _with_context(tool, self._current_context)

    def wrap_tool(self, name: str, execute: ToolWrapperExecute) -> None:
        """Wrap the tool ``name`` (a built-in or another hook's): ``execute(original,
        tool_call_id, params, signal, on_update, ctx)`` runs instead, ``original`` being
        the wrapped tool's ``execute`` to delegate to. Wraps stack in load order.

        Example:

            async def timed(original, tool_call_id, params, signal, on_update, ctx):
                ctx.ui.set_status("bash", "running")
                try:
                    return await original(tool_call_id, params, signal, on_update)
                finally:
                    ctx.ui.set_status("bash", None)

            pi.wrap_tool("bash", timed)
        """
        if not callable(execute):
            raise TypeError(f"wrap_tool({name!r}): execute is not callable: {execute!r}")
        current = self._current_context

        async def wrapper(
            original: Callable[..., Any],
            tool_call_id: str,
            params: dict[str, Any],
            signal: asyncio.Event | None,
            on_update: ToolUpdate | None,
        ) -> ToolResult:
            result: ToolResult = await execute(
                original, tool_call_id, params, signal, on_update, current()
            )
            return result

        self.hook.tool_wrappers.append((name, wrapper))

    def get_active_tools(self) -> list[str]:
        """The names of the tools the model is offered now (``[]`` before an agent is bound).

        Example:

            if "bash" in pi.get_active_tools():
                ctx.ui.notify("bash is on", "info")
        """
        names: list[str] = self._host_call("get_active_tools", [])
        return names

    def get_all_tools(self) -> list[ToolInfo]:
        """Every tool (built-in or a hook's), active or not, as ``ToolInfo`` (``name``,
        ``description``, ``parameters``, ``hook_path``: ``None`` for a built-in).

        Example:

            mine = [t.name for t in pi.get_all_tools() if t.hook_path is not None]
        """
        tools: list[ToolInfo] = self._host_call("get_all_tools", [])
        return tools

    def get_commands(self) -> list[SlashCommandInfo]:
        """The slash commands ``prompt`` runs: the hooks' (``source="extension"``), then
        the prompt templates' (``"prompt"``), then the skills' (``"skill"``, named
        ``skill:NAME``), each with its ``description`` and the ``path`` of its file.
        The terminal app's own commands (``/model``, ``/quit`` ...) are not listed.

        Example:

            for command in pi.get_commands():
                print(f"/{command.name}: {command.description}")
        """
        commands: list[SlashCommandInfo] = self._host_call("get_commands", [])
        return commands

    def set_active_tools(self, names: Sequence[str]) -> None:
        """Offer only these tools from the next model call on (unknown names raise); a
        call to an inactive tool is refused. Kept until an agent is bound.

        Example:

            pi.set_active_tools(["read", "grep", "find", "ls"])  # a read-only session
        """
        self._act("set_active_tools", list(names))

    def register_flag(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        type: Literal["boolean", "string"] = "boolean",
        default: bool | str | None = None,
        description: str = "",
    ) -> None:
        """Add ``--name`` to the command line (read with ``get_flag``); ``hookline --help``
        lists it with its ``description`` and hook. pi's ``{"type": ..., "default": ...,
        "description": ...}`` is accepted too.

        Example:

            pi.register_flag("plan", type="boolean", default=False, description="Plan only")
            if pi.get_flag("plan"):
                pi.set_active_tools(["read", "grep", "find", "ls"])
        """
        if options is not None:
            from hookline.core.options import OptionsError, option_keywords

            call = f"register_flag({name!r}, {{...}})"
            form = f'register_flag({name!r}, type="boolean", default=False, description="…")'
            if not isinstance(options, Mapping):
                raise OptionsError(f"{call}: options must be a mapping (the Python form: {form})")
            _no_keywords(call, type=type != "boolean", default=default, description=description)
            chosen = option_keywords(
                options, ("type", "default", "description"), call=call, python_form=form
            )
            type = chosen.get("type", "boolean")
            default = chosen.get("default")
            description = chosen.get("description", "")
        if not re.fullmatch(r"[a-z][a-z0-9-]*", name):
            raise ValueError(
                f"flag name {name!r}: use lowercase letters, digits and dashes (e.g. 'plan')"
            )
        if type not in ("boolean", "string"):
            raise ValueError(f"flag {name!r}: type must be 'boolean' or 'string', got {type!r}")
        self.hook.flags[name] = RegisteredFlag(name, type, default, description, self.hook.path)

    def get_flag(self, name: str) -> bool | str | None:
        """The flag's value from the command line, else its default; None if unknown.

        Example:

            target = pi.get_flag("target") or "staging"
        """
        if name in self.flag_values:
            return self.flag_values[name]
        flag = self.hook.flags.get(name)
        return flag.default if flag is not None else None

    def register_stream_rule(self, name: str, pattern: str, text: str) -> None:
        """A Time-Traveling Stream Rule: when ``pattern`` (a regex) matches what the model
        streams, the stream is cut, ``text`` is injected as a system reminder and the request
        is retried; each rule fires at most once per turn. A bad pattern raises
        ``ValueError`` at load time.

        Example:

            pi.register_stream_rule(
                "no-force-push", r"git push (-f|--force)", "Never force-push; ask the user."
            )
        """
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"stream rule {name!r}: bad pattern {pattern!r}: {exc}") from None
        self.hook.stream_rules.append(StreamRule(name, compiled, text, self.hook.path))

    def register_provider(self, name: str, config: ProviderConfig | Mapping[str, Any]) -> None:
        """Add the model provider ``name``, or change an existing one's endpoint and headers
        (pi's ``registerProvider``; the config's fields in ``ProviderConfig``).

        Checked here: a bad config raises ``ProviderConfigError`` naming this hook. Made
        while the hook loads, it takes effect when the agent starts; later (a command,
        a handler), at once.

        Example:

            pi.register_provider(
                "local",
                {
                    "base_url": "http://localhost:11434/v1",
                    "api": "openai-completions",
                    "models": [{"id": "qwen3", "context_window": 32_000}],
                },
            )
        """
        from hookline.core.provider_config import ProviderConfigError, provider_config

        try:
            checked = provider_config(name, config)
        except ProviderConfigError as exc:
            raise ProviderConfigError(
                f"hook {self.hook.path}: register_provider({name!r}): {exc}"
            ) from None
        if self._context is None:
            self.hook.providers[name] = checked
        else:
            self._context.host.get_model_registry().register_provider(name, checked, self.hook.path)

    def unregister_provider(self, name: str) -> None:
        """Remove a provider ``register_provider`` added (built-in models it changed come
        back); nothing happens for one never registered.

        Example:

            pi.unregister_provider("local")
        """
        if self._context is None:
            self.hook.providers.pop(name, None)
        else:
            self._context.host.get_model_registry().unregister_provider(name)

    # -- actions -----------------------------------------------------------

    def bind_context(self, context: HookContext) -> None:
        """Called by ``HookRunner.add_hook``, not by a hook: the context the hook's calls go
        to from now on; the calls kept until then are replayed into its host, in order.

        Example:

            api = HookAPI(LoadedHook("guard.py"), cwd)
            register(api)  # the hook's calls to send() ... are kept
            api.bind_context(runner.context)  # ... and replayed here
        """
        self._context = context
        kept, self._kept = self._kept, []
        for name, args in kept:
            getattr(context.host, name)(*args)

    def _act(self, name: str, *args: Any) -> None:
        if self._context is None:
            self._kept.append((name, args))
        else:
            getattr(self._context.host, name)(*args)

    def _host_call(self, name: str, unbound: Any, *args: Any) -> Any:
        """A question for the agent; ``unbound`` is the answer before one is bound."""
        if self._context is None:
            return unbound
        return getattr(self._context.host, name)(*args)

    def _current_context(self) -> HookContext:
        if self._context is None:
            raise RuntimeError(f"hook {self.hook.path}: no agent is bound yet")
        return self._context

    def send_message(
        self,
        message: CustomMessage | dict[str, Any],
        trigger_turn: bool = False,
        *,
        deliver_as: DeliverAs | None = None,
    ) -> None:
        """Persist a custom message (``custom_type``, ``content``, ``display``, ``details``).

        While the agent streams, ``deliver_as`` says where it lands: ``"steer"``
        after the current tool call (the turn's other calls are skipped),
        ``"follow_up"`` after the run, ``"next_turn"`` with the next user
        prompt (idle or not). Without it the message lands at the end of the turn;
        ``trigger_turn`` starts a run when idle.

        Example:

            pi.send_message(
                {"custom_type": "deploy", "content": "deployed v1.2", "display": True},
                deliver_as="follow_up",
            )
        """
        msg: dict[str, Any] = {"role": "custom", "display": True, **message}
        if "custom_type" not in msg or "content" not in msg:
            raise ValueError("send_message needs 'custom_type' and 'content'")
        if deliver_as is None:
            self._act("send_message", msg, trigger_turn)
        else:
            _check_delivery(deliver_as, ("steer", "follow_up", "next_turn"))
            self._act("deliver", msg, deliver_as, trigger_turn)

    def send_user_message(
        self,
        content: str | list[Content],
        *,
        deliver_as: Literal["steer", "follow_up"] | None = None,
    ) -> None:
        """A user message that always gets an answer: starts a run when idle; while the
        agent streams, ``"steer"`` lands after the current tool call, ``"follow_up"``
        when the run would stop. Without ``deliver_as`` while a run streams (``agent_end``
        included: the run is still ending) it is refused, as in pi: an error of
        ``send_user_message`` is reported and nothing is sent.

        Example:

            pi.send_user_message("Now run the tests.", deliver_as="follow_up")
        """
        if deliver_as is not None:
            _check_delivery(deliver_as, ("steer", "follow_up"))
        blocks: list[Content] = (
            [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
        )
        self._act("deliver", {"role": "user", "content": blocks}, deliver_as, True)

    async def set_model(self, spec: str | NamedModel) -> bool:
        """Switch the model (``provider:name``, or a ``ctx.model_registry`` entry as in pi);
        False when it cannot be built.

        Example:

            if not await pi.set_model("anthropic:claude-haiku-4-5"):
                ctx.ui.notify("no haiku here", "warning")
        """
        return await self._current_context().set_model(spec)

    def get_thinking_level(self) -> str:
        """The reasoning effort of the next model call: ``off`` | ``minimal`` | ``low`` |
        ``medium`` | ``high`` | ``xhigh``.

        Example:

            if pi.get_thinking_level() == "off":
                pi.set_thinking_level("low")
        """
        return self._current_context().get_thinking_level()

    def set_thinking_level(self, level: str) -> None:
        """``off`` | ``minimal`` | ``low`` | ``medium`` | ``high`` | ``xhigh`` (next model call),
        mapped to the provider's reasoning setting.

        Example:

            pi.set_thinking_level("high")
        """
        self._current_context().set_thinking_level(level)

    def set_session_name(self, name: str) -> None:
        """Name the session (a session entry; listings show it).

        Example:

            pi.set_session_name("deploy v1.2")
        """
        self._act("set_session_name", name)

    def get_session_name(self) -> str | None:
        """The session's name (``set_session_name``), None when it has none.

        Example:

            name = pi.get_session_name() or "unnamed"
        """
        return self._host_call("get_session_name", None)  # type: ignore[no-any-return]

    def set_label(self, entry_id: str, label: str | None) -> None:
        """Set (or with None clear) a bookmark label on a session entry; ``/tree`` shows it.

        Example:

            leaf = ctx.session_manager.get_leaf_id()
            pi.set_label(leaf, "before refactor")
        """
        self._act("set_label", entry_id, label)

    def send(self, text: str, attachments: list[Content] | None = None) -> None:
        """Inject a user message: queued while the agent streams, else starts a run.

        Example:

            pi.send("Summarise what changed.")
        """
        self._act("send", text, attachments)

    def append_entry(self, custom_type: str, data: Any = None) -> None:
        """Persist hook state in the session file; the model never sees it. Read it back
        from ``ctx.session_manager.get_entries()`` (``type == "custom"``).

        Example:

            pi.append_entry("deploy-state", {"last": "v1.2"})
        """
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
        """Run ``command args...`` (no shell) in ``cwd`` (the project by default);
        ``timeout`` in seconds, or ``signal`` set, kills its whole process group. The
        result has ``stdout``, ``stderr``, ``code`` and ``killed``.

        Example:

            result = await pi.exec("git", ["status", "--short"], timeout=5)
            if result.code == 0 and result.stdout:
                ctx.ui.notify("uncommitted changes", "warning")
        """
        from hookline.core.process import exec_command  # asyncio's subprocess: loaded on use

        return await exec_command(command, args, cwd or self.cwd, timeout=timeout, signal=signal)


#: The extension name of the same object (pi's ``ExtensionAPI``).
ExtensionAPI = HookAPI

DeliverAs = Literal["steer", "follow_up", "next_turn"]


def _no_keywords(call: str, **given: object) -> None:
    """Refuse keyword arguments given beside a pi options mapping: one place says each."""
    from hookline.core.options import OptionsError

    named = [k for k, v in given.items() if v not in (None, "", False)]
    if named:
        raise OptionsError(
            f"{call}: give {', '.join(named)} in the mapping or as keywords, not both"
        )


#: pi's tool definition keys (snake_case) that are ``Tool`` fields, and the renderers
#: hookline reads from ``Tool.meta``.
_TOOL_FIELDS = ("name", "description", "parameters", "execute", "label", "meta")
_TOOL_PROMPT = ("prompt_snippet", "prompt_guidelines")
_TOOL_RENDERERS = ("render_call", "render_result")


def _tool_from_options(options: Mapping[str, Any]) -> Tool:
    """pi's ``registerTool({...})`` definition as a ``Tool``; unknown keys fail here."""
    from hookline.core.options import OptionsError, check_callable, option_keywords

    name = options.get("name", "?")
    call = f"register_tool({{'name': {name!r}, ...}})"
    form = f"register_tool(Tool({name!r}, description, parameters, execute))"
    values = option_keywords(
        options, (*_TOOL_FIELDS, *_TOOL_PROMPT, *_TOOL_RENDERERS), call=call, python_form=form
    )
    missing = [k for k in ("name", "description", "parameters", "execute") if k not in values]
    if missing:
        raise OptionsError(f"{call}: no {', '.join(map(repr, missing))} (the Python form: {form})")
    check_callable(values["execute"], "execute", call=call, python_form=form)
    meta = dict(values.pop("meta", None) or {})
    for key in _TOOL_RENDERERS:
        if key in values:
            meta[key] = check_callable(values.pop(key), key, call=call, python_form=form)
    if "prompt_guidelines" in values:
        values["prompt_guidelines"] = list(values["prompt_guidelines"])
    return Tool(**values, meta=meta)


def _check_delivery(value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"deliver_as must be one of {', '.join(allowed)}; got {value!r}")


def _takes_context(execute: Callable[..., Any]) -> bool:
    """True when ``execute`` has room for a fifth positional argument (``ctx``)."""
    try:
        params = inspect.signature(execute).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [
        p
        for p in params
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    return len(positional) >= 5


def _with_context(tool: Tool, context: Callable[[], HookContext]) -> Tool:
    """``tool`` whose ``execute`` is given the hook context last, when it takes one."""
    inner = tool.execute
    if not _takes_context(inner):
        return tool

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        call: Callable[..., Any] = inner
        result: ToolResult = await call(tool_call_id, params, signal, on_update, context())
        return result

    # the pipeline gives a ``task`` sub-agent's call its own ctx (no UI) through this
    return dataclasses.replace(tool, execute=execute, meta={**tool.meta, CONTEXT_EXECUTE: inner})


#: ``Tool.meta`` key of a hook tool's ``execute`` that takes ``ctx`` (fifth argument).
CONTEXT_EXECUTE = "context_execute"
