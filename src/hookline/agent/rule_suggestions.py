"""The narrowest allow rules that let one call run unasked: what "don't ask again" writes.

- a bash line: one rule per simple command the rules do not already allow — the
  command as written (``Bash(npm run build)``), or its program and subcommand with a
  wildcard when more arguments follow (``Bash(git push *)``); never wider than that,
  and none for a line that cannot be read or holds something known only when it runs;
- a write or edit: the file's folder under the project (``Edit(src/a/**)``), or the
  file itself at the project's root or outside it;
- any other tool: its name (``mcp__github__create_issue``).

Rules are offered only when, added to the rules in force, they let the call run
unasked: a call an ask rule stops, or one writing where no rule can place, gets none.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
from typing import TYPE_CHECKING, Any

from hookline.core.vocabulary import CLAUDE_TOOL_NAMES
from hookline.settings.permission_rules import (
    FilePath,
    PermissionRule,
    PermissionRuleError,
    RuleOrigin,
)

if TYPE_CHECKING:
    from hookline.agent.gate import PermissionGate
    from hookline.shell import SimpleCommand

#: Programs whose first argument names what they do (``git push``, ``npm install``): a
#: rule may cover one subcommand with any arguments, never the whole program.
_SUBCOMMAND_PROGRAMS = frozenset(
    {
        *("git", "gh", "npm", "pnpm", "yarn", "bun", "cargo", "go", "uv", "poetry"),
        *("pip", "pip3", "docker", "podman", "kubectl", "helm", "terraform", "dotnet"),
    }
)
#: Subcommands whose next word is a script or target of the project (``npm run build``):
#: the rule keeps that word.
_SCRIPT_RUNNERS = frozenset(
    {
        *(("npm", "run"), ("npm", "run-script"), ("npm", "rum"), ("npm", "urn")),
        *(("pnpm", "run"), ("pnpm", "run-script"), ("yarn", "run"), ("bun", "run")),
    }
)
#: Subcommands that run whatever program or code they are given (or make later commands
#: do so): a wildcard on them would allow anything, so only the exact command is offered.
_RUNS_ANYTHING = frozenset(
    {
        *(("uv", "run"), ("uv", "tool"), ("poetry", "run"), ("go", "run"), ("cargo", "run")),
        *(("npm", "exec"), ("pnpm", "exec"), ("pnpm", "dlx"), ("yarn", "dlx"), ("bun", "x")),
        *(("yarn", "exec"), ("docker", "run"), ("docker", "exec"), ("podman", "run")),
        *(("podman", "exec"), ("kubectl", "exec"), ("kubectl", "debug"), ("git", "config")),
        *(("gh", "alias"), ("gh", "extension"), ("dotnet", "run"), ("npm", "x")),
        *(("go", "generate"), ("docker", "compose"), ("docker", "container")),
        *(("podman", "compose"), ("podman", "container"), ("bun", "exec")),
        ("git", "hook"),  # ``git hook run X`` runs whichever hook the project holds
    }
)
_SUBCOMMAND = re.compile(r"[a-z][a-z0-9-]*")
#: A word written as it is, unquoted (a ``*`` in it is escaped).
_PLAIN = re.compile(r"[\w@%+=:,./*-]+")
_SCRIPT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*")
#: Characters a path rule would read as a glob: such a path gets no rule.
_GLOB = frozenset("*?[]\\")


def rules_to_remember(gate: PermissionGate, tool_name: str, input: dict[str, Any]) -> list[str]:
    """The rules "don't ask again" would write for this call; empty when none would let it
    run unasked (the dialog then does not offer it)."""
    if tool_name == "bash":
        rules = _bash_rules(gate, str(input.get("command", "")))
    elif tool_name in ("write", "edit"):
        path = input.get("path")
        rule = _edit_rule(path, gate.cwd) if isinstance(path, str) and path else None
        rules = [rule] if rule is not None else []
    else:
        rules = [CLAUDE_TOOL_NAMES.get(tool_name, tool_name)]
    return rules if rules and _would_allow(gate, tool_name, input, rules) else []


def _bash_rules(gate: PermissionGate, line: str) -> list[str]:
    from hookline.shell import parse_command  # tree-sitter loads on the first bash call

    parsed = parse_command(line)
    if parsed.unparsable or not parsed.commands:
        return []
    out: list[str] = []
    for command in parsed.commands:
        rule = _command_rule(command)
        if rule is None:
            return []  # something known only when it runs: no rule would be honest
        alone = gate.check("bash", {"command": shlex.join(command.argv)})
        if alone.decision != "allow" and rule not in out:
            out.append(rule)
    return out


def _command_rule(command: SimpleCommand) -> str | None:
    """``Bash(…)`` for one simple command, or None when none fits it."""
    argv = command.argv
    if not argv or command.dynamic or command.wrappers or command.assignments:
        return None
    if any("\\" in word for word in argv):
        return None  # a backslash does not survive a specifier unchanged
    words = _prefix(argv)
    if words < len(argv):
        return f"Bash({shlex.join(argv[:words])} *)"
    return f"Bash({' '.join(_literal(word) for word in argv)})"


def _literal(word: str) -> str:
    """One word as a specifier reads it back: quoted when the shell needs it, a ``*``
    escaped so that it is not a wildcard (``ls \\*.py``)."""
    quoted = word if _PLAIN.fullmatch(word) else shlex.quote(word)
    return quoted.replace("*", "\\*")


def _prefix(argv: list[str]) -> int:
    """How many words name what the command does (the rest may vary under a wildcard);
    ``len(argv)`` when the whole command must be written out."""
    program, sub = argv[0], argv[1] if len(argv) > 1 else ""
    if program not in _SUBCOMMAND_PROGRAMS or not _SUBCOMMAND.fullmatch(sub):
        return len(argv)
    if (program, sub) in _RUNS_ANYTHING:
        return len(argv)
    if (program, sub) in _SCRIPT_RUNNERS:
        # the script keeps its name, or the whole command is written out (``npm run *``
        # would run every script of the project)
        return 3 if len(argv) > 2 and _SCRIPT.fullmatch(argv[2]) else len(argv)
    return 2


def _edit_rule(path: str, cwd: str) -> str | None:
    """The file's folder under the project, else the file itself (anchored)."""
    root = os.path.abspath(cwd)
    full = FilePath.of(path, root).path
    rel = os.path.relpath(full, root)
    if rel.startswith(os.pardir) or os.path.isabs(rel):
        spec = "/" + full  # ``//abs/path``: anchored at the filesystem root
    elif os.path.dirname(rel):
        spec = f"{os.path.dirname(rel)}/**"
    else:
        spec = f"./{rel}"
    if _GLOB & set(spec.replace("**", "")) or spec != spec.strip():
        return None
    return f"Edit({spec})"


def _would_allow(
    gate: PermissionGate, tool_name: str, input: dict[str, Any], rules: list[str]
) -> bool:
    """Whether the call runs unasked once ``rules`` are in force beside today's."""
    try:
        origin = RuleOrigin("permissions.allow", None, "local", gate.cwd)
        extra = [PermissionRule.parse(text, "allow", origin) for text in rules]
    except PermissionRuleError:
        return False
    wider = dataclasses.replace(gate.rules, allow=[*gate.rules.allow, *extra])
    return gate.check(tool_name, input, rules=wider).decision == "allow"
