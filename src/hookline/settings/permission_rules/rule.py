"""One compiled permission rule and how it meets a tool call.

Two ways to meet a call, because allow and deny fail in opposite directions:

- :meth:`PermissionRule.matches` — does the rule touch *any* part of the call
  (one simple command of a bash line, one file it reads or writes)? Deny and
  ask rules, and Claude hook ``if`` conditions, use it. It sees through a
  program's path (``/bin/rm`` is ``rm``) and takes a path as written or as
  resolved.
- :meth:`PermissionRule.allows_command` / :meth:`allows_file` — does the rule
  grant *this one* piece? The caller asks it for every piece and allows the
  call only when each is granted. It takes the program as written and the
  path only as resolved.
"""

from __future__ import annotations

from dataclasses import dataclass

from hookline.core.vocabulary import CLAUDE_TOOL_ALIASES, CLAUDE_TOOL_NAMES
from hookline.settings.permission_rules.calls import ShellCommand, ToolCall
from hookline.settings.permission_rules.command import CommandPattern
from hookline.settings.permission_rules.paths import FilePath, PathPattern
from hookline.settings.permission_rules.syntax import (
    EDIT_RULE_TOOLS,
    PATH_RULE_TOOLS,
    READ_RULE_TOOLS,
    SEARCH_RULE_TOOLS,
    PermissionRuleError,
    RuleBehavior,
    RuleOrigin,
    split_rule,
)

#: hookline tools a bare Claude rule name also covers (``Edit`` covers every tool that edits).
_FAMILY: dict[str, frozenset[str]] = {
    "Read": frozenset({"read", "grep", "find", "ls"}),
    "Edit": frozenset({"edit", "write"}),
}


@dataclass(frozen=True, slots=True)
class PermissionRule:
    """``Tool`` or ``Tool(specifier)``, compiled, with its list and origin."""

    text: str
    tool: str
    specifier: str | None
    behavior: RuleBehavior
    origin: RuleOrigin
    command: CommandPattern | None = None
    path: PathPattern | None = None

    @classmethod
    def parse(
        cls,
        text: str,
        behavior: RuleBehavior = "deny",
        origin: RuleOrigin | None = None,
    ) -> PermissionRule:
        """Read and compile one rule; raise :class:`PermissionRuleError` naming its origin."""
        where = origin or RuleOrigin(key=f"permissions.{behavior}")
        parts = split_rule(text, where)
        tool = CLAUDE_TOOL_NAMES.get(parts.tool, parts.tool)  # ``bash(ls *)`` is ``Bash(ls *)``
        tool = CLAUDE_TOOL_ALIASES.get(tool, tool)  # ``Task(x)`` is ``Agent(x)``
        command = path = None
        if parts.specifier is not None and tool == "Bash":
            command = CommandPattern.compile(parts.specifier)
        elif parts.specifier is not None and tool in PATH_RULE_TOOLS:
            try:
                path = PathPattern.compile(parts.specifier, root=where.root)
            except ValueError as exc:
                raise PermissionRuleError(where, text, str(exc)) from None
        return cls(text.strip(), tool, parts.specifier, behavior, where, command, path)

    def __str__(self) -> str:
        return self.text

    def describe(self) -> str:
        """``Bash(curl:*) (/p/.claude/settings.json: permissions.deny[0])``."""
        return f"{self.text} ({self.origin})"

    # --- which tools ------------------------------------------------------

    def names_tool(self, call: ToolCall) -> bool:
        """Whether the rule's tool name covers the call's tool (specifier aside)."""
        tool = self.tool
        if self.names_own_tool(call):
            return True
        if tool in _FAMILY and call.tool in _FAMILY[tool]:
            return True
        if tool in EDIT_RULE_TOOLS and self.specifier is not None:
            return call.tool in _FAMILY["Edit"]
        return False

    def names_own_tool(self, call: ToolCall) -> bool:
        """Whether the rule names the call's own tool: no family, so ``Edit(…)`` is not a
        Write call's (a hook's ``if`` reads rules this way, as Claude Code does)."""
        tool = self.tool
        if tool in ("*", call.tool, call.claude_tool):
            return True
        if tool.startswith("mcp__") and call.tool.startswith("mcp__"):
            return _mcp_covers(tool, call.tool)
        return False

    # --- deny / ask: any part ---------------------------------------------

    def matches(self, call: ToolCall) -> bool:
        """Whether the rule touches any part of the call (deny, ask, hook conditions)."""
        command = self.command
        if command is not None:
            return call.tool == "bash" and command.matches_any(call.command_texts)
        if self.path is not None:
            files = self._files(call)
            path = self.path
            return any(path.matches(f, call.cwd) or path.links_to(f, call.cwd) for f in files)
        if self.specifier is None:
            # A bare Edit/Write rule also covers the files a bash line writes.
            edits_by_shell = call.tool == "bash" and bool(call.edits or call.unknown_edits)
            return self.names_tool(call) or (self.tool in EDIT_RULE_TOOLS and edits_by_shell)
        # A specifier hookline cannot read (WebFetch(domain:…), a custom tool's):
        # the rule still names its tool, so a deny covers every use of it.
        return self.names_tool(call) and call.tool not in _BUILTIN

    # --- allow: one piece at a time ---------------------------------------

    def allows_call(self, call: ToolCall) -> bool:
        """Whether this (allow) rule grants a whole non-bash call (bash goes piece by piece)."""
        if self.specifier is None:
            return self.names_tool(call)
        if self.path is None or not self.names_tool(call):
            return False
        files = call.edits if call.tool in _FAMILY["Edit"] else call.reads
        kind = "edit" if call.tool in _FAMILY["Edit"] else "read"
        if self.tool in SEARCH_RULE_TOOLS:
            return bool(files) and all(
                self.path.matches(f, call.cwd, resolved_only=True) for f in files
            )
        return bool(files) and all(self.allows_file(f, kind, call.cwd) for f in files)

    def allows_command(self, command: ShellCommand) -> bool:
        """Whether this (allow) rule grants one simple command of a bash line."""
        if self.tool not in ("Bash", "*") or command.dynamic:
            return False
        if self.command is None:
            return self.specifier is None
        return self.command.matches_any(command.exact)

    def allows_file(self, file: FilePath, kind: str, cwd: str) -> bool:
        """Whether this (allow) rule grants reading (``"read"``) or editing (``"edit"``) a file."""
        tools = READ_RULE_TOOLS if kind == "read" else EDIT_RULE_TOOLS
        if self.tool not in tools and self.tool != "*":
            return False
        if self.path is None:
            return self.specifier is None
        return self.path.matches(file, cwd, resolved_only=True)

    def _files(self, call: ToolCall) -> tuple[FilePath, ...]:
        if self.tool in READ_RULE_TOOLS:
            return call.reads
        if self.tool in SEARCH_RULE_TOOLS:
            return call.reads if self.names_tool(call) else ()
        return call.edits


_BUILTIN = frozenset({"bash", "read", "write", "edit", "ls", "find", "grep"})


def _mcp_covers(rule: str, tool: str) -> bool:
    """``mcp__srv`` and ``mcp__srv__*`` cover every tool of srv; ``mcp__srv__get_*`` a prefix."""
    parts = rule.split("__", 2)
    server = parts[1] if len(parts) > 1 else ""
    if len(parts) == 2 or parts[2] in ("", "*"):
        return tool.startswith(f"mcp__{server}__")
    name = parts[2]
    if name.endswith("*"):
        return tool.startswith(f"mcp__{server}__{name[:-1]}")
    return tool == rule
