"""``session_tree``: say where the leaf moved."""

from __future__ import annotations

from hookline import HookAPI, HookContext, SessionTreeEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_tree")
    def moved(event: SessionTreeEvent, ctx: HookContext) -> None:
        ctx.ui.set_status("leaf", f"leaf: {event.new_leaf_id}")
