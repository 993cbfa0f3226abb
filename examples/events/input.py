"""``input``: expand ``:today:`` in prompts."""

from __future__ import annotations

from datetime import date
from typing import Any

from hookline import HookAPI, HookContext, InputEvent


def register(pi: HookAPI) -> None:
    @pi.on("input")
    def expand_today(event: InputEvent, ctx: HookContext) -> dict[str, Any] | None:
        if ":today:" not in event.text:
            return None
        return {"text": event.text.replace(":today:", date.today().isoformat())}
