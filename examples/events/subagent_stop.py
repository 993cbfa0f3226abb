"""``subagent_stop``: keep a sub-agent going once, to check its work."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, SubagentStopEvent


def register(pi: HookAPI) -> None:
    @pi.on("subagent_stop")
    def check_first(event: SubagentStopEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.stop_hook_active:
            return None
        return {"block": True, "reason": "Check your work, then stop."}
