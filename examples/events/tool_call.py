"""``tool_call``: block force pushes."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    def no_force_push(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name == "bash" and "push --force" in event.input.get("command", ""):
            return {"block": True, "reason": "no force pushes"}
        return None
