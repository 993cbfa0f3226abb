"""``auto_retry_start``: say a model call is retried."""

from __future__ import annotations

from hookline import AutoRetryStartEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("auto_retry_start")
    def retrying(event: AutoRetryStartEvent, ctx: HookContext) -> None:
        ctx.ui.notify(
            f"retry {event.attempt}/{event.max_attempts} in {event.delay_ms} ms: {event.error}"
        )
