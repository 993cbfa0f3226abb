"""A bash budget per session, the same whichever process answers: ``ctx.store``.

Each session may run ``LIMIT`` bash commands an hour. The count lives in
``ctx.store.session``, so under ``hookline serve`` with several workers (or
machines) sharing ``HOOKLINE_STORE=redis://…`` every worker sees the same
count, and a restart forgets nothing. Past the budget, a user who is there may
lift it for the rest of the hour; the approval is remembered the same way.

Use it with ``hookline --hook examples/hooks/bash_budget.py`` (``HOOKLINE_BASH_BUDGET``
sets the limit).
"""

from __future__ import annotations

import os
from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent

LIMIT = int(os.environ.get("HOOKLINE_BASH_BUDGET", "50"))
WINDOW = 3600  # seconds: the count starts again an hour after a session's first call


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    async def budget(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name != "bash":
            return None
        spent = await ctx.store.session.aincr("bash_calls", ttl=WINDOW)
        if spent <= LIMIT or await ctx.store.session.aget("budget_lifted"):
            return None
        asked = f"{spent} bash commands this hour (the budget is {LIMIT}). Allow more this hour?"
        if ctx.has_ui and await ctx.ui.confirm("Bash budget", asked):
            await ctx.store.session.aset("budget_lifted", True, ttl=WINDOW)
            return None
        return {"block": True, "reason": f"bash command {spent} this hour; the budget is {LIMIT}"}
