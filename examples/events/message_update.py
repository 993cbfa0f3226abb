"""``message_update``: show the length of the answer as it streams."""

from __future__ import annotations

from hookline import HookAPI, HookContext, MessageUpdateEvent


def register(pi: HookAPI) -> None:
    @pi.on("message_update")
    def length(event: MessageUpdateEvent, ctx: HookContext) -> None:
        if event.delta_type == "text":
            ctx.ui.set_status("model", f"{len(event.delta)} new characters")
