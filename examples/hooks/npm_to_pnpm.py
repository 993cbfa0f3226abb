"""Package-manager rewriter: run ``pnpm`` where the model wrote ``npm``.

Only the command word changes: ``npm install && echo npm > npm.log`` becomes
``pnpm install && echo npm > npm.log``. :mod:`hookline.shell` finds the
commands whose program is ``npm`` (also under ``sudo``, after ``FOO=1``, in
``$(...)``), and the word is replaced at its place in the line, right to left
so earlier offsets stay valid. ``npx``, ``npm`` as an argument, in a string or
a file name, and a command word decided at run time (``$PM install``) are left
alone; so is a line that cannot be analysed.

Use it with ``hookline --hook examples/hooks/npm_to_pnpm.py``.
"""

from __future__ import annotations

import re
from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent
from hookline.shell import parse_command

FROM, TO = "npm", "pnpm"

#: Leading ``NAME=value`` assignments, then the command word itself.
_WORD = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(npm)(?=\s|$|[;&|)])")


def rewrite(line: str) -> str:
    """``line`` with each ``npm`` command word replaced by ``pnpm``; unchanged if none."""
    parsed = parse_command(line)
    if parsed.unparsable:
        return line
    starts = []
    for command in parsed.commands:
        if command.program != FROM or command.program_dynamic:
            continue
        start, end = command.span
        found = _WORD.match(line, start, end)
        if found is not None:
            starts.append(found.start(1))
    for start in sorted(starts, reverse=True):
        line = line[:start] + TO + line[start + len(FROM) :]
    return line


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    def to_pnpm(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name != "bash":
            return None
        command = str(event.input.get("command", ""))
        changed = rewrite(command)
        if changed == command:
            return None
        return {"input": {**event.input, "command": changed}}
