"""Trigger compaction: compact when the context passes a share of the window, or on
``/trigger-compact``.

The Python version of pi's trigger-compact example.
"""

from __future__ import annotations

from typing import Any

from hookline import HookAPI, HookContext, TurnEndEvent

#: Percent of the context window past which a turn's end compacts.
THRESHOLD_PERCENT = 70.0


def register(pi: HookAPI) -> None:
    @pi.on("turn_end")
    def check(event: TurnEndEvent, ctx: HookContext) -> None:
        usage = ctx.get_context_usage()
        if usage is not None and usage.percent is not None and usage.percent > THRESHOLD_PERCENT:
            ctx.ui.notify(f"context at {usage.percent:.0f}%: compacting", "info")
            ctx.compact(custom_instructions="Keep file names and open decisions.")

    @pi.register_command("trigger-compact", description="compact now: /trigger-compact [NOTES]")
    def now(args: str, ctx: Any) -> None:
        ctx.compact(custom_instructions=args.strip() or None)
