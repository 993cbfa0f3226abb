"""Resolving the paths tools are given, with errors the model can act on.

A clear ``ToolError`` ("read: file not found: x (resolved to /w/x)") lets the
model fix its call on the next turn instead of guessing. Parameters themselves
are checked by their models (``hookline.tools.params``).
"""

from __future__ import annotations

import os

from hookline.core.tool import ToolError


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
