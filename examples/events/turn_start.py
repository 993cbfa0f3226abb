"""``turn_start``: number the turns."""

from __future__ import annotations

from hookline import HookAPI, HookContext, TurnStartEvent


def register(pi: HookAPI) -> None:
    @pi.on("turn_start")
    def number(event: TurnStartEvent, ctx: HookContext) -> None:
        ctx.ui.set_status("turn", f"turn {event.turn_index + 1}")
