"""Permission gate: ask before a dangerous ``bash`` command runs.

The Python version of pi's "permission gate" example, built on
:mod:`hookline.shell` instead of regular expressions: the line is split into
the simple commands a shell would run (through ``&&``, pipes, ``$(...)``,
``sudo``, ``bash -c '...'``, quotes and escapes), and a command is dangerous
when it is

- ``rm`` with a recursive flag (``-r``, ``-R``, ``-rf``, ``--recursive``),
- run under ``sudo`` (or is ``sudo`` itself),
- ``chmod``/``chown`` with a ``777`` mode.

A line that cannot be analysed (a syntax error, code known only at run time
such as ``bash -c "$S"``) is dangerous when it mentions any of those programs:
the gate cannot tell where they would run, so it asks. The user is
asked with ``ctx.ui.select(..., ["Yes", "No"])``; anything but "Yes" blocks
it. Without a UI (print mode, RPC without a client) ``select`` answers
``None``, so dangerous commands are blocked.

Use it with ``hookline --hook examples/hooks/permission_gate.py``.
"""

from __future__ import annotations

import re
from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent
from hookline.shell import SimpleCommand, parse_command

#: The programs the gate is about, for lines the parser cannot analyse.
_MENTIONED = re.compile(r"\b(rm|sudo|chmod|chown)\b", re.IGNORECASE)

ALLOW = "Yes"
DENY = "No"


def _recursive(arg: str) -> bool:
    if arg == "--recursive":
        return True
    return arg.startswith("-") and not arg.startswith("--") and bool(set(arg[1:]) & {"r", "R"})


def _dangerous(command: SimpleCommand) -> bool:
    name = command.name.lower()
    if name == "sudo" or "sudo" in command.wrappers:
        return True
    if name == "rm":
        return any(_recursive(arg) for arg in command.args)
    if name in ("chmod", "chown"):
        return any("777" in arg for arg in command.args)
    return False


def is_dangerous(line: str) -> bool:
    """True when some command of ``line`` is dangerous, or the line cannot be analysed and
    mentions one of the programs the gate is about."""
    parsed = parse_command(line)
    if parsed.unparsable and _MENTIONED.search(line):
        return True
    return any(_dangerous(c) for c in parsed.commands)


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
