"""The demo's compaction: once the run ends, compact the conversation (as ``/compact``
would), so the project's SessionStart ``compact`` settings hook can restore context."""

from __future__ import annotations

from hookline import AgentEndEvent, HookAPI, HookContext


def register(pi: HookAPI) -> None:
    @pi.on("agent_end")
    def compact(event: AgentEndEvent, ctx: HookContext) -> None:
        ctx.compact(custom_instructions="Keep: the build folder must stay.")
