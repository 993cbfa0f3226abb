"""Which bash calls run in the sandbox, and which of those need no approval.

One place for the rule, read by the bash tool (where to run) and the permission gate
(whether to ask):

- a call runs sandboxed when the sandbox is active, unless every command of its line
  matches ``excludedCommands`` (Claude Code lets one matching command take the whole
  line out; hookline does not: ``git status && curl …`` stays inside), or it asks for
  ``dangerouslyDisableSandbox`` and ``allowUnsandboxedCommands`` is true (with it false
  the argument is ignored);
- a sandboxed call is allowed without asking (``autoAllowBashIfSandboxed``) unless its
  line cannot be vetted: unreadable text, a program known only at run time, ``source``
  or ``.``, ``$$``, a parenthesised group (what Claude Code still asks about). Deny and
  ask rules are checked before and still win.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hookline.sandbox.config import SandboxConfig

#: ``( … )`` as a command (a subshell group), not ``$(``, ``<(``, ``>(`` or ``((``.
_GROUP = re.compile(r"(?:^|[;&|\s])\((?!\()")
_SOURCING = frozenset({"source", "."})


@dataclass(frozen=True, slots=True)
class SandboxPolicy:
    """The decision for one session: ``active`` when the sandbox is enabled and runs here."""

    config: SandboxConfig
    active: bool

    def sandboxed(self, input: Mapping[str, Any]) -> bool:
        """Whether this bash call runs in the sandbox."""
        if not self.active:
            return False
        if input.get("dangerouslyDisableSandbox") is True and self.config.allow_unsandboxed:
            return False
        return not excluded(str(input.get("command", "")), self.config.excluded_commands)

    def auto_allows(self, input: Mapping[str, Any], cwd: str) -> bool:
        """Whether this bash call is sandboxed and its line can be vetted (no approval)."""
        if not (self.config.auto_allow and self.sandboxed(input)):
            return False
        return vettable(str(input.get("command", "")), cwd)


def excluded(line: str, patterns: tuple[str, ...]) -> bool:
    """Whether every command of ``line`` matches one of ``excludedCommands``.

    ``docker`` covers ``docker`` with any arguments; ``docker ps *``, ``git:*`` and an
    exact ``npm test`` read as Bash rule specifiers do.
    """
    if not patterns or not line.strip():
        return False
    from hookline.settings.permission_rules import describe_call
    from hookline.settings.permission_rules.command import CommandPattern

    call = describe_call("bash", {"command": line}, ".")
    if call.unverifiable or not call.commands:
        return False
    compiled = [
        CommandPattern.compile(p if ("*" in p) else f"{p}:*") for p in patterns if p.strip()
    ]
    return all(
        not command.dynamic and any(p.matches_any(command.exact) for p in compiled)
        for command in call.commands
    )


def vettable(line: str, cwd: str) -> bool:
    """Whether the sandbox's auto-allow may answer for ``line``."""
    from hookline.settings.permission_rules import describe_call

    call = describe_call("bash", {"command": line}, cwd)
    if call.unverifiable or call.unknown_edits or "$$" in line or _GROUP.search(line):
        return False
    return not any(t.split()[0] in _SOURCING for c in call.commands for t in c.loose if t.strip())
