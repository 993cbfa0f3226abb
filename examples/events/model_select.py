"""``model_select``: say which model is in use."""

from __future__ import annotations

from hookline import HookAPI, HookContext, ModelSelectEvent


def register(pi: HookAPI) -> None:
    @pi.on("model_select")
    def show_model(event: ModelSelectEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"model: {event.spec} ({event.source})")
