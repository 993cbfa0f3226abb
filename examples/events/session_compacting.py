"""``session.compacting``: make every summary keep the ticket number."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionCompactingEvent


def register(pi: HookAPI) -> None:
    @pi.on("session.compacting")
    def keep_ticket(event: SessionCompactingEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {"context": ["The ticket is PROJ-42."]}
