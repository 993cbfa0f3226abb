"""One tool call, start to end: the single pipeline every tool call goes through.

::

    1. tool_call hooks       module hooks in load order, then the settings PreToolUse
                             hooks (installed last): first block wins, a failing
                             handler blocks, ``input`` rewrites chain, ``permission``
                             (allow / ask) is passed on to step 2 as an argument
    2. permission decision   the ``authorize`` stage (the agent's PermissionGate:
                             rules, mode, hook decision, permission_request hooks,
                             UI, no-UI denial); none for plain ``wrap_tools``
    3. the tool              arguments checked against a pydantic ``parameters``
                             model (a mismatch is the tool's failure), then
                             ``execute``; a raise is the tool's failure; never
                             started once the run was stopped (abort, a signal)
    4. tool_result hooks     module hooks, then settings PostToolUse hooks: overrides,
                             ``append`` feedback, fail closed (a failing handler
                             withholds the output)

Every decision is a value: a ``Denial`` when the call did not run, the final
``ToolResult`` when it did. Nothing is passed through context variables.
``wrap_tools`` is this pipeline with no authorize stage, for embedders.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from hookline.core.api import CONTEXT_EXECUTE
from hookline.core.context import HeadlessContext
from hookline.core.driver import ABANDON_GRACE, HandlerAbandoned, Resume, caller_cancelled
from hookline.core.events import Event, ToolCallEvent, ToolResultEvent
from hookline.core.messages import text
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolError, ToolResult, ToolUpdate
from hookline.core.tool_params import parameters_model, parse_arguments

if TYPE_CHECKING:
    from hookline.core.results import ToolCallResult, ToolResultResult

DenialSource = Literal["hook", "rule", "mode", "permission_request", "user", "no_ui"]


@dataclass(frozen=True, slots=True)
class Denial:
    """Why a tool call did not run, and what would let it run (shown to the user)."""

    tool_name: str
    tool_call_id: str
    reason: str
    source: DenialSource
    hint: str | None = None
    #: The path of the hook that denied it (``source`` "hook" or "permission_request");
    #: ``settings:claude`` for settings hooks.
    hook: str | None = None
    #: The block is that hook's failure, reported as a hook error when it happened:
    #: whoever shows the denial points at that error rather than repeating it.
    hook_failed: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tool_name": self.tool_name,
            "tool_call_id": self.tool_call_id,
            "reason": self.reason,
            "source": self.source,
        }
        if self.hint:
            out["hint"] = self.hint
        if self.hook:
            out["hook"] = self.hook
        if self.hook_failed:
            out["hook_failed"] = True
        return out


@dataclass(frozen=True, slots=True)
class SubagentRef:
    """The sub-agent a tool call comes from (the ``task`` tool): hooks see both fields."""

    agent_id: str
    agent_type: str

    def fields(self) -> dict[str, str]:
        return {"agent_id": self.agent_id, "agent_type": self.agent_type}


@dataclass(frozen=True, slots=True)
class Authorization:
    """The permission stage's answer: run with ``input``, or the ``denial``."""

    input: dict[str, Any]
    denial: Denial | None = None


class Authorize(Protocol):
    """Step 2: decide whether a call may run, given the tool_call hooks' combined result."""

    def __call__(
        self,
        tool_name: str,
        tool_call_id: str,
        input: dict[str, Any],
        hooks: ToolCallResult | None,
    ) -> Awaitable[Authorization]: ...


@dataclass(slots=True)
class ToolOutcome:
    """What became of one call: the result the model sees, and why it did not run, if so."""

    result: ToolResult
    input: dict[str, Any]
    denial: Denial | None = None
    #: The tool's own exception when it raised (hook feedback is attached as notes).
    error: BaseException | None = None


