"""``ttsr_triggered``: say which stream rule fired."""

from __future__ import annotations

from hookline import HookAPI, HookContext, TtsrTriggeredEvent


def register(pi: HookAPI) -> None:
    @pi.on("ttsr_triggered")
    def rule_fired(event: TtsrTriggeredEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"rule {', '.join(event.rules)} matched {event.matched_text!r}")
