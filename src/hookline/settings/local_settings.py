"""Writing the project's ``.claude/settings.local.json``, as Claude Code does for choices made
in its UI (a sandbox mode, an "always allow" answer).

The file is read with the safe reader (it may have been planted: a FIFO, a link to
``/dev/zero``), changed by a caller-given function on the parsed object, and written
atomically (temp file, fsync, ``os.replace``) so that a crash mid-write leaves the old
file. Keys the caller does not touch are kept as they were. A file that cannot be
parsed is never overwritten: the user's hand-written settings would be lost.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookline.settings.safe_json import JsonFileError, JsonFileMissing, read_json_file

__all__ = [
    "LocalSettingsError",
    "add_permission_rule",
    "local_settings_path",
    "remove_permission_rule",
    "update_local_settings",
]


class LocalSettingsError(Exception):
    """The local settings file could not be read or written; the message says why."""


def local_settings_path(project_dir: str | os.PathLike[str]) -> Path:
    """``<project>/.claude/settings.local.json``."""
    return Path(project_dir) / ".claude" / "settings.local.json"


def update_local_settings(
    project_dir: str | os.PathLike[str], update: Callable[[dict[str, Any]], None]
) -> Path:
    """Apply ``update`` to the parsed local settings (``{}`` when there are none) and save.

    Raises ``LocalSettingsError`` when the file exists but is not a JSON object, or
    cannot be written; the file is then left as it was.
    """
    path = local_settings_path(project_dir)
    try:
        data: Any = read_json_file(path, empty={})
    except JsonFileMissing:
        data = {}
    except JsonFileError as exc:
        raise LocalSettingsError(f"{exc} (fix or remove it; it was not changed)") from None
    if not isinstance(data, dict):
        raise LocalSettingsError(f"{path} is not a JSON object (fix it; it was not changed)")
    update(data)
    try:
        _write(path, data)
    except OSError as exc:
        raise LocalSettingsError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def add_permission_rule(project_dir: str | os.PathLike[str], behavior: str, rule: str) -> Path:
    """Add ``rule`` to ``permissions.<behavior>`` of the local settings (once; other keys
    kept), as Claude Code does for a "don't ask again" answer. Raises ``LocalSettingsError``
    when the file or its ``permissions`` is not what Claude Code writes; it is then left as it
    was."""

    def add(data: dict[str, Any]) -> None:
        rules = _rule_list(data, behavior)
        if rule not in rules:
            rules.append(rule)

    return update_local_settings(project_dir, add)


def remove_permission_rule(project_dir: str | os.PathLike[str], behavior: str, rule: str) -> bool:
    """Take ``rule`` out of ``permissions.<behavior>`` of the local settings; False when it
    was not there (the file is then not rewritten)."""
    path = local_settings_path(project_dir)
    found = False

    def remove(data: dict[str, Any]) -> None:
        nonlocal found
        rules = _rule_list(data, behavior)
        found = rule in rules
        while rule in rules:
            rules.remove(rule)

    if not path.exists():
        return False
    update_local_settings(project_dir, remove)
    return found


def _rule_list(data: dict[str, Any], behavior: str) -> list[Any]:
    permissions = data.setdefault("permissions", {})
    if not isinstance(permissions, dict):
        raise LocalSettingsError("'permissions' in settings.local.json is not an object")
    rules = permissions.setdefault(behavior, [])
    if not isinstance(rules, list):
        raise LocalSettingsError(f"'permissions.{behavior}' in settings.local.json is not a list")
    return rules
