"""pi's system-prompt-header example: the system prompt's length in the status line.

At each run's start ``ctx.get_system_prompt()`` gives the effective system
prompt (with what other hooks' ``before_agent_start`` added); its length goes
to the status line, which is cleared at ``session_shutdown``.

    hookline --hook examples/pi/system_prompt_header.py
"""

from __future__ import annotations

from hookline import AgentStartEvent, HookAPI, HookContext, SessionShutdownEvent

KEY = "system-prompt"


def register(pi: HookAPI) -> None:
    @pi.on("agent_start")
    def show(event: AgentStartEvent, ctx: HookContext) -> None:
        prompt = ctx.get_system_prompt()
        ctx.ui.set_status(KEY, f"System: {len(prompt)} chars")

    @pi.on("session_shutdown")
    def clear(event: SessionShutdownEvent, ctx: HookContext) -> None:
        ctx.ui.set_status(KEY, None)
