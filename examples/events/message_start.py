"""``message_start``: show that the model is answering."""

from __future__ import annotations

from hookline import HookAPI, HookContext, MessageStartEvent


def register(pi: HookAPI) -> None:
    @pi.on("message_start")
    def answering(event: MessageStartEvent, ctx: HookContext) -> None:
        ctx.ui.set_status("model", "answering…")
