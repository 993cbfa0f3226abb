"""Reading one permission rule: ``Tool`` or ``Tool(specifier)``, with where it came from.

The syntax is Claude Code's. A rule that cannot be read raises
:class:`PermissionRuleError` naming the settings file and key path, so the
caller can report it and decide (a broken deny rule must stop the agent; a
broken allow rule can be skipped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

RuleBehavior = Literal["allow", "deny", "ask"]

#: Claude's tools whose specifier is a path (gitignore-style, with anchors).
READ_RULE_TOOLS = frozenset({"Read"})
EDIT_RULE_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
#: Tools whose path argument is a folder to search; a ``Grep(path)`` rule is a Read rule for grep.
SEARCH_RULE_TOOLS = frozenset({"Grep", "Glob", "LS"})
PATH_RULE_TOOLS = READ_RULE_TOOLS | EDIT_RULE_TOOLS | SEARCH_RULE_TOOLS

_NAME = re.compile(r"[A-Za-z0-9_.*-]+")


class PermissionRuleError(ValueError):
    """A rule that cannot be read; the message names the file, key path and what is wrong."""

    def __init__(self, origin: RuleOrigin, text: str, why: str) -> None:
        self.origin = origin
        self.text = text
        self.why = why
        super().__init__(f"{origin}: bad rule {text!r}: {why}")


@dataclass(frozen=True, slots=True)
class RuleOrigin:
    """Where a rule was written: its settings file, key path and scope, and the project root.

    ``root`` anchors ``/…`` path patterns (Claude: relative to the settings'
    project); ``None`` (rules given in code) anchors them at the working directory.
    """

    key: str = "permissions"
    file: str | None = None
    scope: str | None = None
    root: str | None = None

    def __str__(self) -> str:
        return f"{self.file}: {self.key}" if self.file else self.key


@dataclass(frozen=True, slots=True)
class RuleText:
    """A rule split into its tool name and specifier (``None``: the whole tool)."""

    tool: str
    specifier: str | None


def split_rule(text: str, origin: RuleOrigin) -> RuleText:
    """``Bash(npm test)`` → ``RuleText("Bash", "npm test")``; raise when it is not a rule."""
    if not isinstance(text, str):
        raise PermissionRuleError(origin, str(text), "a rule must be a string")
    body = text.strip()
    if not body:
        raise PermissionRuleError(origin, text, "empty rule; write Tool or Tool(specifier)")
    name_match = _NAME.match(body)
    if name_match is None:
        raise PermissionRuleError(
            origin, text, "expected a tool name first, e.g. Bash, Read(./src/**), mcp__server"
        )
    tool = name_match.group(0)
    rest = body[name_match.end() :].lstrip()
    _check_tool_name(tool, text, origin)
    if not rest:
        return RuleText(tool, None)
    if not rest.startswith("("):
        raise PermissionRuleError(
            origin, text, f"unexpected {rest[:20]!r} after the tool name; write Tool(specifier)"
        )
    if not rest.endswith(")"):
        if ")" in rest:
            tail = rest[rest.rindex(")") + 1 :].strip()
            raise PermissionRuleError(
                origin, text, f"unexpected {tail[:20]!r} after the closing ')'"
            )
        raise PermissionRuleError(origin, text, "missing the closing ')'")
    spec = rest[1:-1].strip()
    if not spec:
        raise PermissionRuleError(
            origin, text, f"empty specifier; write {tool} for every use of the tool"
        )
    if tool.startswith("mcp__"):
        raise PermissionRuleError(
            origin, text, "MCP tools take no specifier; name the tool (mcp__server__tool)"
        )
    return RuleText(tool, None if spec == "*" else spec)


def _check_tool_name(tool: str, text: str, origin: RuleOrigin) -> None:
    if tool == "*" or "*" not in tool:
        return
    if tool.startswith("mcp__") and tool.count("__") >= 2 and "*" not in tool.split("__")[1]:
        return
    raise PermissionRuleError(
        origin,
        text,
        "a '*' in a tool name only works in an MCP tool name after the server (mcp__server__get_*)",
    )
