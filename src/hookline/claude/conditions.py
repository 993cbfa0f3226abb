"""A hook's ``if``: a permission rule the tool call must touch for the hook to run.

``"if": "Bash(git *)"`` is read and matched by the permission rules'
:meth:`~hookline.settings.permission_rules.PermissionRule.matches`, the
"touches any part" test deny rules use: ``git status; rm -rf x`` touches
``Bash(git *)`` through its first command, so a guard hook still sees the
whole line. It fails towards running the hook, never towards skipping it:

- a bash line that cannot be checked in full (it does not parse, or a
  program is computed at run time) runs the hook;
- a condition that is not a valid rule runs the hook (the settings check
  warned about it when the file was read);
- on an event that is not about a tool call the hook never runs, as in
  Claude Code (nothing there for the rule to touch).
"""

from __future__ import annotations

from typing import Any

from hookline.claude.names import from_claude_input, from_claude_tool_name
from hookline.settings.models import CONDITION_EVENTS
from hookline.settings.permission_rules import (
    PermissionRule,
    PermissionRuleError,
    RuleOrigin,
    describe_call,
)

#: Events whose input names a tool call (``tool_name`` + ``tool_input``): where ``if`` applies.
TOOL_EVENTS: frozenset[str] = CONDITION_EVENTS


def condition_holds(condition: str, event: str, payload: dict[str, Any], root: str) -> bool:
    """Whether a hook guarded by ``condition`` runs for this event input.

    ``root`` anchors ``/…`` path patterns (the project folder), as for settings rules.
    """
    if event not in TOOL_EVENTS:
        return False
    try:
        rule = PermissionRule.parse(condition, "ask", RuleOrigin(key="if", root=root))
    except PermissionRuleError:
        return True  # an unreadable condition must not switch a guard off
    tool = from_claude_tool_name(str(payload.get("tool_name", "")))
    raw_input = payload.get("tool_input")
    tool_input = from_claude_input(tool, raw_input) if isinstance(raw_input, dict) else {}
    cwd = str(payload.get("cwd") or root)
    call = describe_call(tool, tool_input, cwd)
    if call.unverifiable is not None and rule.names_tool(call):
        return True  # a line that cannot be read in full may hide a matching command
    return rule.matches(call)
