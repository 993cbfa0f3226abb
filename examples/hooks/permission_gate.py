"""Permission gate: ask before a dangerous ``bash`` command runs.

The Python version of pi's "permission gate" example. A ``bash``
call whose command matches one of the dangerous patterns (``rm -r``/``rm -rf``,
``sudo``, ``chmod``/``chown`` with ``777``) is shown to the user with
``ctx.ui.select(..., ["Yes", "No"])``; anything but "Yes" blocks it.

Without a UI (print mode, RPC without a client, tests) ``select`` answers
``None``, so dangerous commands are blocked: the gate fails closed.

Use it with ``hookline --hook examples/hooks/permission_gate.py``.
"""

from __future__ import annotations

import re
from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent

#: pi's patterns, matched case-insensitively anywhere in the command.
DANGEROUS_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\brm\s+(-rf?|--recursive)", re.IGNORECASE),
    re.compile(r"\bsudo\b", re.IGNORECASE),
    re.compile(r"\b(chmod|chown)\b.*777", re.IGNORECASE),
)

ALLOW = "Yes"
DENY = "No"


def is_dangerous(command: str) -> bool:
    """True when ``command`` matches one of :data:`DANGEROUS_PATTERNS`."""
    return any(p.search(command) for p in DANGEROUS_PATTERNS)


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    async def gate(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name != "bash":
            return None
        command = str(event.input.get("command", ""))
        if not is_dangerous(command):
            return None
        choice = await ctx.ui.select(
            f"⚠️ Dangerous command:\n\n  {command}\n\nAllow?", [ALLOW, DENY]
        )
        if choice != ALLOW:
            return {"block": True, "reason": "Blocked by user"}
        return None
