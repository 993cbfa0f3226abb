"""rm -rf blocker: refuse a recursive ``rm`` of ``/``, ``~`` or ``..`` in ``bash`` calls.

The Python version of oh-my-pi's "rm-rf blocker" example, built on
:mod:`hookline.shell`, the parser hookline's own permission rules use.
``parse_command`` lists every simple command the line would run — in
``&&``/``||``/``;`` lists, pipelines, ``$(...)`` and backticks, subshells,
``if``/``for`` bodies, ``${x:-$(...)}`` defaults and heredocs; through
wrappers such as ``sudo``, ``env``, ``timeout``, ``nice``, ``xargs`` and
``find -exec``; and inside ``sh -c '...'``, ``bash -c`` and ``eval`` scripts —
with quotes and escapes removed, so ``FOO=1 sudo -u root \\rm -rf "/"`` is
seen as ``rm -rf /``. For each command:

- a program named ``rm`` (also ``/bin/rm``, ``\\rm``, ``"rm"``) with a
  recursive flag (``-r``, ``-R``, ``-rf``, ``-fr``, ``--recursive``; ``-f`` is
  not required, ``rm -r /`` is as bad) and a target that is the root
  (``/``, ``/*``, ``//``), the home folder (``~``, ``~/``, ``$HOME``,
  ``${HOME}``) or a parent (``..``, ``../..``, ``../*``) is dangerous.

If the text cannot be analysed (``result.unparsable``), the hook blocks
conservatively only when it contains ``rm -rf``. With a UI, the user may
confirm and let the command run; without one (print mode) it is blocked.
"""

from __future__ import annotations

import posixpath
from typing import Any

from hookline import HookAPI, HookContext, ToolCallEvent
from hookline.shell import ShellParseError, parse_command

_HOME_FORMS = frozenset({"~", "$HOME", "${HOME}"})

REASON = "rm -rf of /, ~ or .. blocked by safety policy"


def _is_recursive_flag(arg: str) -> bool:
    if arg in ("--recursive", "-recursive"):
        return True
    return arg.startswith("-") and not arg.startswith("--") and bool(set(arg[1:]) & {"r", "R"})


def is_dangerous_target(arg: str) -> bool:
    """True for the root, the home folder or a parent folder (with an optional ``/*`` glob)."""
    target = arg.strip()
    for suffix in ("/*", "/.*"):
        if target.endswith(suffix):
            target = target[: -len(suffix)] or "/"
            break
    if not target:
        return False
    head, sep, rest = target.partition("/")
    if head in _HOME_FORMS:
        return posixpath.normpath("/" + rest) == "/" if sep else True
    if target.startswith("/"):
        return posixpath.normpath("/" + target.lstrip("/")) == "/"
    parts = [p for p in posixpath.normpath(target).split("/") if p]
    return bool(parts) and all(p == ".." for p in parts)


def _rm_is_dangerous(args: list[str]) -> bool:
    recursive = False
    targets: list[str] = []
    options_done = False
    for arg in args:
        if not options_done and arg == "--":
            options_done = True
        elif not options_done and arg.startswith("-") and len(arg) > 1:
            recursive = recursive or _is_recursive_flag(arg)
        else:
            targets.append(arg)
    return recursive and any(is_dangerous_target(t) for t in targets)


def find_dangerous_rm(script: str) -> str | None:
    """The first dangerous ``rm`` command's source text in ``script``, or ``None``.

    Raises :class:`hookline.shell.ShellParseError` when the script cannot be analysed.
    """
    for command in parse_command(script, strict=True).commands:
        if command.name == "rm" and _rm_is_dangerous(command.args):
            start, end = command.span
            return script[start:end]
    return None


def check_command(command: str) -> str | None:
    """Why ``command`` is refused, or ``None``; unparsable text is judged by ``"rm -rf"``."""
    try:
        found = find_dangerous_rm(command)
    except ShellParseError:
        return f"{REASON} (unparsable command containing rm -rf)" if "rm -rf" in command else None
    return f"{REASON}: {found}" if found is not None else None


def register(pi: HookAPI) -> None:
    @pi.on("tool_call")
    async def block_rm_rf(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any] | None:
        if event.tool_name != "bash":
            return None
        command = str(event.input.get("command", ""))
        reason = check_command(command)
        if reason is None:
            return None
        if ctx.has_ui and await ctx.ui.confirm(
            "Dangerous command",
            f"This command deletes a root, home or parent folder:\n{command}\n\nProceed?",
        ):
            return None
        return {"block": True, "reason": reason}
