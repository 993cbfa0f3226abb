"""``notification``: keep a log of notifications."""

from __future__ import annotations

from pathlib import Path

from hookline import HookAPI, HookContext, NotificationEvent


def register(pi: HookAPI) -> None:
    @pi.on("notification")
    def log(event: NotificationEvent, ctx: HookContext) -> None:
        with Path(ctx.cwd, "notifications.log").open("a") as log:
            log.write(f"{event.notification_type}: {event.message}\n")
