"""``ClaudeHooks``: settings hooks on hookline's event bus — one bus, two faces.

``install(runner)`` adds one ``LoadedHook(path="settings:claude")`` whose
handlers turn internal events into Claude events, run the hooks, and turn the
verdict back into the internal event's result:

=====================  =====================================================
internal event         Claude event → result
=====================  =====================================================
tool_call              PreToolUse: exit 2 / deny → block; allow / ask → the
                       result's ``permission`` (the agent's permission stage asks:
                       permission_request hooks, UI, no-UI denial);
                       ``updatedInput`` → ``input`` rewrite
tool_result            PostToolUse (ok) / PostToolUseFailure (error): blocking
                       feedback and additionalContext appended as a text block
input                  UserPromptSubmit: block → ``handled`` + notify;
                       context / plain stdout appended to the prompt
session_start          SessionStart: context sent to the host as a hidden
                       ``hook_context`` message; ``CLAUDE_ENV_FILE`` exports in
                       ``session_env``
session_shutdown       SessionEnd
session_before_compact PreCompact: block → ``cancel``
stop / subagent_stop   Stop / SubagentStop: block → ``{block, reason}``
permission_request     PermissionRequest: allow/deny → ``decision``
notification           Notification;  subagent_start → SubagentStart
instructions_loaded    InstructionsLoaded (observer: its output changes nothing)
=====================  =====================================================

Order with module hooks is the caller's: the runner calls hooks in the order
they were added. The reference agent adds this hook AFTER module hooks, so
in-process ``tool_call`` blockers (cheap, fail closed) run first, a tool they
block never spawns hook processes, and settings hooks see the input module
hooks rewrote — the input that will really run. ``tool_result`` overrides are
"last wins" on the original event, so a settings-hook feedback block replaces
a module override of the same result (only when there is feedback to add).

Non-blocking errors and cancellations are shown with ``ui.notify(...,
"warning")``, ``systemMessage`` with ``ui.notify``. ``continue: false`` calls
the host's ``request_stop`` (the agent ends the run) and blocks what can be
blocked. Results are the typed results module hooks return.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from hookline.claude import payloads
from hookline.claude.async_hooks import AsyncHookTask
from hookline.claude.config import (
    CallbackFn,
    HookDefinition,
    HookSource,
    plugin_sources,
    sources_from_settings,
)
from hookline.claude.engine import EventRun, HookEngine
from hookline.claude.names import from_claude_input, to_claude_input, to_claude_tool_name
from hookline.claude.outcome import Outcome
from hookline.claude.plugins import Plugin, plugin_hook_sources
from hookline.core.api import Handler, LoadedHook
from hookline.core.context import HookContext
from hookline.core.events import (
    InputEvent,
    InstructionsLoadedEvent,
    NotificationEvent,
    PermissionRequestEvent,
    SessionBeforeCompactEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    StopEvent,
    SubagentStartEvent,
    SubagentStopEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from hookline.core.messages import CustomMessage
from hookline.core.results import (
    InputResult,
    PermissionRequestResult,
    SessionBeforeCompactResult,
    StopResult,
    ToolCallResult,
    ToolResultResult,
)
from hookline.core.runner import HookRunner
from hookline.core.ui import NotifyType
from hookline.settings.loader import LoadedSettings
from hookline.settings.policy import HookPolicy, hook_policy

SETTINGS_HOOK_PATH = "settings:claude"

#: internal event → the Claude events it fires.
BUS_EVENTS: dict[str, tuple[str, ...]] = {
    "tool_call": ("PreToolUse",),
    "tool_result": ("PostToolUse", "PostToolUseFailure"),
    "input": ("UserPromptSubmit",),
    "session_start": ("SessionStart",),
    "session_shutdown": ("SessionEnd",),
    "session_before_compact": ("PreCompact",),
    "stop": ("Stop",),
    "subagent_stop": ("SubagentStop",),
    "subagent_start": ("SubagentStart",),
    "notification": ("Notification",),
    "permission_request": ("PermissionRequest",),
    "instructions_loaded": ("InstructionsLoaded",),
}
#: Claude events with no internal event; run them with ``ClaudeHooks.run``.
UNBOUND_EVENTS: tuple[str, ...] = ("StatusLine", "FileSuggestion")

_BUS_OF = {claude: bus for bus, claudes in BUS_EVENTS.items() for claude in claudes}


class ClaudeHooks(HookEngine):
    """Claude Code settings hooks (and SDK-style callbacks) as one hookline hook.

    See the module docstring for the event mapping and the ordering rule.
    ``model_runner`` is the seam through which the agent evaluates ``prompt``
    and ``agent`` hooks; without it they are reported as unsupported.
    """

    def __init__(self, sources: Sequence[HookSource] = (), **kwargs: Any) -> None:
        super().__init__(sources, **kwargs)
        self._runner: HookRunner | None = None
        self._wired: set[str] = set()
        self.registry.on_result(self._async_done)

    @classmethod
    def from_settings(
        cls,
        loaded: LoadedSettings,
        *,
        plugin_hook_files: Iterable[Path] = (),
        plugins: Iterable[Plugin] = (),
        policy: HookPolicy | None = None,
        project_trusted: bool = True,
        **kwargs: Any,
    ) -> ClaudeHooks:
        """From a ``LoadedSettings``, plugins (``claude.plugins.find_plugins``) and loose
        plugin ``hooks/hooks.json`` files.

        ``policy`` defaults to ``settings.policy.hook_policy(loaded)``.
        """
        sources = sources_from_settings(loaded)
        plugin_hooks, errors = plugin_sources(plugin_hook_files)
        for plugin in plugins:
            found, messages = plugin_hook_sources(plugin)
            plugin_hooks += found
            errors += messages
        kwargs.setdefault("project_dir", getattr(loaded, "project_dir", "."))
        return cls(
            [*sources, *plugin_hooks],
            policy=policy or hook_policy(loaded),
            project_trusted=project_trusted,
            errors=[*errors],
            **kwargs,
        )

    # -- wiring -----------------------------------------------------------------

    def bus_events(self) -> list[str]:
        """The internal events that have at least one Claude hook to run."""
        return [bus for bus, claudes in BUS_EVENTS.items() if any(map(self.has_hooks, claudes))]

    def loaded_hook(self, events: Iterable[str] | None = None) -> LoadedHook:
        """A ``LoadedHook`` with handlers for ``events`` (default: those with hooks)."""
        wanted = list(self.bus_events() if events is None else events)
        handlers: dict[str, list[Handler]] = {e: [self._handler(e)] for e in wanted}
        self._wired.update(wanted)
        return LoadedHook(path=SETTINGS_HOOK_PATH, handlers=handlers, own_deadlines=True)

    def install(self, runner: HookRunner) -> LoadedHook:
        """Add the settings hooks to ``runner`` after the hooks it already has."""
        self._runner = runner
        hook = self.loaded_hook()
        runner.add_hook(hook)
        return hook

    def add_callback(
        self,
        event: str,
        fn: CallbackFn,
        matcher: str | None = None,
        *,
        timeout: float | None = None,
    ) -> HookDefinition:
        """Register ``async def cb(input_data, tool_use_id, context) -> dict`` for ``event``.

        After ``install``, a callback on an event not wired yet is wired by
        adding one more ``settings:claude`` hook at the end of the runner.
        """
        d = super().add_callback(event, fn, matcher, timeout=timeout)
        bus = _BUS_OF.get(event)
        if self._runner is not None and bus is not None and bus not in self._wired:
            self._runner.add_hook(self.loaded_hook([bus]))
        return d

    def _handler(self, bus_event: str) -> Handler:
        return getattr(self, f"_on_{bus_event}")  # type: ignore[no-any-return]

    # -- shared helpers ------------------------------------------------------------

    async def _run(self, event: str, fields: dict[str, Any], ctx: HookContext) -> EventRun:
        run = await self.run(event, fields, cwd=ctx.cwd, session_file=ctx.session_file)
        for o in run.outcomes:
            if o.kind in ("non_blocking_error", "cancelled"):
                ctx.ui.notify(f"{event} hook {_label(o)}: {o.reason}", "warning")
            if o.system_message:
                ctx.ui.notify(o.system_message, "info")
        v = run.verdict
        if v.stop:
            reason = _stop_reason(event, v.stop_reason)
            ctx.ui.notify(f"{event} hook stopped the agent: {reason}", "warning")
            ctx.host.request_stop(reason)
        return run

    def _async_done(self, task: AsyncHookTask, outcome: Outcome) -> None:
        if self._runner is None:
            return
        if outcome.additional_context:
            _send_context(self._runner.context, [outcome.additional_context])
        level: NotifyType = "info" if outcome.kind == "success" else "warning"
        text = f"async hook {task.id} ({task.hook.event}) ended: {outcome.kind}"
        if outcome.reason:
            text += f": {outcome.reason}"
        self._runner.context.ui.notify(text, level)

    # -- handlers -----------------------------------------------------------------

    async def _on_tool_call(self, ev: ToolCallEvent, ctx: HookContext) -> ToolCallResult | None:
        if not self.has_hooks("PreToolUse"):
            return None
        v = (await self._run("PreToolUse", payloads.pre_tool_use(ev), ctx)).verdict
        if v.stop:
            return ToolCallResult(block=True, reason=_stop_reason("PreToolUse", v.stop_reason))
        if v.blocked or v.permission == "deny":
            return ToolCallResult(
                block=True, reason=v.reason or v.permission_reason or "denied by hook"
            )
        out = ToolCallResult()
        if v.permission == "ask":
            name = to_claude_tool_name(ev.tool_name)
            why = v.permission_reason or f"a PreToolUse hook asks before running {name}"
            out = ToolCallResult(permission="ask", reason=why)
        elif v.permission == "allow":
            out = ToolCallResult(permission="allow", reason=v.permission_reason)
        if v.updated_input:
            merged = {**to_claude_input(ev.tool_name, ev.input), **v.updated_input}
            out.input = from_claude_input(ev.tool_name, merged)
        return out if out.model_fields_set else None

    async def _on_tool_result(
        self, ev: ToolResultEvent, ctx: HookContext
    ) -> ToolResultResult | None:
        event = "PostToolUseFailure" if ev.is_error else "PostToolUse"
        if not self.has_hooks(event):
            return None
        fields = payloads.post_tool_use_failure(ev) if ev.is_error else payloads.post_tool_use(ev)
        v = (await self._run(event, fields, ctx)).verdict
        texts = [f"{event} hook feedback: {r}" for r in v.block_reasons] + v.contexts
        if not texts:
            return None
        return ToolResultResult(append=[{"type": "text", "text": "\n\n".join(texts)}])

    async def _on_input(self, ev: InputEvent, ctx: HookContext) -> InputResult | None:
        if not self.has_hooks("UserPromptSubmit"):
            return None
        v = (await self._run("UserPromptSubmit", payloads.user_prompt_submit(ev.text), ctx)).verdict
        if v.stop or v.blocked:
            reason = v.reason or v.stop_reason or "blocked"
            ctx.ui.notify(f"prompt blocked by UserPromptSubmit hook: {reason}", "warning")
            return InputResult(handled=True)
        if v.contexts:
            return InputResult(text="\n\n".join([ev.text, *v.contexts]))
        return None

    async def _on_session_start(self, ev: SessionStartEvent, ctx: HookContext) -> None:
        if self.has_hooks("SessionStart"):
            v = (await self._run("SessionStart", payloads.session_start(ev), ctx)).verdict
            _send_context(ctx, v.contexts)

    async def _on_session_shutdown(self, ev: SessionShutdownEvent, ctx: HookContext) -> None:
        if self.has_hooks("SessionEnd"):
            await self._run("SessionEnd", payloads.session_end(ev), ctx)

    async def _on_session_before_compact(
        self, ev: SessionBeforeCompactEvent, ctx: HookContext
    ) -> SessionBeforeCompactResult | None:
        if not self.has_hooks("PreCompact"):
            return None
        v = (await self._run("PreCompact", payloads.pre_compact(ev), ctx)).verdict
        if v.blocked or v.stop:
            ctx.ui.notify(f"compaction blocked by PreCompact hook: {v.reason}", "warning")
            return SessionBeforeCompactResult(cancel=True)
        return None

    async def _stop_like(
        self, event: str, fields: dict[str, Any], ctx: HookContext
    ) -> StopResult | None:
        v = (await self._run(event, fields, ctx)).verdict
        if v.stop:  # continue: false wins: let the agent stop
            return None
        if v.blocked:
            return StopResult(block=True, reason=v.reason)
        return None

    async def _on_stop(self, ev: StopEvent, ctx: HookContext) -> StopResult | None:
        if not self.has_hooks("Stop"):
            return None
        return await self._stop_like("Stop", payloads.stop(ev), ctx)

    async def _on_subagent_stop(self, ev: SubagentStopEvent, ctx: HookContext) -> StopResult | None:
        if not self.has_hooks("SubagentStop"):
            return None
        return await self._stop_like("SubagentStop", payloads.subagent_stop(ev), ctx)

    async def _on_subagent_start(self, ev: SubagentStartEvent, ctx: HookContext) -> None:
        if self.has_hooks("SubagentStart"):
            await self._run("SubagentStart", payloads.subagent_start(ev), ctx)

    async def _on_instructions_loaded(self, ev: InstructionsLoadedEvent, ctx: HookContext) -> None:
        if self.has_hooks("InstructionsLoaded"):
            await self._run("InstructionsLoaded", payloads.instructions_loaded(ev), ctx)

    async def _on_notification(self, ev: NotificationEvent, ctx: HookContext) -> None:
        if self.has_hooks("Notification"):
            await self._run("Notification", payloads.notification(ev), ctx)

    async def _on_permission_request(
        self, ev: PermissionRequestEvent, ctx: HookContext
    ) -> PermissionRequestResult | None:
        if not self.has_hooks("PermissionRequest"):
            return None
        v = (await self._run("PermissionRequest", payloads.permission_request(ev), ctx)).verdict
        if v.blocked or v.permission_behavior == "deny" or v.permission == "deny":
            reason = v.permission_message or v.reason or v.permission_reason
            return PermissionRequestResult(decision="deny", reason=reason)
        if v.permission_behavior == "allow" or v.permission == "allow":
            out = PermissionRequestResult(decision="allow")
            if v.updated_input:
                merged = {**to_claude_input(ev.tool_name, ev.input), **v.updated_input}
                out.input = from_claude_input(ev.tool_name, merged)
            return out
        return None


def _stop_reason(event: str, given: str | None) -> str:
    return given or f"{event} hook asked to stop"


def _send_context(ctx: HookContext, contexts: Sequence[str]) -> None:
    """Hook-added context reaches the model as a hidden message (queued while a run streams)."""
    text = "\n\n".join(c for c in contexts if c)
    if text:
        message: CustomMessage = {
            "role": "custom",
            "custom_type": "hook_context",
            "content": text,
            "display": False,
        }
        ctx.host.send_message(message, False)


def _label(o: Outcome) -> str:
    return f"({o.hook_type} from {o.scope} {o.origin})"
