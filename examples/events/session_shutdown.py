"""``session_shutdown``: record why the session ended."""

from __future__ import annotations

from pathlib import Path

from hookline import HookAPI, HookContext, SessionShutdownEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_shutdown")
    def goodbye(event: SessionShutdownEvent, ctx: HookContext) -> None:
        Path(ctx.cwd, ".last-exit").write_text(event.reason)
