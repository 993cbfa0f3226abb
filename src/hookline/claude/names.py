"""Claude Code's tool vocabulary: hookline tool names and input keys shown as Claude's.

Settings hooks are written for Claude Code, so they look for ``Bash`` and
``tool_input.file_path``. Names and keys are translated on the way out and
``updatedInput`` is translated back; anything unknown (MCP tools named
``mcp__server__tool``, hook tools, extra keys) passes through unchanged, so
``from_claude_input(t, to_claude_input(t, x)) == x`` for every input. Given
the tool's ``cwd``, file paths are shown absolute and ``restore_paths`` puts
the model's spelling back when a hook's rewrite left the path as shown.
"""

from __future__ import annotations

import os
from typing import Any

from hookline.core.vocabulary import CLAUDE_TOOL_NAMES, HOOKLINE_TOOL_NAMES

__all__ = [
    "CLAUDE_TOOL_NAMES",
    "HOOKLINE_TOOL_NAMES",
    "NEVER_FIRES",
    "absolute_path",
    "from_claude_input",
    "from_claude_tool_name",
    "never_fires",
    "restore_paths",
    "to_claude_input",
    "to_claude_tool_name",
]

# hookline key → Claude key, per hookline tool. Keys not listed keep their name.
_KEYS: dict[str, dict[str, str]] = {
    "read": {"path": "file_path"},
    "write": {"path": "file_path"},
    "edit": {"path": "file_path", "oldText": "old_string", "newText": "new_string"},
    "grep": {"ignoreCase": "-i", "context": "-C", "limit": "head_limit"},
}
_BACK: dict[str, dict[str, str]] = {t: {v: k for k, v in m.items()} for t, m in _KEYS.items()}


def to_claude_tool_name(name: str) -> str:
    """``bash`` → ``Bash``; unknown names (MCP, hook tools) unchanged."""
    return CLAUDE_TOOL_NAMES.get(name, name)


def from_claude_tool_name(name: str) -> str:
    """``Bash`` → ``bash``; unknown names unchanged."""
    return HOOKLINE_TOOL_NAMES.get(name, name)


def _rename(data: dict[str, Any], keys: dict[str, str]) -> dict[str, Any]:
    return {keys.get(k, k): v for k, v in data.items()}


def to_claude_input(
    tool_name: str, data: dict[str, Any], *, cwd: str | None = None
) -> dict[str, Any]:
    """A hookline tool input in Claude's keys (``tool_name`` is hookline's name).

    Bash's ``timeout`` is seconds in hookline and milliseconds in Claude Code.
    With ``cwd`` (the tool's working directory) file paths are made absolute
    with symlinks, ``.`` and ``..`` resolved, as Claude Code shows them: a hook
    guarding ``"$CLAUDE_PROJECT_DIR"/protected/*`` sees ``protected/x``,
    ``./protected/x``, ``a/../protected/x`` and ``link-to-protected/x`` alike.
    """
    out = _rename(data, _KEYS.get(tool_name, {}))
    if tool_name == "bash" and isinstance(out.get("timeout"), int | float):
        out["timeout"] = _number(out["timeout"] * 1000)
    key = _PATH_KEYS.get(tool_name)
    if cwd is not None and key is not None and isinstance(out.get(key), str) and out[key]:
        out[key] = absolute_path(cwd, out[key])
    return out


def from_claude_input(tool_name: str, data: dict[str, Any]) -> dict[str, Any]:
    """A Claude-keyed input (e.g. ``updatedInput``) back in hookline's keys."""
    out = _rename(data, _BACK.get(tool_name, {}))
    if tool_name == "bash" and isinstance(out.get("timeout"), int | float):
        out["timeout"] = _number(out["timeout"] / 1000)
    return out


#: The Claude key that holds a file path, per hookline tool.
_PATH_KEYS: dict[str, str] = {
    "read": "file_path",
    "write": "file_path",
    "edit": "file_path",
    "grep": "path",
    "find": "path",
    "ls": "path",
}


def absolute_path(cwd: str, path: str) -> str:
    """``path`` as the tool will reach it: ``@`` mention and ``~`` expanded, joined to
    ``cwd``, then every symlink, ``.`` and ``..`` resolved (missing tails kept)."""
    if path.startswith("@"):  # the tools accept the "@file" mention syntax too
        path = path[1:]
    return os.path.realpath(os.path.join(cwd, os.path.expanduser(path)))


def restore_paths(
    tool_name: str, original: dict[str, Any], updated: dict[str, Any], cwd: str
) -> dict[str, Any]:
    """``updated`` (hookline keys) with a path the hook left as shown put back as given.

    Hooks see absolute paths; when ``updatedInput`` carries the path unchanged the call
    keeps the model's own spelling, and a path the hook did change is taken as written.
    """
    key = "path" if tool_name in _PATH_KEYS else None
    if key is None or not isinstance(original.get(key), str) or key not in updated:
        return updated
    if updated[key] == absolute_path(cwd, original[key]):
        return {**updated, key: original[key]}
    return updated


def _number(value: float) -> float | int:
    """Keep integers integral so a round trip gives back ``30``, not ``30.0``."""
    return int(value) if float(value).is_integer() else value


# -- events --------------------------------------------------------------------------

#: Claude Code events hookline accepts in settings but has no moment for, with why.
#: Their hooks are kept (a settings file shared with Claude Code loses nothing) and
#: reported as "never fires in hookline" by the selection diagnostics; never an error.
NEVER_FIRES: dict[str, str] = {
    "Setup": "hookline has no --init / --maintenance runs",
    "UserPromptExpansion": "hookline has no slash commands that expand into a prompt",
    "CwdChanged": "hookline's working directory is fixed for the session",
    "Elicitation": "hookline's MCP client does not ask the user for structured input",
    "ElicitationResult": "hookline's MCP client does not ask the user for structured input",
    "TeammateIdle": "hookline has no agent teams",
    "TaskCreated": "hookline has no shared task list",
    "TaskCompleted": "hookline has no shared task list",
    "WorktreeCreate": "hookline does not create git worktrees",
    "WorktreeRemove": "hookline does not create git worktrees",
    "PreModelSwitch": "not fired yet: hookline's model_select event is the module-hook face",
    "PostModelSwitch": "not fired yet: hookline's model_select event is the module-hook face",
    "MessageDisplay": "hookline's front ends render messages themselves",
    "DirectoryAdded": "hookline has no /add-dir",
}


def never_fires(event: str) -> str | None:
    """Why ``event`` never fires in hookline, or ``None`` when it can."""
    reason = NEVER_FIRES.get(event)
    return None if reason is None else f"never fires in hookline: {reason}"
