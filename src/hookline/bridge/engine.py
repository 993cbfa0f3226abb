"""``BridgeHooks``: hookline's hook modules loaded once, answering Claude Code hook inputs.

``hookline claude-hook`` builds one per process (one event); ``hookline serve``
keeps one for its lifetime, so hooks keep their state between events.
``hookline serve --stdio`` shares the modules its agent loaded
(``share_bridge``): one import, one state for both hosts.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookline.bridge.mapping import (
    FAIL_CLOSED,
    BridgeInputError,
    ClaudeAnswer,
    claude_event_name,
    failure_answer,
    to_answer,
    to_event,
    unknown_event_answer,
    with_context,
)
from hookline.bridge.metrics import NO_METRICS, BridgeMetrics, Decision, claude_decision
from hookline.core.bus import EventBus
from hookline.core.calling import HookError, describe
from hookline.core.context import HookContext
from hookline.core.events import Event
from hookline.core.host import EMPTY_SESSION, DetachedHost, EmptySession, RunMode, SessionView
from hookline.core.loopless import run_inline, run_to_end
from hookline.core.messages import CustomMessage
from hookline.core.runner import DEFAULT_HOOK_TIMEOUT, HookRunner
from hookline.discovery.loader import LoadResult, build_runner, load_hooks
from hookline.discovery.sources import discover_hooks


class EventHost(DetachedHost):
    """The agent as hooks see it inside another agent, for the length of one event.

    ``pi.send_message`` becomes context for the model (Claude's
    ``additionalContext``); whatever else hooks send is dropped with the host
    at the end of the event, as no agent here can take it.
    """

    def __init__(self, mode: RunMode = "print", session: SessionView = EMPTY_SESSION) -> None:
        super().__init__()
        self.context: list[str] = []
        self._mode: RunMode = mode
        self._session = session

    def get_mode(self) -> RunMode:
        return self._mode

    def get_session_manager(self) -> SessionView:
        return self._session

    def send_message(self, message: CustomMessage, trigger_turn: bool) -> None:
        content = message.get("content")
        if isinstance(content, str):
            self.context.append(content)
        elif isinstance(content, list):
            self.context += [str(c.get("text", "")) for c in content if c.get("type") == "text"]


class InputSession(EmptySession):
    """The session a hook input names: Claude Code's ``session_id``, and its ``cwd`` as the
    project's folder (what ``ctx.store`` keys by); no entries are known here."""

    __slots__ = ("_cwd", "_id")

    def __init__(self, payload: Mapping[str, Any]) -> None:
        session_id, cwd = payload.get("session_id"), payload.get("cwd")
        self._id = session_id if isinstance(session_id, str) else ""
        self._cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else ""

    def get_session_id(self) -> str:
        return self._id

    def get_cwd(self) -> str:
        return self._cwd


