"""``session_branch``: say where the branch went."""

from __future__ import annotations

from hookline import HookAPI, HookContext, SessionBranchEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_branch")
    def branched(event: SessionBranchEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"branched at turn {event.target_turn_index}")
