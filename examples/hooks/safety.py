"""Safety hook: a small policy for ``bash``, ``write`` and ``edit``, failing closed.

The "safety hook" of oh-my-pi's hook guide, grown into a policy a team can
start from. Built on :mod:`hookline.shell`, so quoting, ``sudo``, ``&&`` and
``bash -c '...'`` do not hide a command. Blocked:

- a line that cannot be analysed (a syntax error, ``bash -c "$SCRIPT"``),
  or whose program is decided at run time (``$CMD x``);
- code fetched and run in one go: ``curl``/``wget`` piped into a shell or
  an interpreter (``curl x | sh``, ``wget -O- x | python3``);
- ``git push --force`` / ``-f`` / ``--force-with-lease`` (use a pull request);
- disk-level writes: ``mkfs*``, ``dd`` with ``of=/dev/...``;
- ``write``/``edit`` of a path outside the project (``..``, absolute paths,
  symlinks are resolved first).

Each block says what was refused and why, so the model can choose another way.
"""

from __future__ import annotations

import os
from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent
from hookline.shell import SimpleCommand, parse_command

_DOWNLOADERS = frozenset({"curl", "wget"})
_RUNNERS = frozenset({"sh", "bash", "zsh", "dash", "python", "python3", "perl", "ruby", "node"})


def _force_push(c: SimpleCommand) -> bool:
    args = c.args
    flags = {"--force", "-f", "--force-with-lease"}
    return c.name == "git" and "push" in args and any(a in flags or a.startswith("+") for a in args)


def _disk_write(c: SimpleCommand) -> bool:
    if c.name.startswith("mkfs"):
        return True
    return c.name == "dd" and any(a.startswith("of=/dev/") for a in c.args)


def bash_problem(line: str) -> str | None:
    """Why ``line`` is refused, or ``None`` when the policy lets it run."""
    parsed = parse_command(line)
    if parsed.unparsable:
        return f"the command cannot be analysed ({'; '.join(parsed.problems)})"
    names = [c.name for c in parsed.commands]
    for c in parsed.commands:
        if c.program_dynamic:
            return f"the program {c.program!r} is only known at run time"
        if _force_push(c):
            return "force pushes are not allowed; push a branch and open a pull request"
        if _disk_write(c):
            return f"{c.name} writes to a disk device"
    if _DOWNLOADERS & set(names) and "|" in line:
        runners = [c for c in parsed.commands if c.name in _RUNNERS and not c.args]
        if runners:
            return "downloaded code piped into an interpreter; download, read, then run it"
    return None


def path_problem(path: str, cwd: str) -> str | None:
    """Why writing ``path`` is refused (outside the project), or ``None``."""
    root = os.path.realpath(cwd)
    target = os.path.realpath(os.path.join(cwd, os.path.expanduser(path)))
    if target == root or target.startswith(root + os.sep):
        return None
    return f"{path} is outside the project ({root})"


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    def safety(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        problem = None
        if event.tool_name == "bash":
            problem = bash_problem(str(event.input.get("command", "")))
        elif event.tool_name in ("write", "edit"):
            problem = path_problem(str(event.input.get("path", "")), ctx.cwd)
        if problem is None:
            return None
        return {"block": True, "reason": f"safety policy: {problem}"}
