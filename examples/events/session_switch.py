"""``session_switch``: say which session is current."""

from __future__ import annotations

from hookline import HookAPI, HookContext, SessionSwitchEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_switch")
    def switched(event: SessionSwitchEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"now in {event.session_file}")
