"""``session_before_tree``: record why the branch was left."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionBeforeTreeEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_before_tree")
    def why(event: SessionBeforeTreeEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {"summary": {"summary": f"left {event.old_leaf_id} for {event.target_id}"}}
