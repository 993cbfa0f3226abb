"""``HookHarness``: module hooks and settings hooks on one runner, driven without a model.

It is what ``hookline hooks test`` and the pytest plugin run: load hook files
(the loader's own path: same errors, same module names), add Claude-format
settings hooks after them (as the agent does), emit synthetic events, and read
back each handler's outcome, the combined result, the hook errors, the
dialogs a hook opened and the messages it sent.
"""

from __future__ import annotations

import asyncio
import inspect
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookline.authoring.synthetic import make_event
from hookline.authoring.ui import ScriptedUI
from hookline.claude import ClaudeHooks, Outcome
from hookline.claude.config import HookSource as SettingsSource
from hookline.claude.config import load_plugin_hooks
from hookline.core.api import Handler, HookAPI, LoadedHook
from hookline.core.events import Event
from hookline.core.host import EMPTY_SESSION, DetachedHost, ModelRegistryView, SessionView
from hookline.core.messages import Content, CustomMessage, Message
from hookline.core.pipeline import Authorize, ToolOutcome, ToolPipeline
from hookline.core.resources import SlashCommandInfo
from hookline.core.results import (
    HookResult,
    InputResult,
    PermissionRequestResult,
    StopResult,
    ToolCallResult,
    ToolResultResult,
)
from hookline.core.runner import DEFAULT_HOOK_TIMEOUT, HookError, HookRunner
from hookline.core.tool import Tool, ToolResult
from hookline.discovery import LoadError, load_hook_file


class HookLoadFailed(Exception):
    """A hook file given to the harness did not load; the message is the loader's reason."""


class RecordingHost(DetachedHost):
    """The agent side a hook talks to, recording what it was asked to do (what it does not
    record behaves as with no agent attached)."""

    def __init__(self) -> None:
        super().__init__()
        #: ``(message, deliver_as)`` of each ``send_message`` with a delivery mode and each
        #: ``send_user_message`` (``None``: none given).
        self.delivered: list[tuple[Message, str | None]] = []
        self.messages: list[CustomMessage] = []
        self.prompts: list[str] = []
        self.entries: list[tuple[str, Any]] = []
        self.stop_reasons: list[str] = []
        #: ``(parent_session, setup)`` of each ``ctx.new_session`` a command asked for.
        self.new_sessions: list[tuple[str | None, Any]] = []
        self.system_prompt = ""
        #: What hooks read as ``ctx.session_manager`` and ``ctx.session_file`` (a test's own).
        self.session_manager: SessionView | None = None
        self.session_file: str | None = None
        #: What hooks read as ``ctx.model_registry`` (a test's own, with its scripted
        #: models); by default one with the environment's keys, made when first read.
        self.model_registry: ModelRegistryView | None = None
        #: The harness's runner, whose hooks' commands ``get_commands`` lists.
        self.runner: HookRunner | None = None

    def get_session_manager(self) -> SessionView:
        return self.session_manager or EMPTY_SESSION

    def get_session_file(self) -> str | None:
        return self.session_file

    def get_commands(self) -> list[SlashCommandInfo]:
        """The loaded hooks' commands (the harness has no templates or skills)."""
        return self.runner.slash_commands() if self.runner is not None else []

    def get_model_registry(self) -> ModelRegistryView:
        if self.model_registry is None:
            from hookline.agent.model_registry import ModelRegistry

            self.model_registry = ModelRegistry.from_environment()
        return self.model_registry

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None:
        self.messages.append(message)

    def send(self, text: str, attachments: list[Content] | None) -> None:
        self.prompts.append(text)

    def append_entry(self, custom_type: str, data: Any) -> None:
        self.entries.append((custom_type, data))

    def deliver(self, message: Message, deliver_as: str | None, trigger_turn: bool) -> None:
        self.delivered.append((message, deliver_as))

    def get_system_prompt(self) -> str:
        return self.system_prompt

    def set_system_prompt(self, prompt: str) -> None:
        self.system_prompt = prompt

    def request_stop(self, reason: str) -> None:
        self.stop_reasons.append(reason)

    async def wait_for_idle(self) -> None:
        return None

    async def new_session(
        self,
        parent_session: str | None,
        setup: Callable[[Any], Awaitable[None] | None] | None,
    ) -> bool:
        self.new_sessions.append((parent_session, setup))
        return True


@dataclass(slots=True)
class HandlerCall:
    """One module handler's run: what it returned or raised (``None`` result: no opinion)."""

    hook_path: str
    handler: str
    event: str
    returned: Any = None
    raised: BaseException | None = None
    finished: bool = False

    def describe(self) -> str:
        if self.raised is not None:
            return f"raised {type(self.raised).__name__}: {self.raised}".rstrip(": ")
        if not self.finished:
            return "did not finish (timed out or cancelled)"
        return "no opinion" if self.returned is None else f"returned {short(self.returned)}"


