"""``tool_execution_end``: say when a tool call failed."""

from __future__ import annotations

from hookline import HookAPI, HookContext, ToolExecutionEndEvent


def register(pi: HookAPI) -> None:
    @pi.on("tool_execution_end")
    def report_failure(event: ToolExecutionEndEvent, ctx: HookContext) -> None:
        if event.is_error:
            ctx.ui.notify(f"{event.tool_name} failed: {event.result_text}", "error")
