"""``tool_result``: redact API keys from what the model sees."""

from __future__ import annotations

import re
from typing import Any

from hookline import HookAPI, HookContext, ToolResultEvent


def register(pi: HookAPI) -> None:
    @pi.on("tool_result")
    def redact(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any] | None:
        blocks = [
            {**b, "text": re.sub(r"sk-\w+", "sk-***", b["text"])} if b["type"] == "text" else b
            for b in event.content
        ]
        return {"content": blocks} if blocks != event.content else None