@dataclass(slots=True)
class Emitted:
    """One emitted event: the combined result and everything that happened on the way."""

    event: Event
    result: HookResult | None
    calls: list[HandlerCall] = field(default_factory=list)
    errors: list[HookError] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def blocked(self) -> bool:
        """The event's action was refused: a tool call blocked, a prompt handled, a stop
        blocked, a session change cancelled, a permission denied."""
        r = self.result
        if isinstance(r, ToolCallResult | StopResult):
            return r.block
        if isinstance(r, InputResult):
            return r.handled
        if isinstance(r, PermissionRequestResult):
            return r.decision == "deny"
        return bool(getattr(r, "cancel", False))

    @property
    def reason(self) -> str | None:
        return getattr(self.result, "reason", None)

    @property
    def input(self) -> dict[str, Any] | None:
        """The rewritten input of a ``tool_call`` or ``permission_request``, else ``None``."""
        value = getattr(self.result, "input", None)
        return value if isinstance(value, dict) else None

    @property
    def texts(self) -> list[str]:
        """The text of a ``tool_result`` patch: replaced content, then appended blocks."""
        r = self.result
        if not isinstance(r, ToolResultResult):
            return []
        blocks = [*(r.content or []), *(r.append or [])]
        return [str(b.get("text", "")) for b in blocks if b.get("type") == "text"]

    def assert_blocked(self, reason: str | None = None) -> None:
        """The action was refused, with ``reason`` in the reason when given."""
        assert self.blocked, f"{self.event.type} was not blocked: {self._summary()}"
        if reason is not None:
            assert reason in (self.reason or ""), f"reason {self.reason!r} lacks {reason!r}"

    def assert_allowed(self) -> None:
        """Nothing refused the action and no hook failed."""
        assert not self.blocked, f"{self.event.type} was blocked: {self.reason!r}"
        assert not self.errors, f"hook errors: {[str(e.error) for e in self.errors]}"

    def assert_input(self, expected: Mapping[str, Any]) -> None:
        """A hook rewrote the input to exactly ``expected``."""
        assert self.input == dict(expected), f"input is {self.input!r}, expected {expected!r}"

    def assert_patched(self, *fragments: str) -> None:
        """A ``tool_result`` hook changed the output, and its text holds each fragment."""
        text = "\n".join(self.texts)
        assert self.texts, f"the tool result was not patched: {self._summary()}"
        for fragment in fragments:
            assert fragment in text, f"{fragment!r} not in the patched output {text!r}"

    def _summary(self) -> str:
        return f"result={short(self.result)} errors={[e.error for e in self.errors]}"


