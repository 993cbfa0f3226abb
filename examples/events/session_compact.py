"""``session_compact``: say how much a compaction saved."""

from __future__ import annotations

from hookline import HookAPI, HookContext, SessionCompactEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_compact")
    def saved(event: SessionCompactEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"compacted {event.tokens_before} tokens ({event.trigger})")
