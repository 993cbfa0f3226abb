"""``turn_end``: count the tool calls of each turn."""

from __future__ import annotations

from hookline import HookAPI, HookContext, TurnEndEvent


def register(pi: HookAPI) -> None:
    @pi.on("turn_end")
    def count(event: TurnEndEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"turn {event.turn_index + 1}: {len(event.tool_results)} tool calls")
