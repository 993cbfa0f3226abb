"""pi's confirm-destructive example: ask before a session change loses the conversation.

Shows cancelling a session change from its ``session_before_*`` event:

- a new session (``/new``, ``/clear``): "Clear session?", cancelled on no;
- a switch to another session while this one holds user messages: "Switch
  session?", cancelled on no;
- a fork: "Fork from entry <id>?", cancelled unless "Yes, create fork" is picked.

A cancel is said with a notification. Without a UI nothing is asked and the
change goes ahead.

    hookline --hook examples/pi/confirm_destructive.py
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionBeforeForkEvent, SessionBeforeSwitchEvent

CANCEL: dict[str, Any] = {"cancel": True}
FORK = "Yes, create fork"
STAY = "No, stay in current session"
#: hookline's reasons for a fresh session (pi says ``new``; ``/clear`` is one too).
FRESH = frozenset({"new", "clear"})


def register(pi: HookAPI) -> None:
    @pi.on("session_before_switch")
    async def before_switch(
        event: SessionBeforeSwitchEvent, ctx: HookContext
    ) -> dict[str, Any] | None:
        if not ctx.has_ui:
            return None
        if event.reason in FRESH:
            if not await ctx.ui.confirm(
                "Clear session?", "This will delete all messages in the current session."
            ):
                ctx.ui.notify("Clear cancelled", "info")
                return CANCEL
            return None
        has_user_messages = any(
            entry.get("type") == "message" and entry.get("message", {}).get("role") == "user"
            for entry in ctx.session_manager.get_entries()
        )
        if has_user_messages and not await ctx.ui.confirm(
            "Switch session?", "You have messages in the current session. Switch anyway?"
        ):
            ctx.ui.notify("Switch cancelled", "info")
            return CANCEL
        return None

    @pi.on("session_before_fork")
    async def before_fork(event: SessionBeforeForkEvent, ctx: HookContext) -> dict[str, Any] | None:
        if not ctx.has_ui:
            return None
        entry = (event.entry_id or "")[:8]
        choice = await ctx.ui.select(f"Fork from entry {entry}?", [FORK, STAY])
        if choice != FORK:
            ctx.ui.notify("Fork cancelled", "info")
            return CANCEL
        return None
