"""``auto_retry_end``: say when the retries gave up."""

from __future__ import annotations

from hookline import AutoRetryEndEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("auto_retry_end")
    def gave_up(event: AutoRetryEndEvent, ctx: HookContext) -> None:
        if not event.success:
            ctx.ui.notify(f"gave up after {event.attempt} attempts: {event.final_error}", "error")
