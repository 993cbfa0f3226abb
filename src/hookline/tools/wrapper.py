"""Tool wrapping: ``tool_call`` before and ``tool_result`` after every tool (the seeds' flow).

::

    tool_call handlers ── block? ──> raise ToolBlockedError(reason); the tool never runs
          │ (a handler's ``input`` replaces the params: hookline extension)
          ▼
    execute the tool ── success ──> tool_result(is_error=False) may override
          │                         content / details / is_error (is_error: extension)
          └─ raises ──> tool_result(is_error=True, error text), then re-raise the original

With no handler for an event, the wrapper builds no event for it: the cost
of a wrapped tool without hooks is two dict look-ups.

A tool's own failure stays an exception: ``tool_result`` hooks observe it
but cannot turn it back into a success. A hook that wants the model to see a
successful call as failed returns ``is_error=True``: the wrapper then returns
a ``ToolResult`` with ``is_error`` set (it does not raise).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from hookline.core.calling import HOOK_FAILURES
from hookline.core.events import ToolCallEvent, ToolResultEvent
from hookline.core.messages import text
from hookline.core.runner import HookRunner
from hookline.core.tool import (
    TOOL_CALL_PERMISSION,
    Tool,
    ToolBlockedError,
    ToolError,
    ToolResult,
    ToolUpdate,
)


def error_text(exc: BaseException) -> str:
    """What the model reads for a failed call: a ``ToolError``'s message, else type and message."""
    if isinstance(exc, ToolError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def wrap_tool(tool: Tool, runner: HookRunner) -> Tool:
    """``tool`` with ``tool_call``/``tool_result`` hooks around its ``execute``."""
    inner = tool.execute
    name = tool.name

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        permission = None
        if runner.has_handlers("tool_call"):
            call = await runner.emit_tool_call(
                ToolCallEvent(tool_name=name, tool_call_id=tool_call_id, input=params)
            )
            if call is not None:
                if call.block:
                    raise ToolBlockedError(call.reason or "blocked by hook")
                if call.input is not None:
                    params = call.input
                permission = call.permission
        token = TOOL_CALL_PERMISSION.set(permission)
        try:
            result = await inner(tool_call_id, params, signal, on_update)
        except HOOK_FAILURES as exc:
            if runner.has_handlers("tool_result"):
                failed = await runner.emit_tool_result(
                    ToolResultEvent(
                        tool_name=name,
                        tool_call_id=tool_call_id,
                        input=params,
                        content=[text(error_text(exc))],
                        details=exc.details if isinstance(exc, ToolError) else None,
                        is_error=True,
                    )
                )
                for block in (failed.append or []) if failed is not None else []:
                    if block.get("type") == "text":
                        exc.add_note(block["text"])  # type: ignore[typeddict-item]
            raise
        finally:
            TOOL_CALL_PERMISSION.reset(token)
        if not runner.has_handlers("tool_result"):
            return result
        override = await runner.emit_tool_result(
            ToolResultEvent(
                tool_name=name,
                tool_call_id=tool_call_id,
                input=params,
                content=result.content,
                details=result.details,
                is_error=result.is_error,
            )
        )
        if override is None:
            return result
        fields = override.model_fields_set
        content = override.content if override.content is not None else result.content
        return ToolResult(
            content=[*content, *override.append] if override.append else content,
            details=override.details if "details" in fields else result.details,
            is_error=override.is_error if override.is_error is not None else result.is_error,
        )

    return replace(tool, execute=execute)


def wrap_tools(tools: Iterable[Tool], runner: HookRunner) -> list[Tool]:
    """Every tool wrapped; wrap once (a wrapped tool wrapped again fires its hooks twice)."""
    return [wrap_tool(t, runner) for t in tools]


def resolve_tools(builtins: Iterable[Tool], runner: HookRunner) -> list[Tool]:
    """Built-ins with hook-registered tools applied: same name replaces, new names append.

    Order: built-ins in their order (a replaced one keeps its place), then new
    hook tools in load order. Among hooks, the first loaded wins a name.
    """
    registered = runner.get_registered_tools()
    tools = [registered.get(t.name, t) for t in builtins]
    taken = {t.name for t in tools}
    tools.extend(t for name, t in registered.items() if name not in taken)
    return tools
