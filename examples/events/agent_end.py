"""``agent_end``: summarise a run."""

from __future__ import annotations

from hookline import AgentEndEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("agent_end")
    def summary(event: AgentEndEvent, ctx: HookContext) -> None:
        ctx.ui.notify(f"{len(event.messages)} messages, {len(event.denials)} calls denied")
