"""``session_fork``: say where the fork went."""

from __future__ import annotations

from hookline import HookAPI, HookContext, SessionForkEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_fork")
    def forked(event: SessionForkEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"forked into {event.session_file}")
