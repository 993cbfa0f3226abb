"""Where hookline keeps its files: ``~/.hookline`` unless ``HOOKLINE_HOME`` says otherwise."""

from __future__ import annotations

import os
from pathlib import Path


def hookline_home() -> Path:
    """The hookline home folder (read on every call so tests and embedders can move it)."""
    override = os.environ.get("HOOKLINE_HOME")
    if override:
        return Path(override).expanduser()
    return Path.home() / ".hookline"


def expand_path(value: str, base: str | os.PathLike[str]) -> Path:
    """``~`` expanded, relative paths taken against ``base``; not resolved through links."""
    path = Path(os.path.expanduser(value))
    if not path.is_absolute():
        path = Path(base) / path
    return Path(os.path.normpath(path))
