"""Fixtures for the bridge tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def hook_file(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write a hook module into tmp and return its path."""

    def write(source: str, name: str = "hook.py") -> Path:
        path = tmp_path / name
        path.write_text(source)
        return path

    return write
