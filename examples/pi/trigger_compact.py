"""pi's trigger-compact example: compact when the context passes 100,000 tokens, or on
``/trigger-compact [INSTRUCTIONS]``.

Each turn's end reads the context's size (``ctx.get_context_usage()``); past
the threshold it starts a compaction without waiting for it. With a UI, a
notice says when the compaction starts, and when it completed or failed
(``ctx.compact``'s ``on_complete`` and ``on_error``).

    hookline --hook examples/pi/trigger_compact.py      then  /trigger-compact keep the API
"""

from __future__ import annotations

from hookline import CommandContext, HookAPI, HookContext, TurnEndEvent

COMPACT_THRESHOLD_TOKENS = 100_000


def trigger_compaction(ctx: HookContext, custom_instructions: str | None = None) -> None:
    def completed() -> None:
        if ctx.has_ui:
            ctx.ui.notify("Compaction completed", "info")

    def failed(error: Exception) -> None:
        if ctx.has_ui:
            ctx.ui.notify(f"Compaction failed: {error}", "error")

    if ctx.has_ui:
        ctx.ui.notify("Compaction started", "info")
    ctx.compact(custom_instructions, on_complete=completed, on_error=failed)


def register(pi: HookAPI) -> None:
    @pi.on("turn_end")
    def check(event: TurnEndEvent, ctx: HookContext) -> None:
        usage = ctx.get_context_usage()
        if usage is None or usage.tokens is None or usage.tokens <= COMPACT_THRESHOLD_TOKENS:
            return
        trigger_compaction(ctx)

    @pi.register_command("trigger-compact", description="Trigger compaction immediately")
    def now(args: str, ctx: CommandContext) -> None:
        trigger_compaction(ctx, args.strip() or None)
