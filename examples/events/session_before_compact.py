"""``session_before_compact``: write the compaction summary yourself."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionBeforeCompactEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_before_compact")
    def own_summary(event: SessionBeforeCompactEvent, ctx: HookContext) -> dict[str, Any] | None:
        summary = f"{len(event.messages)} earlier messages, summarised by a hook."
        return {"compaction": {"summary": summary}}
