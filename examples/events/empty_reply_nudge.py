"""``empty_reply_nudge``: say the model answered with nothing."""

from __future__ import annotations

from hookline import EmptyReplyNudgeEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("empty_reply_nudge")
    def empty(event: EmptyReplyNudgeEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"empty reply in turn {event.turn_index + 1}; asking again", "warning")
