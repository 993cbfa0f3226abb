"""``tool_execution_update``: show that a tool is still streaming output."""

from __future__ import annotations

from hookline import HookAPI, HookContext, ToolExecutionUpdateEvent


def register(pi: HookAPI) -> None:
    @pi.on("tool_execution_update")
    def progress(event: ToolExecutionUpdateEvent, ctx: HookContext) -> None:
        ctx.ui.set_status("tool", f"{event.tool_name}: output arriving")
