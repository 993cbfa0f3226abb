"""A hook's ``if``: a permission rule the tool call must touch for the hook to run.

``"if": "Bash(git *)"`` is read and matched by the permission rules'
:meth:`~hookline.settings.permission_rules.PermissionRule.matches`, the
"touches any part" test deny rules use: ``git status; rm -rf x`` touches
``Bash(git *)`` through its first command, so a guard hook still sees the
whole line. The rule must name the call's own tool: as in Claude Code,
``Edit(src/**)`` guards Edit calls only, not a Write call nor a bash line
writing there (a deny rule ``Edit(src/**)`` covers all three). It fails towards
running the hook, never towards skipping it:

- a bash line that cannot be checked in full (it does not parse, or a
  program is computed at run time) runs the hook;
- a condition that is not a valid rule runs the hook (the settings check
  warned about it when the file was read);
- on an event that is not about a tool call the hook never runs, as in
  Claude Code (nothing there for the rule to touch).
"""

from __future__ import annotations

import functools
from typing import Any

from hookline.claude.names import from_claude_input, from_claude_tool_name
from hookline.settings.models import CONDITION_EVENTS
from hookline.settings.permission_rules import (
    PermissionRule,
    PermissionRuleError,
    RuleOrigin,
    ToolCall,
    describe_call,
)

#: Events whose input names a tool call (``tool_name`` + ``tool_input``): where ``if`` applies.
TOOL_EVENTS: frozenset[str] = CONDITION_EVENTS


@functools.lru_cache(maxsize=256)
def _rule(condition: str, root: str) -> PermissionRule | None:
    """The compiled rule, or ``None`` when the text is not one (cached: hooks repeat)."""
    try:
        return PermissionRule.parse(condition, "ask", RuleOrigin(key="if", root=root))
    except PermissionRuleError:
        return None


class CallConditions:
    """Evaluates ``if`` conditions against one event input; the call is described once."""

    def __init__(self, event: str, payload: dict[str, Any], root: str) -> None:
        self.event = event
        self.payload = payload
        self.root = root
        self._call: ToolCall | None = None

    def _described(self) -> ToolCall:
        if self._call is None:
            payload = self.payload
            tool = from_claude_tool_name(str(payload.get("tool_name", "")))
            raw_input = payload.get("tool_input")
            tool_input = from_claude_input(tool, raw_input) if isinstance(raw_input, dict) else {}
            cwd = str(payload.get("cwd") or self.root)
            self._call = describe_call(tool, tool_input, cwd)
        return self._call

    def holds(self, condition: str) -> bool:
        """Whether a hook guarded by ``condition`` runs for this input."""
        if self.event not in TOOL_EVENTS:
            return False
        rule = _rule(condition, self.root)
        if rule is None:
            return True  # an unreadable condition must not switch a guard off
        call = self._described()
        if not rule.names_own_tool(call):
            return False  # ``Edit(src/**)`` guards Edit calls only, not Write or a bash line
        if call.unverifiable is not None and rule.names_tool(call):
            return True  # a line that cannot be read in full may hide a matching command
        return rule.matches(call)


def condition_holds(condition: str, event: str, payload: dict[str, Any], root: str) -> bool:
    """Whether a hook guarded by ``condition`` runs for this event input.

    ``root`` anchors ``/…`` path patterns (the project folder), as for settings rules.
    """
    return CallConditions(event, payload, root).holds(condition)
