"""``subagent_start``: say a sub-agent started."""

from __future__ import annotations

from hookline import HookAPI, HookContext, SubagentStartEvent


def register(pi: HookAPI) -> None:
    @pi.on("subagent_start")
    def started(event: SubagentStartEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"sub-agent {event.agent_type} ({event.agent_id}) started")
