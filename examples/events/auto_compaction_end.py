"""``auto_compaction_end``: say how an automatic compaction ended."""

from __future__ import annotations

from hookline import AutoCompactionEndEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("auto_compaction_end")
    def compacted(event: AutoCompactionEndEvent, ctx: HookContext) -> None:
        ctx.ui.notify("compaction aborted" if event.aborted else "context compacted")
