"""The words hookline shares with Claude Code: tool names, permission modes, event names.

One list of each for the whole code base: the permission rules, the settings
schema, the CLI, the settings hooks' payloads and the bridge's event map all
read them from here.
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
    "task": "Agent",
}
#: Claude Code's older tool names → today's: ``Task`` is ``Agent`` since Claude Code
#: 2.1.63. Hooks see today's name; matchers and rules written with the old one still
#: select the tool, as in Claude Code.
CLAUDE_TOOL_ALIASES: dict[str, str] = {"Task": "Agent"}
#: Claude Code tool name (today's or an older one) → hookline tool name.
HOOKLINE_TOOL_NAMES: dict[str, str] = {v: k for k, v in CLAUDE_TOOL_NAMES.items()} | {
    old: {v: k for k, v in CLAUDE_TOOL_NAMES.items()}[new]
    for old, new in CLAUDE_TOOL_ALIASES.items()
}

#: Claude Code hook event → hookline's event (module hooks subscribe to hookline's names).
HOOKLINE_EVENT_NAMES: dict[str, str] = {
    "PreToolUse": "tool_call",
    "PostToolUse": "tool_result",
    "PostToolUseFailure": "tool_result",
    "UserPromptSubmit": "input",
    "SessionStart": "session_start",
    "SessionEnd": "session_shutdown",
    "PreCompact": "session_before_compact",
    "Stop": "stop",
    "SubagentStop": "subagent_stop",
    "SubagentStart": "subagent_start",
    "Notification": "notification",
    "PermissionRequest": "permission_request",
    "PostCompact": "session_compact",
    "InstructionsLoaded": "instructions_loaded",
}
#: Claude Code hook events module hooks have no counterpart for (settings hooks only).
CLAUDE_ONLY_EVENTS: frozenset[str] = frozenset(
    {"PostToolBatch", "PermissionDenied", "StopFailure", "ConfigChange", "FileChanged"}
    | {"Setup", "UserPromptExpansion", "CwdChanged", "Elicitation", "ElicitationResult"}
    | {"TeammateIdle", "TaskCreated", "TaskCompleted", "WorktreeCreate", "WorktreeRemove"}
    | {"PreModelSwitch", "PostModelSwitch", "MessageDisplay", "DirectoryAdded"}
    | {"StatusLine", "FileSuggestion"}
)
#: Any spelling of a Claude Code event (``pre_tool_use``, ``pretooluse``) → its name.
_CLAUDE_SPELLINGS: dict[str, str] = {
    name.lower(): name for name in (*HOOKLINE_EVENT_NAMES, *CLAUDE_ONLY_EVENTS)
}

#: Claude Code's hook input fields → what hookline's event payloads call them.
HOOKLINE_FIELD_NAMES: dict[str, str] = {
    "tool_input": "input",
    "tool_use_id": "tool_call_id",
    "tool_response": "content",
    "prompt": "text",
    "hook_event_name": "type",
}


def claude_event_hint(name: str) -> str:
    """`` (... in hookline this is 'tool_call')`` for a Claude event name, else ``""``.

    Spelt any way (``PreToolUse``, ``pre_tool_use``, ``preToolUse``); an event
    module hooks cannot take says so instead of suggesting a look-alike.
    """
    claude = _CLAUDE_SPELLINGS.get(name.replace("_", "").replace("-", "").lower())
    if claude is None:
        return ""
    said = "that is Claude Code's name" if claude == name else f"that is Claude Code's {claude}"
    ours = HOOKLINE_EVENT_NAMES.get(claude)
    if ours is None:
        return (
            f" ({said}: module hooks have no counterpart in hookline; "
            "a command hook in .claude/settings.json can take it)"
        )
    return f" ({said}: in hookline this is {ours!r})"


def claude_field_hint(name: str) -> str:
    """`` (in hookline this is `input`)`` for a Claude input field name, else ``""``."""
    ours = HOOKLINE_FIELD_NAMES.get(name)
    return f" (that is Claude Code's field name: in hookline this is {ours!r})" if ours else ""


#: Claude Code hook output keys → what a module hook's result says instead.
HOOKLINE_RESULT_HINTS: dict[str, str] = {
    "decision": "return `block: True` with a `reason`",
    "permissionDecision": "`block: True` denies; `permission` is 'allow' or 'ask'",
    "permissionDecisionReason": "`reason`",
    "hookSpecificOutput": "return the fields themselves (`block`, `reason`, `input`, ...)",
    "updatedInput": "`input` (the whole new input, hookline's keys)",
    "additionalContext": "`append` (text blocks) on tool_result",
    "systemMessage": "call ctx.ui.notify(...)",
    "continue": "`block` on stop keeps the agent going",
}


def claude_result_hint(key: str) -> str:
    """A hint for a Claude Code output key or input field in a module hook's result, else ``""``.

    ``tool_input`` returned to rewrite a call is Claude's field: hookline's is ``input``.
    """
    ours = HOOKLINE_RESULT_HINTS.get(key)
    if ours:
        return f" ({key!r} is Claude Code's output: in hookline, {ours})"
    return claude_field_hint(key)
