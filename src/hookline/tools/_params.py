"""Checking tool parameters and resolving paths, with errors the model can act on.

Models send loose JSON; a clear ``ToolError`` ("read: parameter 'limit' must
be an integer >= 1, got str '10'") lets the model fix its call on the next
turn instead of guessing.
"""

from __future__ import annotations

import os
from typing import Any

from hookline.core.tool import ToolError

_MISSING = object()


def _show(value: Any) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def require_str(tool: str, params: dict[str, Any], key: str, *, empty_ok: bool = True) -> str:
    """A required string parameter."""
    value = params.get(key, _MISSING)
    if value is _MISSING or value is None:
        raise ToolError(f"{tool}: missing required parameter {key!r} (a string)")
    if not isinstance(value, str):
        raise ToolError(f"{tool}: parameter {key!r} must be a string, got {_show(value)}")
    if not empty_ok and not value:
        raise ToolError(f"{tool}: parameter {key!r} must not be empty")
    return value


def optional_str(tool: str, params: dict[str, Any], key: str) -> str | None:
    value = params.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ToolError(f"{tool}: parameter {key!r} must be a string, got {_show(value)}")
    return value


def optional_int(tool: str, params: dict[str, Any], key: str, *, minimum: int = 0) -> int | None:
    """An optional integer ``>= minimum``; a float with an integral value is accepted."""
    value = params.get(key)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ToolError(
            f"{tool}: parameter {key!r} must be an integer >= {minimum}, got {_show(value)}"
        )
    return value


def optional_number(tool: str, params: dict[str, Any], key: str) -> float | None:
    """An optional number ``> 0`` (seconds)."""
    value = params.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ToolError(f"{tool}: parameter {key!r} must be a number > 0, got {_show(value)}")
    return float(value)


def optional_bool(tool: str, params: dict[str, Any], key: str) -> bool:
    value = params.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ToolError(f"{tool}: parameter {key!r} must be true or false, got {_show(value)}")
    return value


def resolve_path(cwd: str, path: str) -> tuple[str, bool]:
    """``path`` made absolute against ``cwd`` (``~`` expanded), and whether it is outside cwd.

    Outside paths are allowed (the user may point the agent anywhere); the flag
    lets hooks and UIs see it.
    """
    if path.startswith("@"):  # models copy the "@file" mention syntax
        path = path[1:]
    full = os.path.abspath(os.path.join(cwd, os.path.expanduser(path)))
    root = os.path.realpath(cwd)
    real = os.path.realpath(full)
    try:
        inside = os.path.commonpath([root, real]) == root
    except ValueError:  # different drives
        inside = False
    return full, not inside


def display_path(cwd: str, full: str) -> str:
    """``full`` relative to ``cwd`` when inside it, else as given."""
    rel = os.path.relpath(full, cwd)
    return full if rel == ".." or rel.startswith(".." + os.sep) else rel


def existing_file(tool: str, cwd: str, path: str) -> tuple[str, bool]:
    """Resolve ``path`` and insist it is an existing regular file."""
    full, outside = resolve_path(cwd, path)
    if not os.path.exists(full):
        raise ToolError(
            f"{tool}: file not found: {path} (resolved to {full}). "
            "Check the path with ls or find; paths are relative to the working directory."
        )
    if os.path.isdir(full):
        raise ToolError(f"{tool}: {path} is a directory, not a file. Use ls to list it.")
    return full, outside


def existing_dir(tool: str, cwd: str, path: str) -> tuple[str, bool]:
    """Resolve ``path`` and insist it exists (a directory, or a file where allowed)."""
    full, outside = resolve_path(cwd, path)
    if not os.path.exists(full):
        raise ToolError(
            f"{tool}: path not found: {path} (resolved to {full}). "
            "Paths are relative to the working directory."
        )
    return full, outside


def is_binary(head: bytes) -> bool:
    """NUL bytes in the first block mean binary, as git and grep decide."""
    return b"\x00" in head[:8192]
