"""``session_before_fork``: fork only from a saved entry."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionBeforeForkEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_before_fork")
    def saved_only(event: SessionBeforeForkEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {"cancel": True} if event.entry_id is None else None
