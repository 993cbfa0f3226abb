"""pi's dirty-repo-guard example: no session change while git has uncommitted changes.

Before a new session, a switch and a fork, ``git status --porcelain`` is asked;
with changes the user picks "Yes, proceed anyway" or "No, let me commit first"
(the default: cancelled, with a reminder). Without a UI the change is
cancelled; outside a git repository, or with a clean tree, it goes ahead.

    hookline --hook examples/pi/dirty_repo_guard.py
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionBeforeForkEvent, SessionBeforeSwitchEvent

PROCEED = "Yes, proceed anyway"
COMMIT_FIRST = "No, let me commit first"
CANCEL: dict[str, Any] = {"cancel": True}


def register(pi: HookAPI) -> None:
    async def check_dirty_repo(ctx: HookContext, action: str) -> dict[str, Any] | None:
        status = await pi.exec("git", ["status", "--porcelain"])
        if status.code != 0:
            return None  # not a git repository
        changed = [line for line in status.stdout.strip().split("\n") if line]
        if not changed:
            return None
        if not ctx.has_ui:
            return CANCEL
        choice = await ctx.ui.select(
            f"You have {len(changed)} uncommitted file(s). {action} anyway?",
            [PROCEED, COMMIT_FIRST],
        )
        if choice != PROCEED:
            ctx.ui.notify("Commit your changes first", "warning")
            return CANCEL
        return None

    @pi.on("session_before_switch")
    async def before_switch(
        event: SessionBeforeSwitchEvent, ctx: HookContext
    ) -> dict[str, Any] | None:
        action = "new session" if event.reason in ("new", "clear") else "switch session"
        return await check_dirty_repo(ctx, action)

    @pi.on("session_before_fork")
    async def before_fork(event: SessionBeforeForkEvent, ctx: HookContext) -> dict[str, Any] | None:
        return await check_dirty_repo(ctx, "fork")
