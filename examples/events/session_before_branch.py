"""``session_before_branch``: branch without restoring the conversation."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SessionBeforeBranchEvent


def register(pi: HookAPI) -> None:
    @pi.on("session_before_branch")
    def keep_conversation(
        event: SessionBeforeBranchEvent, ctx: HookContext
    ) -> dict[str, Any] | None:
        return {"skip_conversation_restore": True}
