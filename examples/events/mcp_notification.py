"""``mcp_notification``: say what an MCP server announced."""

from __future__ import annotations

from hookline import HookAPI, HookContext, McpNotificationEvent


def register(pi: HookAPI) -> None:
    @pi.on("mcp_notification")
    def announce(event: McpNotificationEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"{event.server}: {event.method}")
