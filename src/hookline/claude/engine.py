"""Running one Claude event: select the hooks, run them in parallel, collect outcomes.

``ClaudeHooks`` has one and runs it from the bus; ``run("PreToolUse", fields)``
works without a ``HookRunner`` too (``hookline hooks explain``, tests,
embedders). Each hook has its own timeout; a caller that is cancelled
cancels them all, and every command hook's process group is killed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookline.claude.async_hooks import AsyncHookRegistry, AsyncHookTask, AsyncListener
from hookline.claude.command import DEFAULT_MAX_OUTPUT, default_shell
from hookline.claude.conditions import CallConditions
from hookline.claude.config import (
    CallbackFn,
    CallbackHookConfig,
    HookDefinition,
    HookSource,
    build_table,
    policy_verdict,
)
from hookline.claude.env_file import ENV_FILE_EVENTS, new_env_file, source_env_file
from hookline.claude.environment import subprocess_env
from hookline.claude.facts import SessionFacts
from hookline.claude.http_hook import HttpHookPolicy
from hookline.claude.kinds import HookKind, HookRuntime, kind_of
from hookline.claude.matchers import LITERAL_MATCHER_EVENTS, compile_matcher, match_query
from hookline.claude.mcp_hook import McpToolCaller
from hookline.claude.model_hooks import ModelRunner
from hookline.claude.names import never_fires
from hookline.claude.outcome import Outcome, new_outcome
from hookline.claude.payloads import build_payload
from hookline.claude.selection import Selection, Skipped, select_hooks
from hookline.claude.verdict import Verdict, aggregate
from hookline.core.host import RunMode, agent_env
from hookline.settings.models import CLAUDE_EVENTS
from hookline.settings.policy import HookPolicy

log = logging.getLogger("hookline.claude")

OutcomeListener = Callable[[Outcome], None]
RunListener = Callable[["EventRun"], None]


@dataclass(slots=True)
class EventRun:
    """One event's selection, input and outcomes (in selection order)."""

    event: str
    payload: dict[str, Any]
    selection: Selection
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def verdict(self) -> Verdict:
        return aggregate(self.outcomes)


