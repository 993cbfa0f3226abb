"""``session_start``: say how the session started."""

from __future__ import annotations

from hookline import HookAPI, HookContext, SessionStartEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_start")
    def hello(event: SessionStartEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"session {event.source}: {event.session_file or 'not saved'}")