@dataclass(slots=True)
class BridgeHooks:
    """A runner holding the loaded hook modules, and what failed to load.

    A hook module that failed to load makes every ``PreToolUse`` and
    ``PermissionRequest`` answer a denial: the hook that was meant to guard
    the call is not there (fail closed). So do project hook modules left out
    because the project is not trusted (``skipped``), unless ``allow_skip``;
    other events then carry a ``systemMessage`` saying so, once per bridge.

    Events are answered one at a time: the caller serialises them
    (``claude-hook`` answers one; ``serve`` runs them on its ``AnswerWorker``).
    """

    runner: HookRunner
    load_errors: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    #: What hooks read as ``ctx.mode`` (``share_bridge``: the mode of the agent sharing).
    mode: RunMode = "print"
    #: The contexts the hooks' ``pi`` objects are bound to when another runner loaded them
    #: (``share_bridge``): each event lends them its host, so ``pi.send_message`` reaches
    #: this event's answer as ``ctx`` does.
    lent: list[HookContext] = field(default_factory=list)
    #: The hooks' ``pi.events`` bus: a subscriber may be ``async``, so while any hook
    #: listens there, events run in a loop (``answer_once``).
    events: EventBus | None = None
    #: Let calls through while the untrusted project's hooks are skipped
    #: (``--allow-untrusted-skip``): the skip is then only said once, on stderr.
    allow_skip: bool = False
    #: Where decisions and hook failures are counted (``hookline.bridge.metrics``).
    metrics: BridgeMetrics = NO_METRICS
    #: Whether the skipped hooks were told of (a ``systemMessage``, or stderr).
    _told: bool = False

    async def answer(self, payload: Mapping[str, Any]) -> ClaudeAnswer:
        """Run the hooks for one hook input and say what Claude Code should do (counted
        in ``metrics``)."""
        started = time.perf_counter()
        answer, decision = await self.decide(payload)
        self.metrics.decided(decision, started)
        return answer

    async def decide(self, payload: Mapping[str, Any]) -> tuple[ClaudeAnswer, Decision]:
        """``answer``'s answer and its labels, not counted yet: for a caller that may
        answer otherwise (``AnswerWorker``, when the hooks are late)."""
        prepared = self._prepare(payload)
        if isinstance(prepared, ClaudeAnswer):
            return self._decided(payload, prepared, None)
        try:
            answer, hook = await self._answer(payload, *prepared)
        except Exception as exc:  # an answer that cannot be made must not be no answer
            answer = failure_answer(prepared[0], f"no answer could be made ({describe(exc)})")
            hook = None
        return self._decided(payload, answer, hook)

    def answer_once(self, payload: Mapping[str, Any]) -> ClaudeAnswer:
        """``answer`` for a process that answers one event (``claude-hook``): when every
        handler of the event is a plain function they run without an event loop, and
        asyncio is never imported (start-up is that command's product)."""
        started = time.perf_counter()
        answer, decision = self._decide_once(payload)
        self.metrics.decided(decision, started)
        return answer

    def _decide_once(self, payload: Mapping[str, Any]) -> tuple[ClaudeAnswer, Decision]:
        prepared = self._prepare(payload)
        if isinstance(prepared, ClaudeAnswer):
            return self._decided(payload, prepared, None)
        run = self._answer(payload, *prepared)
        inline = self.runner.runs_inline(prepared[1].type)
        if self.events is not None and self.events.has_subscribers():
            inline = False  # an ``async`` subscriber a plain handler emits to needs the loop
        try:
            answer, hook = run_inline(run) if inline else run_to_end(run)
        except Exception as exc:
            # Crashing would exit 1, a non-blocking error: the call would run unchecked.
            answer = failure_answer(prepared[0], f"no answer could be made ({describe(exc)})")
            hook = None
        return self._decided(payload, answer, hook)

    def _decided(
        self, payload: Mapping[str, Any], answer: ClaudeAnswer, hook: str | None
    ) -> tuple[ClaudeAnswer, Decision]:
        """The answer as sent (``_noted``) and its labels (``hook``: who decided)."""
        answer = self._noted(payload, answer)
        event = payload.get("hook_event_name")
        return answer, claude_decision(event if isinstance(event, str) else "", hook, answer)

    def missing(self) -> list[str]:
        """Why hooks meant to guard tool calls are not there: each module that failed to
        load, and the skipped project hooks unless ``allow_skip`` (empty: all loaded)."""
        skipped = [self.skip_reason()] if self.skipped and not self.allow_skip else []
        return [*self.load_errors, *skipped]

    def skip_reason(self) -> str:
        """Why the project's hook modules did not load, and what to run (``""``: they did)."""
        if not self.skipped:
            return ""
        return "the project's hook modules were not loaded: " + "; ".join(self.skipped)

    def _prepare(self, payload: Mapping[str, Any]) -> ClaudeAnswer | tuple[str, Event]:
        """The Claude event and the hookline event to emit, or the answer without one."""
        try:
            claude_event = claude_event_name(payload)
        except BridgeInputError as exc:
            return unknown_event_answer(str(exc))
        if self.load_errors:
            failed = "; ".join(self.load_errors)
            return failure_answer(claude_event, f"hook modules failed to load: {failed}")
        if self.skipped and not self.allow_skip and claude_event in FAIL_CLOSED:
            return failure_answer(claude_event, self.skip_reason())
        try:
            event = to_event(claude_event, payload)
        except BridgeInputError as exc:
            return failure_answer(claude_event, str(exc))
        except Exception as exc:  # input the mapping cannot take (too deep to copy, ...)
            return failure_answer(claude_event, f"hook input not understood ({describe(exc)})")
        if event is None or not self.runner.has_handlers(event.type):
            return ClaudeAnswer()
        return claude_event, event

    async def _answer(
        self, payload: Mapping[str, Any], claude_event: str, event: Event
    ) -> tuple[ClaudeAnswer, str | None]:
        """The hooks' answer, and the hook that decided it (a failing one when its failure
        is the answer; ``None``: none did)."""
        cwd = payload.get("cwd")
        if isinstance(cwd, str) and os.path.isabs(cwd):
            self.runner.context.cwd = cwd  # `ctx.cwd` is the agent's folder at this event
        errors: list[HookError] = []
        # This event's: what hooks send ends with it; the input names the session.
        host = EventHost(self.mode, InputSession(payload))
        with contextlib.ExitStack() as lending:
            lending.callback(self.runner.on_error(errors.append))
            for context in (self.runner.context, *self.lent):
                lending.enter_context(context.lend(host))
            result = await self.runner.emit(event)
        for error in errors:
            self.metrics.hook_error(error)
        hook = getattr(result, "hook_path", None)
        answer = to_answer(claude_event, payload, event, result)
        answer = with_context(claude_event, answer, host.context)
        try:
            answer.stdout  # noqa: B018 - Claude reads JSON: an answer it cannot carry is none
        except (TypeError, ValueError) as exc:  # serve would fail to send it: the call would run
            why = f"the hooks' answer is not JSON ({describe(exc)})"
            return failure_answer(claude_event, why), hook
        if not errors:
            return answer, hook
        said = "\n".join(f"hookline: {e.hook_path}: {e.event}: {e.error}" for e in errors)
        stderr = f"{answer.stderr}\n{said}" if answer.stderr else said
        # A failure that decided nothing is a non-blocking error Claude Code shows the user.
        code = answer.exit_code or (0 if answer.output else 1)
        failing = errors[0].hook_path if not answer.output else None  # its failure is the answer
        return ClaudeAnswer(code, answer.output, stderr), hook or failing

    def _noted(self, payload: Mapping[str, Any], answer: ClaudeAnswer) -> ClaudeAnswer:
        """``answer`` with the ``systemMessage`` about skipped hooks, the first time an
        event that is not denied for it comes (a denied call carries the reason)."""
        if self._told or not self.skipped:
            return answer
        if not self.allow_skip and payload.get("hook_event_name") in FAIL_CLOSED:
            return answer
        self._told = True
        said = f"hookline: {self.skip_reason()}"
        if self.allow_skip:  # let through as asked: said on stderr only
            stderr = f"{answer.stderr}\n{said}" if answer.stderr else said
            return ClaudeAnswer(answer.exit_code, answer.output, stderr)
        if answer.exit_code != 0:  # Claude Code reads no JSON then; stderr is shown
            return ClaudeAnswer(answer.exit_code, answer.output, f"{answer.stderr}\n{said}".strip())
        output = dict(answer.output)
        output["systemMessage"] = (
            f"{output['systemMessage']}\n{said}" if "systemMessage" in output else said
        )
        return ClaudeAnswer(0, output, answer.stderr)


