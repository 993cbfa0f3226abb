"""Permission modes and allow/deny/ask rules, in Claude Code's rule syntax.

A rule is ``Tool`` or ``Tool(specifier)`` with Claude's tool names: ``Bash(npm
run test:*)`` (a trailing ``:*`` is a prefix match, otherwise exact),
``Read(./docs/**)``, ``Edit(src/*.py)`` (globs on the path, relative to cwd).
Deny beats ask beats allow; then the mode decides what no rule covers.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]
PERMISSION_MODES: tuple[str, ...] = (
    "default",
    "acceptEdits",
    "plan",
    "bypassPermissions",
    "dontAsk",
)
Decision = Literal["allow", "deny", "ask"]

#: hookline tool name → Claude's, as rules and command hooks spell them.
CLAUDE_TOOL_NAMES = {
    "bash": "Bash",
    "read": "Read",
    "write": "Write",
    "edit": "Edit",
    "ls": "LS",
    "find": "Glob",
    "grep": "Grep",
}
READ_ONLY_TOOLS = frozenset({"read", "ls", "find", "grep"})
#: The agent's own tools that touch nothing outside it (the task list): never asked about.
INTERNAL_TOOLS = frozenset({"todo_write"})
EDIT_TOOLS = frozenset({"write", "edit"})

_RULE = re.compile(r"^\s*([A-Za-z0-9_.*-]+)\s*(?:\((.*)\))?\s*$")


class PermissionRuleError(ValueError):
    """A rule string that does not parse."""


@dataclass(frozen=True, slots=True)
class Rule:
    tool: str  # Claude name, or the hookline name of a custom tool
    specifier: str | None = None

    @classmethod
    def parse(cls, text: str) -> Rule:
        m = _RULE.match(text)
        if not m:
            raise PermissionRuleError(
                f"bad permission rule {text!r}: expected Tool or Tool(specifier), "
                "e.g. Bash(npm test:*)"
            )
        return cls(m.group(1), m.group(2) if m.group(2) not in (None, "", "*") else None)

    def matches(self, tool_name: str, input: dict[str, Any], cwd: str) -> bool:
        claude = CLAUDE_TOOL_NAMES.get(tool_name, tool_name)
        if self.tool not in (claude, tool_name, "*"):
            return False
        if self.specifier is None:
            return True
        if tool_name == "bash":
            command = str(input.get("command", "")).strip()
            if self.specifier.endswith(":*"):
                return command.startswith(self.specifier[:-2])
            return command == self.specifier.strip()
        path = input.get("path")
        if isinstance(path, str):
            return _path_matches(self.specifier, path, cwd)
        return fnmatch.fnmatchcase(str(input), self.specifier)


def _path_matches(pattern: str, path: str, cwd: str) -> bool:
    full = os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))
    pat = os.path.expanduser(pattern)
    if pat.startswith("//"):
        pat = pat[1:]
    elif not os.path.isabs(pat):
        pat = os.path.join(cwd, pat)
    pat = os.path.normpath(pat)
    if pat.endswith("/**"):
        base = pat[:-3]
        return full == base or full.startswith(base + os.sep)
    return fnmatch.fnmatchcase(full, pat.replace("**", "*"))


@dataclass(slots=True)
class PermissionRules:
    allow: list[Rule] = field(default_factory=list)
    deny: list[Rule] = field(default_factory=list)
    ask: list[Rule] = field(default_factory=list)

    @classmethod
    def from_lists(
        cls,
        allow: Sequence[str] = (),
        deny: Sequence[str] = (),
        ask: Sequence[str] = (),
    ) -> PermissionRules:
        return cls(
            [Rule.parse(r) for r in allow],
            [Rule.parse(r) for r in deny],
            [Rule.parse(r) for r in ask],
        )


@dataclass(frozen=True, slots=True)
class PermissionCheck:
    """The rules' and mode's answer; ``rule`` is the rule that decided, if one did."""

    decision: Decision
    reason: str
    rule: str | None = None


def check_permission(
    mode: str, rules: PermissionRules, tool_name: str, input: dict[str, Any], cwd: str
) -> PermissionCheck:
    """What the mode and rules say about one tool call, before anyone is asked."""
    if mode == "bypassPermissions":
        return PermissionCheck("allow", "bypassPermissions mode")
    for rule in rules.deny:
        if rule.matches(tool_name, input, cwd):
            return PermissionCheck("deny", f"denied by rule {_show(rule)}", _show(rule))
    if tool_name in INTERNAL_TOOLS:
        return PermissionCheck("allow", "the agent's own task list")
    if mode == "plan" and tool_name not in READ_ONLY_TOOLS:
        return PermissionCheck("deny", "plan mode: only read-only tools run")
    for rule in rules.ask:
        if rule.matches(tool_name, input, cwd):
            return PermissionCheck("ask", f"rule {_show(rule)} asks", _show(rule))
    for rule in rules.allow:
        if rule.matches(tool_name, input, cwd):
            return PermissionCheck("allow", f"allowed by rule {_show(rule)}", _show(rule))
    if tool_name in READ_ONLY_TOOLS:
        return PermissionCheck("allow", "read-only tool")
    if mode == "acceptEdits" and tool_name in EDIT_TOOLS:
        return PermissionCheck("allow", "acceptEdits mode")
    if mode == "dontAsk":
        return PermissionCheck("deny", "dontAsk mode: not pre-approved by an allow rule")
    return PermissionCheck("ask", f"{CLAUDE_TOOL_NAMES.get(tool_name, tool_name)} needs approval")


def _show(rule: Rule) -> str:
    return rule.tool if rule.specifier is None else f"{rule.tool}({rule.specifier})"
