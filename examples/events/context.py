"""``context``: keep hooks' custom messages out of what the model sees."""

from __future__ import annotations

from typing import Any

from hookline import ContextEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("context")
    def drop_custom(event: ContextEvent, ctx: HookContext) -> dict[str, Any] | None:
        return {"messages": [m for m in event.messages if m["role"] != "custom"]}
