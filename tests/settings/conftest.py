"""Fixtures for the settings tests: a project dir, a managed dir and a JSON writer."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

WriteJson = Callable[[Path, Any], Path]


@pytest.fixture
def managed_dir(tmp_path: Path) -> Path:
    """Stands in for /etc: tests pass ``managed_paths`` under it."""
    root = tmp_path / "etc"
    root.mkdir()
    return root


@pytest.fixture
def managed_paths(managed_dir: Path) -> list[Path]:
    """The two managed locations, in lookup order, under tmp."""
    return [
        managed_dir / "hookline" / "managed-settings.json",
        managed_dir / "claude-code" / "managed-settings.json",
    ]


@pytest.fixture
def write_json() -> WriteJson:
    """``write_json(path, data)``: data dumped as JSON (a ``str`` is written as is)."""

    def write(path: Path, data: Any) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = data if isinstance(data, str) else json.dumps(data, indent=2)
        path.write_text(text, encoding="utf-8")
        return path

    return write
