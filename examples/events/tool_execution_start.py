"""``tool_execution_start``: say which tool runs."""

from __future__ import annotations

from hookline import HookAPI, HookContext, ToolExecutionStartEvent


def register(pi: HookAPI) -> None:
    @pi.on("tool_execution_start")
    def announce(event: ToolExecutionStartEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"running {event.tool_name}")
