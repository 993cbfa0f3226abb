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

from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolBlockedError, ToolResult, ToolUpdate
from hookline.tools.pipeline import ToolPipeline, error_text

__all__ = ["error_text", "resolve_tools", "wrap_tool", "wrap_tools"]


def wrap_tool(tool: Tool, runner: HookRunner) -> Tool:
    """``tool`` with ``tool_call``/``tool_result`` hooks around its ``execute``.

    The same ``ToolPipeline`` the agent runs, without its permission stage:
    a block raises ``ToolBlockedError`` (the reason), a tool's own failure is
    re-raised after ``tool_result`` hooks saw it.
    """
    pipeline = ToolPipeline(runner)
    inner = replace(tool)

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        outcome = await pipeline.run(inner, tool_call_id, params, signal, on_update)
        if outcome.denial is not None:
            raise ToolBlockedError(outcome.denial.reason)
        if outcome.error is not None:
            raise outcome.error
        return outcome.result

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
