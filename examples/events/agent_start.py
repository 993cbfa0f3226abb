"""``agent_start``: say a run started."""

from __future__ import annotations

from hookline import AgentStartEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("agent_start")
    def started(event: AgentStartEvent, ctx: HookContext) -> None:
        ctx.ui.notify("working…")
