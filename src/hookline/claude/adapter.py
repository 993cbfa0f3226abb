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
                       ``session_env`` (for bash, not hooks)
session_shutdown       SessionEnd
session_before_compact PreCompact: block → ``cancel``
stop / subagent_stop   Stop / SubagentStop: block → ``{block, reason}``
permission_request     PermissionRequest: allow/deny → ``decision``
notification           Notification;  subagent_start → SubagentStart
instructions_loaded    InstructionsLoaded (observer: its output changes nothing)
turn_end               PostToolBatch (a turn with tool calls: context and
                       feedback reach the next model call); StopFailure (a
                       turn the model API ended with an error)
session_compact        PostCompact (then SessionStart ``compact``)
turn_start             ConfigChange (a settings file changed since the last
                       check) and FileChanged (a file a FileChanged matcher
                       names, in the project folder): polled between turns
tool_execution_start   (no event: starts the clock of ``duration_ms``)
session_before_switch  (no event: notes the session the SessionEnd after the
                       switch is about)
=====================  =====================================================

``input`` is wired whenever any hook is configured: each prompt gets a fresh
``prompt_id`` that every event of that prompt carries.

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

import dataclasses
import json
import logging
import os
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
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
from hookline.claude.context_cap import cap_context
from hookline.claude.engine import EventRun, HookEngine
from hookline.claude.facts import SessionFacts
from hookline.claude.http_hook import HttpHookPolicy
from hookline.claude.kinds import kind_of
from hookline.claude.names import (
    from_claude_input,
    restore_paths,
    to_claude_tool_name,
)
from hookline.claude.outcome import Outcome
from hookline.claude.plugins import Plugin, plugin_hook_sources
from hookline.claude.responses import bash_replacement
from hookline.claude.watch import FileWatch
from hookline.core.api import Handler, LoadedHook
from hookline.core.context import HookContext
from hookline.core.events import (
    InputEvent,
    InstructionsLoadedEvent,
    NotificationEvent,
    PermissionRequestEvent,
    SessionBeforeCompactEvent,
    SessionBeforeSwitchEvent,
    SessionCompactEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    SessionSwitchEvent,
    StopEvent,
    SubagentStartEvent,
    SubagentStopEvent,
    ToolCallEvent,
    ToolExecutionStartEvent,
    ToolResultEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from hookline.core.messages import Content, CustomMessage
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
from hookline.core.vocabulary import HOOKLINE_EVENT_NAMES
from hookline.settings.loader import LoadedSettings
from hookline.settings.policy import HookPolicy, hook_policy

log = logging.getLogger("hookline.claude")

SETTINGS_HOOK_PATH = "settings:claude"
#: ``session_switch`` reason → SessionEnd ``reason`` for the session left.
#: A new session's SessionEnd comes from its ``session_shutdown`` (reason ``new``).
_SWITCH_END_REASONS = {"switch": "resume"}
#: The ``ui.set_status`` key of running hooks' ``statusMessage``.
STATUS_KEY = "claude-hooks"

#: Claude events this adapter also fires from internal events that have no Claude
#: counterpart of their own (the rest of the map is the vocabulary's, inverted).
_ALSO_FIRED: dict[str, tuple[str, ...]] = {
    "session_switch": ("SessionEnd",),
    "turn_end": ("PostToolBatch", "StopFailure"),
    "turn_start": ("ConfigChange", "FileChanged"),
}


def _bus_events() -> dict[str, tuple[str, ...]]:
    fired: dict[str, tuple[str, ...]] = {}
    for claude, ours in HOOKLINE_EVENT_NAMES.items():
        fired[ours] = (*fired.get(ours, ()), claude)
    return fired | _ALSO_FIRED


#: internal event → the Claude events it fires.
BUS_EVENTS: dict[str, tuple[str, ...]] = _bus_events()
#: Claude events with no internal event; run them with ``ClaudeHooks.run``.
UNBOUND_EVENTS: tuple[str, ...] = ("StatusLine", "FileSuggestion")

#: Claude event → the first internal event that fires it (where a callback is wired).
_BUS_OF: dict[str, str] = {}
for _bus, _claudes in BUS_EVENTS.items():
    for _claude in _claudes:
        _BUS_OF.setdefault(_claude, _bus)


class ClaudeHooks:
    """Claude Code settings hooks (and SDK-style callbacks) as one hookline hook.

    ``engine`` holds the hooks and runs Claude events; this object turns bus
    events into them, with the session facts read from each event's ``ctx``.
    See the module docstring for the event mapping and the ordering rule.
    ``model_runner`` (an engine keyword) is the seam through which the agent
    evaluates ``prompt`` and ``agent`` hooks; without it they are reported as
    unsupported.
    """

    def __init__(self, sources: Sequence[HookSource] = (), **kwargs: Any) -> None:
        #: Runs the Claude events (``HookEngine``'s keywords are taken here).
        self.engine = HookEngine(sources, **kwargs)
        #: The current user prompt's id (a new one per prompt), sent as ``prompt_id``.
        self.prompt_id: str | None = None
        self._runner: HookRunner | None = None
        self._started: dict[str, float] = {}  # tool_call_id → monotonic start
        #: The session a ``session_before_switch`` is leaving: its SessionEnd follows.
        self._leaving: SessionFacts | None = None
        self._config = FileWatch()
        self._config_source: dict[str, str] = {}
        self._files = FileWatch(self._watched_files())
        self._wired: set[str] = set()
        self.engine.registry.on_result(self._async_done)
        #: The plugins' hooks and what their files said, kept when settings are re-read.
        self.plugin_sources: list[HookSource] = []
        self.plugin_errors: list[str] = []

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
        merged = getattr(loaded, "merged", None)
        kwargs.setdefault("settings_env", getattr(merged, "env", None))
        kwargs.setdefault("http_policy", HttpHookPolicy.from_settings(merged))
        hooks = cls(
            [*sources, *plugin_hooks],
            policy=policy or hook_policy(loaded),
            project_trusted=project_trusted,
            errors=[*errors],
            **kwargs,
        )
        hooks.plugin_sources, hooks.plugin_errors = plugin_hooks, errors
        hooks.watch_settings((str(f.path), f.scope) for f in loaded.files)
        return hooks

    def reload(self, loaded: LoadedSettings) -> LoadedHook:
        """Take the hooks of re-read settings (``/reload``; the plugins' stay as loaded);
        returns the bus hook that replaces this one's in the runner."""
        merged = loaded.merged
        self.engine.set_sources(
            [*sources_from_settings(loaded), *self.plugin_sources],
            hook_policy(loaded),
            self.plugin_errors,
        )
        self.engine.settings_env = dict(getattr(merged, "env", None) or {})
        self.engine.http_policy = HttpHookPolicy.from_settings(merged)
        self._files = FileWatch(self._watched_files())
        self._wired = set()
        return self.loaded_hook()

    def watch_settings(self, files: Iterable[tuple[str, str]]) -> None:
        """Settings files (path, scope) whose changes fire ConfigChange; missing ones too."""
        for path, scope in files:
            self._config_source[path] = _CONFIG_SOURCES.get(scope, f"{scope}_settings")
            self._config.add(path)

    def _watched_files(self) -> list[str]:
        """The files FileChanged matchers name (``.envrc|.env``), in the project folder.

        A matcher that names no file (empty, ``*``) watches nothing: there is no
        "every file" to poll.
        """
        out: list[str] = []
        for d in self.engine.table.by_event.get("FileChanged", ()):
            for name in (d.matcher or "").split("|"):
                name = name.strip()
                if name and name != "*":
                    out.append(os.path.join(self.engine.project_dir, name))
        return out

    # -- wiring -----------------------------------------------------------------

    def bus_events(self) -> list[str]:
        """The internal events that have at least one Claude hook to run.

        Plus ``input`` when any hook exists (it starts a new ``prompt_id``),
        ``tool_execution_start`` when PostToolUse(Failure) hooks exist
        (``duration_ms``) and ``session_before_switch`` when SessionEnd hooks do
        (the session being left, whose SessionEnd follows the switch).
        """
        has = self.engine.has_hooks
        out = [bus for bus, claudes in BUS_EVENTS.items() if any(map(has, claudes))]
        if out and "input" not in out:
            out.append("input")
        if has("PostToolUse") or has("PostToolUseFailure"):
            out.append("tool_execution_start")
        if has("SessionEnd"):
            out.append("session_before_switch")
        return out

    def loaded_hook(self, events: Iterable[str] | None = None) -> LoadedHook:
        """A ``LoadedHook`` with handlers for ``events`` (default: those with hooks)."""
        wanted = list(self.bus_events() if events is None else events)
        handlers: dict[str, list[Handler]] = {e: [partial(HANDLERS[e], self)] for e in wanted}
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
        d = self.engine.add_callback(event, fn, matcher, timeout=timeout)
        bus = _BUS_OF.get(event)
        if self._runner is not None and bus is not None and bus not in self._wired:
            self._runner.add_hook(self.loaded_hook([bus]))
        return d

    async def permission_denied(
        self,
        tool_name: str,
        tool_call_id: str,
        input: dict[str, Any],
        reason: str,
        ctx: HookContext,
    ) -> bool:
        """Run PermissionDenied for a denied call; True when a hook says it may be retried.

        ``PermissionDenied``: a call was denied (by the rules, the mode, a hook, the user,
        or with no UI to ask); ``retry: true`` tells the model it may try the call again.

        The agent calls it (no bus event carries denials); the model is told about
        ``retry`` in the denied call's result.
        """
        if not self.engine.has_hooks("PermissionDenied"):
            return False
        fields = payloads.permission_denied(tool_name, tool_call_id, input, reason, ctx.cwd)
        return (await self._run("PermissionDenied", fields, ctx)).verdict.retry

    # -- shared helpers ------------------------------------------------------------

    def facts(self, ctx: HookContext) -> SessionFacts:
        """The session as ``ctx``'s host has it now, and the current prompt's id."""
        return SessionFacts.of(ctx, session_id=self.engine.session_id, prompt_id=self.prompt_id)

    async def _run(
        self,
        event: str,
        fields: dict[str, Any],
        ctx: HookContext,
        facts: SessionFacts | None = None,
    ) -> EventRun:
        run = await self.engine.run(
            event,
            fields,
            facts=facts or self.facts(ctx),
            status=lambda text: ctx.ui.set_status(STATUS_KEY, text),
        )
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
        """A background hook ended: its context reaches the model on the next turn.

        ``systemMessage`` and ``additionalContext`` are queued for the model's next
        call; an ``asyncRewake`` hook that exited 2 also starts a turn with its stderr.
        """
        if self._runner is None:
            return
        ctx = self._runner.context
        contexts = [outcome.system_message or "", outcome.additional_context or ""]
        if kind_of(task.hook.spec).async_rewake and outcome.kind == "blocking":
            wake = f"Background {task.hook.event} hook ({task.hook.describe()}): {outcome.reason}"
            _send_context(ctx, [*contexts, wake], trigger_turn=True)
        else:
            _send_context(ctx, contexts)
        level: NotifyType = "info" if outcome.kind == "success" else "warning"
        text = f"async hook {task.id} ({task.hook.event}) ended: {outcome.kind}"
        if outcome.reason:
            text += f": {outcome.reason}"
        self._runner.context.ui.notify(text, level)

    # -- handlers -----------------------------------------------------------------

    async def _on_tool_call(self, ev: ToolCallEvent, ctx: HookContext) -> ToolCallResult | None:
        """``PreToolUse``: exit 2, ``decision: "block"``, ``permissionDecision: "deny"`` or
        ``continue: false`` block the call (the reason goes to the model);
        ``permissionDecision`` ``allow`` skips the permission prompt, ``ask`` forces it,
        ``defer`` leaves the call to the normal permission flow; ``updatedInput`` replaces
        the input (not with ``defer``); ``additionalContext`` is sent to the model."""
        if not self.engine.has_hooks("PreToolUse"):
            return None
        v = (await self._run("PreToolUse", payloads.pre_tool_use(ev, ctx.cwd), ctx)).verdict
        if v.stop:
            return ToolCallResult(block=True, reason=_stop_reason("PreToolUse", v.stop_reason))
        if v.blocked or v.permission == "deny":
            return ToolCallResult(
                block=True, reason=v.reason or v.permission_reason or "denied by hook"
            )
        _send_context(ctx, v.contexts)
        out = ToolCallResult()
        if v.permission == "defer":
            # the hook defers to the normal permission flow (rules, mode, the user):
            # it overrides other hooks' allow/ask, never a deny
            pass
        elif v.permission == "ask":
            name = to_claude_tool_name(ev.tool_name)
            why = v.permission_reason or f"a PreToolUse hook asks before running {name}"
            out = ToolCallResult(permission="ask", reason=why)
        elif v.permission == "allow":
            out = ToolCallResult(permission="allow", reason=v.permission_reason)
        if v.updated_input and v.permission != "defer":
            out.input = _rewrite(ev.tool_name, ev.input, v.updated_input, ctx.cwd)
        return out if out.model_fields_set else None

    async def _on_tool_result(
        self, ev: ToolResultEvent, ctx: HookContext
    ) -> ToolResultResult | None:
        """``PostToolUse``: exit 2 or ``decision: "block"`` (its reason) and
        ``additionalContext`` are appended to the result the model sees, as feedback;
        ``updatedToolOutput`` replaces the output (for Bash only in Bash's own shape).

        ``PostToolUseFailure``: the same for a tool that failed, except that
        ``updatedToolOutput`` is not read.
        """
        event = "PostToolUseFailure" if ev.is_error else "PostToolUse"
        started = self._started.pop(ev.tool_call_id, None)
        if not self.engine.has_hooks(event):
            return None
        ms = None if started is None else round((time.monotonic() - started) * 1000)
        build = payloads.post_tool_use_failure if ev.is_error else payloads.post_tool_use
        fields = build(ev, ctx.cwd, ms)
        v = (await self._run(event, fields, ctx)).verdict
        texts = [f"{event} hook feedback: {r}" for r in v.block_reasons] + v.contexts
        out = ToolResultResult()
        if v.updated_tool_output is not None and not ev.is_error:
            _replace_output(out, ev.tool_name, v.updated_tool_output)
        if texts:
            out.append = [{"type": "text", "text": cap_context("\n\n".join(texts))}]
        return out if out.model_fields_set else None

    async def _on_tool_execution_start(self, ev: ToolExecutionStartEvent, ctx: HookContext) -> None:
        self._started[ev.tool_call_id] = time.monotonic()

    async def _on_input(self, ev: InputEvent, ctx: HookContext) -> InputResult | None:
        """``UserPromptSubmit``: exit 2, ``decision: "block"`` or ``continue: false`` drop the
        prompt (the model never sees it; the user is told why); ``additionalContext``, or
        plain stdout on exit 0, is appended to the prompt."""
        self.prompt_id = str(uuid.uuid4())
        if not self.engine.has_hooks("UserPromptSubmit"):
            return None
        v = (await self._run("UserPromptSubmit", payloads.user_prompt_submit(ev.text), ctx)).verdict
        if v.stop or v.blocked:
            reason = v.reason or v.stop_reason or "blocked"
            ctx.ui.notify(f"prompt blocked by UserPromptSubmit hook: {reason}", "warning")
            return InputResult(handled=True)
        if v.contexts:
            return InputResult(text="\n\n".join([ev.text, cap_context("\n\n".join(v.contexts))]))
        return None

    async def _on_session_start(self, ev: SessionStartEvent, ctx: HookContext) -> None:
        """``SessionStart``: ``additionalContext``, or plain stdout on exit 0, is sent to the
        model as context; a block changes nothing."""
        if self.engine.has_hooks("SessionStart"):
            facts = self.facts(ctx)
            fields = payloads.session_start(ev, facts.model)
            v = (await self._run("SessionStart", fields, ctx, facts)).verdict
            _send_context(ctx, v.contexts)

    async def _on_session_before_switch(
        self, ev: SessionBeforeSwitchEvent, ctx: HookContext
    ) -> None:
        """Note the session about to be left: its SessionEnd follows the switch."""
        self._leaving = self.facts(ctx)

    async def _on_session_switch(self, ev: SessionSwitchEvent, ctx: HookContext) -> None:
        """The session being left ends before the next one's SessionStart: SessionEnd with
        reason ``resume`` (another one opened); a new one's comes from ``session_shutdown``."""
        leaving, self._leaving = self._leaving, None
        if not self.engine.has_hooks("SessionEnd"):
            return
        reason = _SWITCH_END_REASONS.get(ev.reason)
        if reason is None:  # a fork keeps the session it came from going
            return
        now = self.facts(ctx)
        session_id = leaving.session_id if leaving is not None else now.session_id
        transcript = leaving.transcript_path if leaving is not None else ""
        transcript = transcript or ev.previous_session_file or ""
        await self.engine.run(
            "SessionEnd",
            {"reason": reason},
            facts=dataclasses.replace(now, session_id=session_id, transcript_path=transcript),
            status=lambda text: ctx.ui.set_status(STATUS_KEY, text),
        )

    async def _on_session_shutdown(self, ev: SessionShutdownEvent, ctx: HookContext) -> None:
        """``SessionEnd``: the session ends (quit, ``/new``, a signal, a switch to another
        session); an observer: its output changes nothing."""
        if self.engine.has_hooks("SessionEnd"):
            await self._run("SessionEnd", payloads.session_end(ev), ctx)

    async def _on_session_before_compact(
        self, ev: SessionBeforeCompactEvent, ctx: HookContext
    ) -> SessionBeforeCompactResult | None:
        """``PreCompact``: exit 2, ``decision: "block"`` or ``continue: false`` cancel the
        compaction (the user is told)."""
        if not self.engine.has_hooks("PreCompact"):
            return None
        v = (await self._run("PreCompact", payloads.pre_compact(ev), ctx)).verdict
        if v.blocked or v.stop:
            ctx.ui.notify(f"compaction blocked by PreCompact hook: {v.reason}", "warning")
            return SessionBeforeCompactResult(cancel=True)
        return None

    async def _on_turn_start(self, ev: TurnStartEvent, ctx: HookContext) -> None:
        """``ConfigChange``: a settings file changed (checked when a turn starts); a block is
        reported, and hookline keeps the settings it started with either way.

        ``FileChanged``: a file a FileChanged matcher names (``.envrc|.env``) changed
        (checked when a turn starts); ``additionalContext`` is sent to the model.
        """
        if self.engine.has_hooks("ConfigChange"):
            for change in self._config.changes():
                source = self._config_source.get(change.path, "user_settings")
                fields = {"source": source, "file_path": change.path}
                v = (await self._run("ConfigChange", fields, ctx)).verdict
                if v.blocked:  # hookline keeps the settings it started with either way
                    ctx.ui.notify(f"ConfigChange hook: {v.reason}", "warning")
        if self.engine.has_hooks("FileChanged"):
            for change in self._files.changes():
                fields = {"file_path": change.path, "event": change.kind}
                v = (await self._run("FileChanged", fields, ctx)).verdict
                _send_context(ctx, v.contexts)

    async def _on_session_compact(self, ev: SessionCompactEvent, ctx: HookContext) -> None:
        """``PostCompact``: a compaction was written; an observer: its output changes
        nothing."""
        if self.engine.has_hooks("PostCompact"):
            await self._run("PostCompact", payloads.post_compact(ev), ctx)

    async def _on_turn_end(self, ev: TurnEndEvent, ctx: HookContext) -> None:
        """``PostToolBatch``: a model turn with tool calls ended; blocking reasons (as
        feedback) and ``additionalContext`` reach the next model call.

        ``StopFailure``: a turn the model API ended with an error; its output is ignored.
        """
        message = ev.message
        if message is not None and message.get("stop_reason") == "error":
            if self.engine.has_hooks("StopFailure"):  # its output is ignored, as in Claude Code
                await self._run("StopFailure", payloads.stop_failure(message), ctx)
            return
        if not ev.tool_results or not self.engine.has_hooks("PostToolBatch"):
            return
        fields = payloads.post_tool_batch(message, ev.tool_results, ctx.cwd)
        v = (await self._run("PostToolBatch", fields, ctx)).verdict
        feedback = [f"PostToolBatch hook feedback: {r}" for r in v.block_reasons]
        _send_context(ctx, [*feedback, *v.contexts])

    async def _stop_like(
        self, event: str, fields: dict[str, Any], ctx: HookContext
    ) -> StopResult | None:
        v = (await self._run(event, fields, ctx)).verdict
        if v.stop:  # continue: false wins: let the agent stop
            return None
        if v.blocked:
            return StopResult(block=True, reason=v.reason)
        _send_context(ctx, v.contexts)  # the model reads it with the next prompt
        return None

    async def _on_stop(self, ev: StopEvent, ctx: HookContext) -> StopResult | None:
        """``Stop``: exit 2 or ``decision: "block"`` keeps the agent going, the reason its
        next prompt; ``continue: false`` lets it stop; ``additionalContext`` is sent to the
        model."""
        if not self.engine.has_hooks("Stop"):
            return None
        return await self._stop_like("Stop", payloads.stop(ev), ctx)

    async def _on_subagent_stop(self, ev: SubagentStopEvent, ctx: HookContext) -> StopResult | None:
        """``SubagentStop``: as ``Stop``, for a sub-agent: a block sends it back to work."""
        if not self.engine.has_hooks("SubagentStop"):
            return None
        return await self._stop_like("SubagentStop", payloads.subagent_stop(ev), ctx)

    async def _on_subagent_start(self, ev: SubagentStartEvent, ctx: HookContext) -> None:
        """``SubagentStart``: ``additionalContext`` is sent to the model; a block changes
        nothing."""
        if self.engine.has_hooks("SubagentStart"):
            v = (await self._run("SubagentStart", payloads.subagent_start(ev), ctx)).verdict
            _send_context(ctx, v.contexts)

    async def _on_instructions_loaded(self, ev: InstructionsLoadedEvent, ctx: HookContext) -> None:
        """``InstructionsLoaded``: an observer: its output changes nothing."""
        if self.engine.has_hooks("InstructionsLoaded"):
            fields = payloads.instructions_loaded(
                ev.file_path,
                ev.memory_type,
                ev.load_reason,
                globs=ev.globs,
                trigger_file_path=ev.trigger_file_path,
                parent_file_path=ev.parent_file_path,
            )
            await self._run("InstructionsLoaded", fields, ctx)

    async def _on_notification(self, ev: NotificationEvent, ctx: HookContext) -> None:
        """``Notification``: ``additionalContext`` is sent to the model; a block changes
        nothing."""
        if self.engine.has_hooks("Notification"):
            v = (await self._run("Notification", payloads.notification(ev), ctx)).verdict
            _send_context(ctx, v.contexts)

    async def _on_permission_request(
        self, ev: PermissionRequestEvent, ctx: HookContext
    ) -> PermissionRequestResult | None:
        """``PermissionRequest``: ``decision.behavior: "deny"`` (or exit 2,
        ``permissionDecision: "deny"``) denies the call with ``decision.message``; ``allow``
        allows it, ``decision.updatedInput`` (or ``updatedInput``) replacing the input; no
        decision: the user is asked."""
        if not self.engine.has_hooks("PermissionRequest"):
            return None
        fields = payloads.permission_request(ev, ctx.cwd)
        v = (await self._run("PermissionRequest", fields, ctx)).verdict
        if v.blocked or v.permission_behavior == "deny" or v.permission == "deny":
            reason = v.permission_message or v.reason or v.permission_reason
            return PermissionRequestResult(decision="deny", reason=reason)
        if v.permission_behavior == "allow" or v.permission == "allow":
            out = PermissionRequestResult(decision="allow")
            if v.updated_input:
                out.input = _rewrite(ev.tool_name, ev.input, v.updated_input, ctx.cwd)
            return out
        return None


#: A handler of ``ClaudeHooks``, called with the hooks, the event and ``ctx``.
_Handler = Callable[[ClaudeHooks, Any, HookContext], Awaitable[Any]]

#: Internal event → its handler: one per ``BUS_EVENTS`` entry, plus the events that fire
#: no Claude event but note something for a later one (``bus_events`` says when).
HANDLERS: dict[str, _Handler] = {
    "tool_call": ClaudeHooks._on_tool_call,
    "tool_result": ClaudeHooks._on_tool_result,
    "input": ClaudeHooks._on_input,
    "session_start": ClaudeHooks._on_session_start,
    "session_shutdown": ClaudeHooks._on_session_shutdown,
    "session_switch": ClaudeHooks._on_session_switch,
    "session_before_compact": ClaudeHooks._on_session_before_compact,
    "stop": ClaudeHooks._on_stop,
    "subagent_stop": ClaudeHooks._on_subagent_stop,
    "subagent_start": ClaudeHooks._on_subagent_start,
    "notification": ClaudeHooks._on_notification,
    "permission_request": ClaudeHooks._on_permission_request,
    "instructions_loaded": ClaudeHooks._on_instructions_loaded,
    "turn_end": ClaudeHooks._on_turn_end,
    "turn_start": ClaudeHooks._on_turn_start,
    "session_compact": ClaudeHooks._on_session_compact,
    "tool_execution_start": ClaudeHooks._on_tool_execution_start,
    "session_before_switch": ClaudeHooks._on_session_before_switch,
}

#: Settings scopes in ConfigChange's ``source`` vocabulary.
_CONFIG_SOURCES = {
    "user": "user_settings",
    "project": "project_settings",
    "local": "local_settings",
    "managed": "policy_settings",
    "cli": "cli_settings",
}


def _rewrite(
    tool: str, original: dict[str, Any], updated: dict[str, Any], cwd: str
) -> dict[str, Any]:
    """``updatedInput`` (Claude keys) as the call's new input, back in hookline's keys.

    As in Claude Code it replaces the input: a key the hook leaves out is gone.
    Several hooks' rewrites were merged in hook order before (a later hook's key
    wins). A path left as the hook saw it (absolute) goes back to the model's spelling.
    """
    return restore_paths(tool, original, from_claude_input(tool, dict(updated)), cwd)


def _replace_output(out: ToolResultResult, tool: str, value: Any) -> None:
    """``updatedToolOutput`` into ``out``: for bash only in Bash's own shape (as Claude Code,
    which ignores a plain string there), for other tools as :func:`_tool_output_content`."""
    if tool != "bash":
        out.content = _tool_output_content(value)
        return
    replacement = bash_replacement(value)
    if replacement is None:
        log.debug("PostToolUse updatedToolOutput for Bash is not in Bash's shape: ignored")
        return
    out.content = [{"type": "text", "text": cap_context(replacement.text)}]
    if replacement.is_error:
        out.is_error = True


def _tool_output_content(value: Any) -> list[Content]:
    """``updatedToolOutput`` as the content the model sees: text as is, MCP-style text
    blocks kept, anything else as JSON."""
    if isinstance(value, str):
        return [{"type": "text", "text": cap_context(value)}]
    if isinstance(value, list) and all(
        isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        for b in value
    ):
        return [{"type": "text", "text": cap_context(b["text"])} for b in value]
    return [{"type": "text", "text": cap_context(json.dumps(value, ensure_ascii=False))}]


def _stop_reason(event: str, given: str | None) -> str:
    return given or f"{event} hook asked to stop"


def _send_context(ctx: HookContext, contexts: Sequence[str], *, trigger_turn: bool = False) -> None:
    """Hook-added context reaches the model as a hidden message (queued while a run streams)."""
    text = cap_context("\n\n".join(c for c in contexts if c))
    if text:
        message: CustomMessage = {
            "role": "custom",
            "custom_type": "hook_context",
            "content": text,
            "display": False,
        }
        ctx.host.send_message(message, trigger_turn)


def _label(o: Outcome) -> str:
    return f"({o.hook_type} from {o.scope} {o.origin})"
