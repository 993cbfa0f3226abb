"""The words hookline shares with Claude Code: tool names and permission modes.

One list of each for the whole code base: the permission rules, the settings
schema, the CLI and the settings hooks' payloads all read them from here.
"""

from __future__ import annotations

from typing import Literal

#: Permission modes, as ``--permission-mode`` and ``permissions.defaultMode`` spell them.
PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]
PERMISSION_MODES: tuple[PermissionMode, ...] = (
    "default",
    "acceptEdits",
    "plan",
    "bypassPermissions",
    "dontAsk",
)

#: hookline tool name → Claude Code tool name (rules and command hooks use Claude's).
CLAUDE_TOOL_NAMES: dict[str, str] = {
    "bash": "Bash",
    "read": "Read",
    "write": "Write",
    "edit": "Edit",
    "ls": "LS",
    "find": "Glob",
    "grep": "Grep",
    "task": "Task",
}
#: Claude Code tool name → hookline tool name.
HOOKLINE_TOOL_NAMES: dict[str, str] = {v: k for k, v in CLAUDE_TOOL_NAMES.items()}
