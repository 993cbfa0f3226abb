"""Claude Code's permission rules, read and matched: ``Tool``, ``Tool(specifier)``.

A low layer on purpose: the agent's permission decision and the settings
hooks' ``if`` conditions read rules the same way. See :mod:`.syntax` for the
grammar, :mod:`.command` for Bash specifiers, :mod:`.paths` for Read/Edit
path specifiers and :mod:`.calls` for what a tool call touches.
"""

from hookline.settings.permission_rules.calls import ShellCommand, ToolCall, describe_call
from hookline.settings.permission_rules.command import CommandPattern
from hookline.settings.permission_rules.paths import FilePath, PathPattern, within
from hookline.settings.permission_rules.rule import PermissionRule
from hookline.settings.permission_rules.ruleset import PermissionRules
from hookline.settings.permission_rules.syntax import (
    PermissionRuleError,
    RuleBehavior,
    RuleOrigin,
)

__all__ = [
    "CommandPattern",
    "FilePath",
    "PathPattern",
    "PermissionRule",
    "PermissionRuleError",
    "PermissionRules",
    "RuleBehavior",
    "RuleOrigin",
    "ShellCommand",
    "ToolCall",
    "describe_call",
    "within",
]
