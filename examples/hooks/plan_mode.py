"""Plan mode: explore read-only, then switch back to the full tool set to carry the plan out.

The Python version of pi's plan-mode example. ``/plan`` toggles the mode,
``--plan`` starts in it. In plan mode only the read-only tools are offered
(``set_active_tools``), a ``bash`` call that could change anything is
blocked, and the model is told it is planning. The mode survives a resume: it
is kept as a session entry and restored on ``session_start``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from hookline import BeforeAgentStartEvent, HookAPI, HookContext, SessionStartEvent, ToolCallEvent

PLAN_TOOLS = ["read", "ls", "find", "grep", "bash"]
#: Commands a planner may run: they only read.
SAFE_BASH = re.compile(
    r"^\s*(cat|head|tail|ls|pwd|wc|grep|rg|find|git (status|log|diff|show|branch))\b"
)
UNSAFE = re.compile(r"[>|;&`$]")
PLAN_NOTE = (
    "You are in plan mode: explore the code with the read-only tools and answer with a "
    "numbered plan. Do not change files."
)


@dataclass
class PlanState:
    enabled: bool = False
    #: The tools active before plan mode, given back when it ends.
    saved: list[str] = field(default_factory=list)


def register(pi: HookAPI) -> None:
    state = PlanState()
    pi.register_flag("plan", description="start in plan mode (read-only tools)")

    def apply(ctx: HookContext) -> None:
        if state.enabled:
            state.saved = pi.get_active_tools()
            pi.set_active_tools(PLAN_TOOLS)
            ctx.ui.set_status("plan-mode", "plan")
        else:
            if state.saved:
                pi.set_active_tools(state.saved)
            ctx.ui.set_status("plan-mode", None)

    @pi.register_command("plan", description="toggle plan mode (read-only exploration)")
    def toggle(args: str, ctx: Any) -> None:
        state.enabled = not state.enabled
        apply(ctx)
        pi.append_entry("plan-mode", {"enabled": state.enabled})
        ctx.ui.notify("plan mode on" if state.enabled else "plan mode off", "info")

    @pi.on("session_start")
    def restore(event: SessionStartEvent, ctx: HookContext) -> None:
        # Flags are known once every hook is loaded: read them here, not in register.
        if pi.get_flag("plan"):
            state.enabled = True
        for entry in ctx.session_manager.get_entries():
            if entry["type"] == "custom" and entry["custom_type"] == "plan-mode":
                state.enabled = bool(entry["data"]["enabled"])
        if state.enabled:
            apply(ctx)

    @pi.on("before_agent_start")
    def tell(event: BeforeAgentStartEvent, ctx: HookContext) -> dict[str, Any] | None:
        if not state.enabled:
            return None
        return {"system_prompt": f"{event.system_prompt}\n\n{PLAN_NOTE}"}

    @pi.on("tool_call")
    def guard(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if not state.enabled or event.tool_name != "bash":
            return None
        command = str(event.input.get("command", ""))
        if SAFE_BASH.match(command) and not UNSAFE.search(command):
            return None
        return {
            "block": True,
            "reason": f"plan mode: {command!r} may change things; /plan to leave",
        }
