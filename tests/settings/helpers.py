"""Shared helpers of the settings tests: where each source lives, and loading them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hookline.settings import LoadedSettings, load_settings

WriteJson = Callable[[Path, Any], Path]


def sources(home: Path, project: Path) -> dict[str, Path]:
    """The five always-present sources, by a short name."""
    return {
        "hookline_user": home / ".hookline" / "settings.json",
        "claude_user": home / ".claude" / "settings.json",
        "claude_project": project / ".claude" / "settings.json",
        "hookline_project": project / ".hookline" / "settings.json",
        "local": project / ".claude" / "settings.local.json",
    }


def load(
    project: Path, managed_paths: list[Path], cli_settings: Path | None = None
) -> LoadedSettings:
    return load_settings(project, cli_settings=cli_settings, managed_paths=managed_paths)
