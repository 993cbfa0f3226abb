"""``session_before_switch``: ask before leaving the session."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionBeforeSwitchEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_before_switch")
    async def ask_first(event: SessionBeforeSwitchEvent, ctx: HookContext) -> dict[str, Any] | None:
        if await ctx.ui.confirm("Leave this session?", f"reason: {event.reason}"):
            return None
        return {"cancel": True}
