"""``auto_compaction_start``: say an automatic compaction started."""

from __future__ import annotations

from hookline import AutoCompactionStartEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("auto_compaction_start")
    def compacting(event: AutoCompactionStartEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"compacting the context ({event.reason})")
