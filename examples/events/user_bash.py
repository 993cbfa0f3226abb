"""``user_bash``: run the user's ``!`` commands without a pager."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, UserBashEvent


def register(pi: HookAPI) -> None:
    @pi.on("user_bash")
    def no_pager(event: UserBashEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {"env": {"PAGER": "cat", "GIT_PAGER": "cat"}}