class HookHarness:
    """Module hook files and settings hooks on one runner (see the module doc).

    ``has_ui`` is what ``ctx.has_ui`` says; dialogs go to ``ui`` (a
    ``ScriptedUI``) either way. Messages and prompts hooks send are in ``host``.
    """

    def __init__(
        self,
        cwd: str | os.PathLike[str] = ".",
        *,
        timeout: float | None = DEFAULT_HOOK_TIMEOUT,
        has_ui: bool = True,
    ) -> None:
        #: The folder hooks run in, as a ``Path`` (``harness.cwd / "x"``): the test's
        #: ``tmp_path`` under the pytest plugin.
        self.cwd = Path(os.path.abspath(cwd))
        self.host = RecordingHost()
        self.runner = HookRunner(cwd=str(self.cwd), timeout=timeout, host=self.host)
        self.host.runner = self.runner
        self.ui = ScriptedUI()
        self.runner.set_ui(self.ui, has_ui)
        self.errors: list[HookError] = []
        self.calls: list[HandlerCall] = []
        self.outcomes: list[Outcome] = []
        self.claude: ClaudeHooks | None = None
        self.runner.on_error(self.errors.append)

    # -- loading ------------------------------------------------------------------

    def load(self, *paths: str | os.PathLike[str]) -> HookHarness:
        """Load hook files (relative to ``cwd``) in order; a failure raises ``HookLoadFailed``."""
        if self.claude is not None:
            raise RuntimeError("load module hooks before settings hooks (they run after them)")
        for path in paths:
            loaded = load_hook_file(str(self.cwd / path), cwd=str(self.cwd))
            if isinstance(loaded, LoadError):
                raise HookLoadFailed(str(loaded))
            self.add(*loaded)
        return self

    def add(self, hook: LoadedHook, api: HookAPI | None = None) -> HookHarness:
        """Add a loaded hook, its handlers traced into ``calls``."""
        for event, fns in hook.handlers.items():
            hook.handlers[event] = [self._traced(hook.path, event, fn) for fn in fns]
        self.runner.add_hook(hook, api)
        return self

    def register(self, factory: Callable[[HookAPI], Any], path: str = "inline.py") -> HookHarness:
        """Add a hook from a ``register(pi)`` function defined in the test itself."""
        hook = LoadedHook(path)
        api = HookAPI(hook, str(self.cwd))
        factory(api)
        return self.add(hook, api)

    def use_settings(
        self, path: str | os.PathLike[str] | None = None, *, claude: ClaudeHooks | None = None
    ) -> HookHarness:
        """Add Claude-format settings hooks (a settings file's ``hooks``, or ``claude``)."""
        if claude is None:
            if path is None:
                raise TypeError("use_settings needs a settings file or a ClaudeHooks")
            claude = ClaudeHooks(_settings_sources(self.cwd / path), project_dir=str(self.cwd))
        claude.engine.on_outcome(self.outcomes.append)
        claude.install(self.runner)
        self.claude = claude
        return self

    # -- emitting -----------------------------------------------------------------

    async def emit(
        self, event: str | Event, data: Mapping[str, Any] | None = None, **fields: Any
    ) -> Emitted:
        """Emit ``event`` (an event, or a name with fields; defaults filled) to every hook."""
        built = event if isinstance(event, Event) else make_event(event, {**(data or {}), **fields})
        marks = len(self.calls), len(self.errors), len(self.outcomes)
        result = await self.runner.emit(built)
        return Emitted(
            built,
            result,
            self.calls[marks[0] :],
            self.errors[marks[1] :],
            self.outcomes[marks[2] :],
        )

    async def tool_call(
        self, tool_name: str, input: Mapping[str, Any] | None = None, **kw: Any
    ) -> Emitted:
        """Emit ``tool_call`` for ``tool_name`` with ``input`` (hookline's or Claude's names)."""
        return await self.emit("tool_call", tool_name=tool_name, input=dict(input or {}), **kw)

    async def tool_result(
        self,
        tool_name: str,
        input: Mapping[str, Any] | None = None,
        output: str | list[Content] = "",
        **kw: Any,
    ) -> Emitted:
        """Emit ``tool_result``: ``output`` is the text (or blocks) the tool returned."""
        return await self.emit(
            "tool_result", tool_name=tool_name, input=dict(input or {}), content=output, **kw
        )

    async def prompt(self, text: str, **kw: Any) -> Emitted:
        """Emit ``input`` as if the user typed ``text``."""
        return await self.emit("input", text=text, **kw)

    async def run_tool(
        self,
        tool: Tool | str,
        input: Mapping[str, Any],
        *,
        output: str = "",
        tool_call_id: str = "call_1",
        authorize: Authorize | None = None,
    ) -> ToolOutcome:
        """A whole call through the tool pipeline: ``tool_call`` hooks, ``authorize`` (the
        permission stage, if any), the tool, ``tool_result`` hooks. A tool given by name is
        a stand-in that returns ``output`` (nothing runs)."""
        real = tool if isinstance(tool, Tool) else _canned(tool, output)
        pipeline = ToolPipeline(self.runner, authorize=authorize)
        return await pipeline.run(real, tool_call_id, dict(input))

    async def command(self, name: str, args: str = "") -> list[HookError]:
        """Run the slash command ``/name args``; the hook errors it caused (raises if unknown)."""
        mark = len(self.errors)
        if not await self.runner.run_command(name, args):
            raise LookupError(f"no hook registered the command /{name}")
        return self.errors[mark:]

    # -- tracing ------------------------------------------------------------------

    def _traced(self, path: str, event: str, fn: Handler) -> Handler:
        name = getattr(fn, "__qualname__", None) or repr(fn)
        calls = self.calls

        async def watch(call: HandlerCall, value: Awaitable[Any]) -> Any:
            try:
                call.returned = await value
            except BaseException as exc:
                call.raised = None if isinstance(exc, asyncio.CancelledError) else exc
                raise
            call.finished = True
            return call.returned

        def traced(ev: Any, ctx: Any) -> Any:
            call = HandlerCall(path, name, event)
            calls.append(call)
            try:
                value = fn(ev, ctx)
            except BaseException as exc:
                call.raised = exc
                raise
            if inspect.isawaitable(value):
                return watch(call, value)
            call.returned, call.finished = value, True
            return value

        traced.__qualname__ = name
        return traced


def _canned(name: str, output: str) -> Tool:
    """A stand-in tool: returns fixed text, runs nothing."""

    async def execute(
        tool_call_id: str, params: dict[str, Any], signal: Any = None, on_update: Any = None
    ) -> ToolResult:
        return ToolResult([{"type": "text", "text": output}])

    return Tool(name, f"stand-in for {name}", {"type": "object"}, execute)


def _settings_sources(path: Path) -> list[SettingsSource]:
    """The ``hooks`` of a Claude-format settings file, as a project source."""
    source, problems = load_plugin_hooks(path)
    if source is None:
        raise HookLoadFailed("; ".join(problems) or f"{path}: no such settings file")
    if problems:
        raise HookLoadFailed("; ".join(problems))
    return [SettingsSource("project", path, source.hooks)]


def short(value: Any, limit: int = 160) -> str:
    """``repr`` of a value (a result as its set fields), cut to ``limit`` characters."""
    if isinstance(value, HookResult):
        value = value.model_dump(exclude_defaults=True)
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