def error_text(exc: BaseException) -> str:
    """What the model reads for a failed call: a ``ToolError``'s message, else type and message."""
    if isinstance(exc, ToolError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class ToolPipeline:
    """Runs tool calls through hooks, the permission stage and the tool (see module doc).

    ``observe`` receives the ``tool_call`` and ``tool_result`` events as they
    are emitted (the agent's JSON/RPC stream): a blocked call is observed too.
    """

    def __init__(
        self,
        runner: HookRunner,
        *,
        authorize: Authorize | None = None,
        observe: Callable[[Event], None] | None = None,
    ) -> None:
        self.runner = runner
        self.authorize = authorize
        self.observe = observe

    async def run(
        self,
        tool: Tool,
        tool_call_id: str,
        input: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
        *,
        agent: SubagentRef | None = None,
    ) -> ToolOutcome:
        """One call; ``agent`` names the sub-agent making it (its events carry it)."""
        name = tool.name
        hooks: ToolCallResult | None = None
        who = agent.fields() if agent is not None else {}
        if self.runner.has_handlers("tool_call") or self.observe is not None:
            event = ToolCallEvent(tool_name=name, tool_call_id=tool_call_id, input=input, **who)
            if self.observe is not None:
                self.observe(event)
            if self.runner.has_handlers("tool_call"):
                hooks = await self.runner.emit_tool_call(event)
        if hooks is not None:
            if hooks.block:
                reason = hooks.reason or "blocked by hook"
                denial = Denial(
                    name,
                    tool_call_id,
                    reason,
                    "hook",
                    hook=hooks.hook_path,
                    hook_failed=hooks.hook_failed,
                )
                return _denied(denial, input)
            if hooks.input is not None:
                input = hooks.input
        if self.authorize is not None:
            granted = await self.authorize(name, tool_call_id, input, hooks)
            if granted.denial is not None:
                return _denied(granted.denial, granted.input)
            input = granted.input
        hooks_ran = self.runner.has_handlers("tool_call") or self.runner.has_handlers(
            "permission_request"
        )
        if signal is not None and await _stopped(signal, hooks_ran=hooks_ran):
            return ToolOutcome(ToolResult([text(ABORTED_BEFORE_RUN)], None, is_error=True), input)
        try:
            result = await self._execute(tool, tool_call_id, input, signal, on_update, agent)
        except BaseException as exc:
            # A tool (a hook's own, too) that raises anything is a failed call; only
            # the caller's own cancellation (an abort, a signal) goes through.
            if isinstance(exc, asyncio.CancelledError) and caller_cancelled():
                raise
            return await self._failed(name, tool_call_id, input, exc, who)
        return ToolOutcome(await self._after(name, tool_call_id, input, result, who), input)

    async def _execute(
        self,
        tool: Tool,
        tool_call_id: str,
        input: dict[str, Any],
        signal: asyncio.Event | None,
        on_update: ToolUpdate | None,
        agent: SubagentRef | None = None,
    ) -> ToolResult:
        """The tool's result. A tool that swallows its cancellation (an abort, a signal) is
        abandoned after a short grace and runs on detached: the run ends all the same.

        Arguments are checked here, after every hook had its say (a rewritten ``input``
        is checked too), so ``execute`` never sees arguments its model refuses. A hook
        tool called by a ``task`` sub-agent gets a ctx without the UI, as its hooks do."""
        if not isinstance(tool.parameters, dict):
            parse_arguments(tool.name, parameters_model(tool.parameters), input)
        with_ctx = tool.meta.get(CONTEXT_EXECUTE) if agent is not None else None
        if with_ctx is not None:
            headless = HeadlessContext(self.runner.context)
            coro = _awaited(with_ctx(tool_call_id, input, signal, on_update, headless))
        else:
            coro = _awaited(tool.execute(tool_call_id, input, signal, on_update))
        try:
            first = coro.send(None)
        except StopIteration as stop:
            result: ToolResult = stop.value
            return result
        try:
            result = await Resume(coro, first, ABANDON_GRACE, self.runner.orphans)
        except HandlerAbandoned:
            if caller_cancelled():  # the abort goes on: the call ends as cancelled
                raise asyncio.CancelledError from None
            raise
        return result

    async def _after(
        self,
        name: str,
        tool_call_id: str,
        input: dict[str, Any],
        result: ToolResult,
        who: dict[str, str],
    ) -> ToolResult:
        """Step 4 on a result: overrides apply, ``append`` blocks go after the content."""
        override = await self._emit_result(
            name, tool_call_id, input, result.content, result.details, result.is_error, who
        )
        return apply_override(result, override)

    async def _failed(
        self,
        name: str,
        tool_call_id: str,
        input: dict[str, Any],
        exc: BaseException,
        who: dict[str, str],
    ) -> ToolOutcome:
        """Step 4 on a raise: hooks observe the failure; their feedback rides on it as notes."""
        details = exc.details if isinstance(exc, ToolError) else None
        message = error_text(exc)
        override = await self._emit_result(
            name, tool_call_id, input, [text(message)], details, True, who
        )
        if override is not None:
            if override.content is not None:
                # A hook replaced the error text (redacted it, or withheld it): nothing
                # of the original goes on, details included unless the hook set them.
                message = "\n".join(
                    b["text"]  # type: ignore[typeddict-item]
                    for b in override.content
                    if b.get("type") == "text"
                )
                details = override.details if "details" in override.model_fields_set else None
                exc.__notes__ = []
            for block in override.append or []:
                if block.get("type") == "text":
                    exc.add_note(block["text"])  # type: ignore[typeddict-item]
        notes = "".join(f"\n\n{n}" for n in getattr(exc, "__notes__", ()))
        result = ToolResult([text(message + notes)], details, is_error=True)
        return ToolOutcome(result, input, error=exc)

    async def _emit_result(
        self,
        name: str,
        tool_call_id: str,
        input: dict[str, Any],
        content: list[Any],
        details: Any,
        is_error: bool,
        who: dict[str, str],
    ) -> ToolResultResult | None:
        if not self.runner.has_handlers("tool_result") and self.observe is None:
            return None
        event = ToolResultEvent(
            tool_name=name,
            tool_call_id=tool_call_id,
            input=input,
            content=content,
            details=details,
            is_error=is_error,
            **who,
        )
        if self.observe is not None:
            self.observe(event)
        if not self.runner.has_handlers("tool_result"):
            return None
        return await self.runner.emit_tool_result(event)


#: The result of a call whose run was stopped (abort, SIGTERM, Ctrl+C) before the tool ran.
ABORTED_BEFORE_RUN = "Tool call aborted: the run was stopped before the tool ran."


async def _stopped(signal: asyncio.Event, *, hooks_ran: bool) -> bool:
    """Whether the run was stopped before the tool may start.

    A sync hook (``time.sleep``, a busy loop) holds the event loop: a SIGTERM or Ctrl+C
    that came meanwhile has only queued its stop on the loop. After hooks ran, the
    loop gets one turn, so that stop sets ``signal`` before the tool could start.
    """
    if hooks_ran and not signal.is_set():
        await asyncio.sleep(0)
    return signal.is_set()


async def _awaited(value: Awaitable[ToolResult]) -> ToolResult:
    return await value


def apply_override(result: ToolResult, override: ToolResultResult | None) -> ToolResult:
    """A ``tool_result`` override applied: fields it set replace, ``append`` goes after."""
    if override is None:
        return result
    fields = override.model_fields_set
    content = override.content if override.content is not None else result.content
    return ToolResult(
        content=[*content, *override.append] if override.append else content,
        details=override.details if "details" in fields else result.details,
        is_error=override.is_error if override.is_error is not None else result.is_error,
    )


def _denied(denial: Denial, input: dict[str, Any]) -> ToolOutcome:
    result = ToolResult([text(denial.reason)], None, is_error=True)
    return ToolOutcome(result, input, denial=denial)
