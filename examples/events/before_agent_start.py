"""``before_agent_start``: remind the model of the project's rule on every prompt."""

from __future__ import annotations

from typing import Any

from hookline import BeforeAgentStartEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("before_agent_start")
    def remind(event: BeforeAgentStartEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {
            "message": {"custom_type": "reminder", "content": "Run the tests before finishing."}
        }
