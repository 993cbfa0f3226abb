"""``message_end``: turn tabs into spaces in the model's final text."""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, MessageEndEvent


def register(pi: HookAPI) -> None:
    @pi.on("message_end")
    def untab(event: MessageEndEvent, ctx: HookContext) -> dict[str, Any] | None:
        text = "".join(str(b.get("text", "")) for b in event.message["content"])
        return {"text": text.replace("\t", "    ")} if "\t" in text else None