def load_bridge(
    hook_paths: Sequence[str] = (),
    *,
    cwd: str,
    paths_from: str | None = None,
    project_dir: str | None = None,
    discover: bool = True,
    trust_project: bool = False,
    allow_skip: bool = False,
    timeout: float | None = DEFAULT_HOOK_TIMEOUT,
    metrics: BridgeMetrics = NO_METRICS,
) -> BridgeHooks:
    """Load ``hook_paths`` and, with ``discover``, the usual sources; hooks see ``cwd``.

    Relative ``hook_paths`` are taken from ``paths_from`` (default ``cwd``):
    the folder the command was started in, not the agent's current folder,
    which follows the agent's ``cd``.

    The usual sources are the project's ``.hookline/hooks/`` (only when the
    project is trusted: ``hookline trust`` or ``trust_project``), the user's
    ``$HOOKLINE_HOME/hooks/`` and installed packages' ``hookline.hooks``
    entry points. Settings ``hooks`` lists are hookline-agent settings and
    are not read here. ``timeout`` is each handler's deadline once it suspends;
    ``metrics`` counts the answers.
    """
    project = project_dir or cwd
    trusted = trust_project or (discover and _is_trusted(project))
    found = discover_hooks(
        cli_paths=list(hook_paths),
        project_dir=project if discover else None,
        project_trusted=trusted,
        cwd=paths_from or cwd,
        user=discover,
        packages=discover,
    )
    result = load_hooks(found, cwd=cwd)
    runner = build_runner(result, cwd=cwd, host=EventHost(), timeout=timeout)
    return BridgeHooks(
        runner,
        [str(e) for e in result.errors],
        [f"{s.source.path}: {s.reason}" for s in result.skipped],
        events=result.events,
        allow_skip=allow_skip,
        metrics=metrics,
    )


def share_bridge(
    loaded: LoadResult,
    owner: HookRunner,
    allow_skip: bool = False,
    metrics: BridgeMetrics = NO_METRICS,
) -> BridgeHooks:
    """Answer Claude Code hook inputs with the hook modules ``owner`` already loaded.

    One import, one state: a hook keeping a count in its module sees the
    events of ``owner``'s host and Claude Code's alike. Only the module hooks
    answer, as under ``claude-hook`` (``owner``'s settings hooks do not:
    Claude Code runs its own), with this bridge's ``ctx`` (the input's
    ``cwd``). Events here and ``owner``'s must not overlap: ``serve --stdio``
    answers one line at a time.
    """
    runner = HookRunner(cwd=owner.context.cwd, timeout=owner.timeout, host=EventHost())
    for hook in loaded.hooks:
        runner.add_hook(hook)  # their ``pi`` stays bound to ``owner``; lent per event
    return BridgeHooks(
        runner,
        [str(e) for e in loaded.errors],
        [f"{s.source.path}: {s.reason}" for s in loaded.skipped],
        mode=owner.context.mode,
        lent=[owner.context],
        events=loaded.events,
        allow_skip=allow_skip,
        metrics=metrics,
    )


def _is_trusted(project: str) -> bool:
    from hookline.settings.trust import TrustStore

    return os.path.isdir(os.path.join(project, ".hookline")) and TrustStore().is_trusted(project)
