"""Tools as hooks make them: hook tools over a base set, and the pipeline as a ``Tool``.

``resolve_tools`` applies what hooks registered (``api.register_tool``,
``api.wrap_tool``) over a base set, e.g. the built-ins. ``wrap_tool`` is for
embedders: the ``ToolPipeline`` around one tool, as a plain ``Tool``. A
wrapped tool runs ``tool_call`` hooks, the tool and ``tool_result`` hooks
(see ``hookline.core.pipeline``); with no permission stage. Its contract is
the exception one an embedding agent expects:

- a block raises ``ToolBlockedError`` with the reason; the tool never runs;
- a tool's own failure is re-raised after ``tool_result`` hooks saw it (their
  ``append`` feedback is attached to it as notes);
- a hook that returns ``is_error=True`` makes the wrapper return a
  ``ToolResult`` with ``is_error`` set (it does not raise).

With no handler for an event, no event is built for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from hookline.core.pipeline import ToolPipeline
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolBlockedError, ToolResult, ToolUpdate, ToolWrapperExecute

__all__ = ["HookToolWrapper", "resolve_tools", "wrap_tool", "wrap_tools"]


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


#: pi's name for the same wrapping: ``HookToolWrapper(tool, runner)`` is ``wrap_tool``.
HookToolWrapper = wrap_tool


def wrap_tools(tools: Iterable[Tool], runner: HookRunner) -> list[Tool]:
    """Every tool wrapped; wrap once (a wrapped tool wrapped again fires its hooks twice)."""
    return [wrap_tool(t, runner) for t in tools]


def resolve_tools(builtins: Iterable[Tool], runner: HookRunner) -> list[Tool]:
    """Built-ins with hook-registered tools applied: same name replaces, new names append.

    Order: built-ins in their order (a replaced one keeps its place), then new
    hook tools in load order. Among hooks, the first loaded wins a name.
    Then ``wrap_tool`` wrappers apply in load order, each around the tool
    before it; a wrapper for a name no tool has is reported, not applied.
    """
    registered = runner.get_registered_tools()
    tools = [registered.get(t.name, t) for t in builtins]
    taken = {t.name for t in tools}
    tools.extend(t for name, t in registered.items() if name not in taken)
    wrappers = runner.get_tool_wrappers()
    if not wrappers:
        return tools
    by_name = {t.name: i for i, t in enumerate(tools)}
    for name, wrapper in wrappers:
        if name in by_name:
            i = by_name[name]
            tools[i] = _wrapped(tools[i], wrapper)
    return tools


def _wrapped(tool: Tool, wrapper: ToolWrapperExecute) -> Tool:
    original = tool.execute

    async def execute(
        tool_call_id: str,
        params: dict[str, Any],
        signal: asyncio.Event | None = None,
        on_update: ToolUpdate | None = None,
    ) -> ToolResult:
        return await wrapper(original, tool_call_id, params, signal, on_update)

    # its calls no longer run (only) in the sandbox the tool was made with: the wrapper's
    # own code runs outside it, so the sandbox cannot vouch for them (no auto-allow)
    meta = {k: v for k, v in tool.meta.items() if k != "sandbox"}
    return replace(tool, execute=execute, meta=meta)
