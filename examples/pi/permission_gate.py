"""pi's permission-gate example: ask before a dangerous ``bash`` command runs.

One change from pi: the commands are found with :mod:`hookline.shell` instead
of regular expressions, so walk-arounds are caught and mentions are not
mistaken for commands (``echo sudoku``, ``grep -r sudo .``): the line is split into
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
it ("Blocked by user"). Without a UI (print mode) a dangerous command is
blocked without asking ("Dangerous command blocked (no UI for confirmation)").

    hookline --hook examples/pi/permission_gate.py
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
        if not ctx.has_ui:
            return {"block": True, "reason": "Dangerous command blocked (no UI for confirmation)"}
        choice = await ctx.ui.select(
            f"⚠️ Dangerous command:\n\n  {command}\n\nAllow?", [ALLOW, DENY]
        )
        if choice != ALLOW:
            return {"block": True, "reason": "Blocked by user"}
        return None