class HookEngine:
    """Holds the hook table and callbacks; runs events with the session facts it is given."""

    def __init__(
        self,
        sources: Sequence[HookSource] = (),
        *,
        project_dir: str | Path = ".",
        policy: HookPolicy | None = None,
        project_trusted: bool = True,
        env: Mapping[str, str] | None = None,
        model_runner: ModelRunner | None = None,
        max_output: int = DEFAULT_MAX_OUTPUT,
        shell: str | None = None,
        errors: Sequence[str] = (),
        settings_env: Mapping[str, str] | None = None,
        http_policy: HttpHookPolicy | None = None,
        mcp_tools: McpToolCaller | None = None,
        skip: Callable[[HookDefinition], str | None] | None = None,
        mode: RunMode | None = None,
    ) -> None:
        self.project_dir = str(Path(project_dir).resolve())
        self.policy = policy
        self.project_trusted = project_trusted
        self._skip = skip
        self.table = build_table(sources, policy, project_trusted, skip)
        self.errors: list[str] = [*errors, *self.table.errors]
        self.env = env  # None: the process env at each run
        #: The hosting agent's run mode, which marks what hooks and bash get (``agent_env``);
        #: None inside Claude Code (``claude-hook``, ``serve``), which marked it already.
        self.mode = mode
        #: The settings ``env`` block (trusted files only), for hooks and tools.
        self.settings_env: dict[str, str] = dict(settings_env or {})
        self.http_policy = http_policy or HttpHookPolicy()
        #: The session's MCP servers, for ``mcp_tool`` hooks (``None``: none connected).
        self.mcp_tools = mcp_tools
        self.model_runner = model_runner
        self.max_output = max_output
        self.shell = shell
        self.registry = AsyncHookRegistry()
        #: The session id of runs no agent describes (``facts()``).
        self.session_id: str = str(uuid.uuid4())
        #: Variables hooks exported through ``CLAUDE_ENV_FILE`` (SessionStart and the like),
        #: for bash commands (``bash_env``), not for later hooks.
        self.session_env: dict[str, str] = {}
        self._once_ran: set[str] = set()
        self._outcome_listeners: list[OutcomeListener] = []
        self._run_listeners: list[RunListener] = []
        self._callbacks = 0

    # -- configuration -----------------------------------------------------------

    def add_callback(
        self,
        event: str,
        fn: CallbackFn,
        matcher: str | None = None,
        *,
        timeout: float | None = None,
    ) -> HookDefinition:
        """Register a Python callable for a Claude event (SDK ``HookMatcher`` style)."""
        if event not in CLAUDE_EVENTS:
            raise ValueError(f"unknown Claude hook event {event!r}")
        if not callable(fn):
            raise TypeError(f"callback for {event} is not callable: {fn!r}")
        denied = policy_verdict("callback", self.policy, self.project_trusted)
        m = compile_matcher(matcher, event in LITERAL_MATCHER_EVENTS) if denied is None else None
        if m is not None and m.error:
            self.errors.append(f"callback {event}: {m.error}")
        self._callbacks += 1
        spec = CallbackHookConfig(fn, timeout)
        d = HookDefinition(event, matcher, spec, "callback", spec.name, self._callbacks, 0, denied)
        self.table.add(d)
        return d

    def set_sources(
        self, sources: Sequence[HookSource], policy: HookPolicy | None, errors: Sequence[str] = ()
    ) -> None:
        """The hooks of re-read settings (``/reload``): the table is built anew, trust and
        the skip rule as at start; callbacks added since are kept."""
        callbacks = [d for ds in self.table.by_event.values() for d in ds if d.scope == "callback"]
        table = build_table(sources, policy, self.project_trusted, self._skip)
        for definition in callbacks:
            table.add(definition)
        self.policy = policy
        self.table = table
        self.errors = [*errors, *table.errors]

    def has_hooks(self, event: str) -> bool:
        return bool(self.table.by_event.get(event))

    def dormant_events(self) -> dict[str, str]:
        """Events that have hooks configured but never fire in hookline, with why."""
        return {
            e: why for e in self.table.by_event if self.has_hooks(e) and (why := never_fires(e))
        }

    # -- listeners ----------------------------------------------------------------

    def on_outcome(self, listener: OutcomeListener) -> Callable[[], None]:
        """Every hook run's outcome (json mode, the CLI); returns the unsubscribe function."""
        self._outcome_listeners.append(listener)
        return lambda: (
            self._outcome_listeners.remove(listener)
            if listener in self._outcome_listeners
            else None
        )

    def on_run(self, listener: RunListener) -> Callable[[], None]:
        """Every event run with hooks (selection diagnostics + outcomes); returns unsubscribe."""
        self._run_listeners.append(listener)
        return lambda: (
            self._run_listeners.remove(listener) if listener in self._run_listeners else None
        )

    def on_async_result(self, listener: AsyncListener) -> Callable[[], None]:
        """Background hooks' outcomes when they end; returns the unsubscribe function."""
        return self.registry.on_result(listener)

    def _report(self, outcome: Outcome) -> None:
        for listener in list(self._outcome_listeners):
            try:
                listener(outcome)
            except Exception:
                log.exception("hook outcome listener failed")

    @property
    def async_tasks(self) -> dict[str, AsyncHookTask]:
        return self.registry.tasks

    async def shutdown(self) -> None:
        """Cancel background hooks (their process groups are killed)."""
        await self.registry.cancel_all()

    # -- running ------------------------------------------------------------------

    def facts(self, cwd: str | None = None) -> SessionFacts:
        """The facts of a run no agent describes: this engine's session id, no transcript,
        the project folder (or ``cwd``)."""
        return SessionFacts(self.session_id, "", cwd or self.project_dir)

    def hook_env(self) -> dict[str, str]:
        """The environment of hook subprocesses: the agent's and the settings ``env``, but not
        ``CLAUDE_ENV_FILE`` exports (in Claude Code those reach bash only)."""
        return subprocess_env(self._root_env(None), self.settings_env)

    def bash_env(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of bash commands: :meth:`hook_env` with ``CLAUDE_ENV_FILE`` exports."""
        return subprocess_env(self._root_env(base), self.settings_env, self.session_env)

    def _root_env(self, base: Mapping[str, str] | None) -> dict[str, str]:
        root = dict(base if base is not None else self.env if self.env is not None else os.environ)
        return agent_env(self.mode, root) if self.mode is not None else root

    def select(
        self, event: str, query: str | None, payload: dict[str, Any] | None = None
    ) -> Selection:
        """The hooks ``event`` would run for ``query``, with the diagnostics.

        With ``payload``, hooks whose ``if`` condition the input does not meet are
        left out before deduplication (a guarded copy never hides an unguarded one).
        """
        definitions = self.table.by_event.get(event, [])
        unmet: list[Skipped] = []
        if payload is not None:
            conditions = CallConditions(event, payload, self.project_dir)
            kept: list[HookDefinition] = []
            for d in definitions:
                condition = kind_of(d.spec).condition
                if condition and d.denied is None and not conditions.holds(condition):
                    unmet.append(Skipped(d, f"if {condition!r} does not match this input"))
                    continue
                kept.append(d)
            definitions = kept
        sel = select_hooks(event, query, definitions)
        sel.skipped.extend(unmet)
        once = [h for h in sel.hooks if _is_once(h) and h.id in self._once_ran]
        if once:
            sel.hooks = [h for h in sel.hooks if h not in once]
            sel.skipped.extend(Skipped(h, "once: already ran this session") for h in once)
        return sel

    async def run(
        self,
        event: str,
        fields: dict[str, Any],
        *,
        facts: SessionFacts | None = None,
        signal: asyncio.Event | None = None,
        status: Callable[[str | None], None] | None = None,
    ) -> EventRun:
        """Build the input, select, run every hook in parallel; outcomes in selection order.

        The input starts with ``facts`` (default: ``facts()``). ``status`` is told the
        selected hooks' ``statusMessage`` lines while they run (and ``None`` when they
        are done).
        """
        payload = build_payload(event, facts or self.facts(), fields)
        selection = self.select(event, match_query(event, payload), payload)
        run = EventRun(event, payload, selection)
        if not selection.hooks:
            return run
        env = self.hook_env()
        env_file = None
        if event in ENV_FILE_EVENTS:
            env_file = new_env_file()
            env["CLAUDE_ENV_FILE"] = str(env_file)
        messages = [m for h in selection.hooks if (m := kind_of(h.spec).status_message)]
        if status is not None and messages:
            status(" · ".join(dict.fromkeys(messages)))
        finished = False
        try:
            runtime = HookRuntime(
                self.project_dir,
                env,
                signal,
                self.max_output,
                self.shell,
                self.registry,
                self.http_policy,
                self.mcp_tools,
                self.model_runner,
            )
            run.outcomes = list(
                await asyncio.gather(*(self._run_one(h, payload, runtime) for h in selection.hooks))
            )
            finished = True
        finally:
            if status is not None and messages:
                status(None)
            if env_file is not None and not finished:  # cancelled: nothing is sourced
                env_file.unlink(missing_ok=True)
            elif env_file is not None:
                where = payload.get("cwd")
                cwd = where if isinstance(where, str) and Path(where).is_dir() else self.project_dir
                project = {"CLAUDE_PROJECT_DIR": self.project_dir}
                shell = self.shell or default_shell()
                exports = await source_env_file(env_file, {**env, **project}, cwd, shell)
                self.session_env.update(exports)
        for h in selection.hooks:
            if _is_once(h):
                self._once_ran.add(h.id)
        for outcome in run.outcomes:
            self._report(outcome)
        for run_listener in list(self._run_listeners):
            try:
                run_listener(run)
            except Exception:
                log.exception("hook run listener failed")
        return run

    async def _run_one(
        self, hook: HookDefinition, payload: dict[str, Any], runtime: HookRuntime
    ) -> Outcome:
        kind = kind_of(hook.spec)
        try:
            outcome = await kind.run(hook, payload, runtime)
        except Exception as exc:  # a bug here must not become a crash of the agent
            log.exception("hook %s crashed", hook.id)
            outcome = new_outcome(hook, "non_blocking_error", f"internal error: {exc}")
        return _on_failure(kind, hook, outcome)


def _on_failure(kind: HookKind, hook: HookDefinition, outcome: Outcome) -> Outcome:
    """``onFailure: "block"``: a hook that could not give an answer blocks instead of passing."""
    if kind.on_failure != "block":
        return outcome
    if outcome.kind in ("non_blocking_error", "cancelled"):
        outcome.notes.append(f"onFailure is block: {outcome.kind} turned into a block")
        outcome.kind = "blocking"
        outcome.reason = f"{hook.type} hook failed and blocks (onFailure: block): {outcome.reason}"
    return outcome


def _is_once(hook: HookDefinition) -> bool:
    return kind_of(hook.spec).once
