"""Shared fixtures: every test gets its own HOME and HOOKLINE_HOME, never the real ones."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private home: ~/.hookline, ~/.claude and trust.json live under tmp."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("HOOKLINE_HOME", str(home / ".hookline"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("HOOKLINE_MODEL", raising=False)
    monkeypatch.delenv("HOOKLINE_LOG", raising=False)  # a developer's log level is not the tests'
    monkeypatch.delenv("HOOKLINE_LOG_FILE", raising=False)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The project folder a test works in (``<tmp>/project``, empty).

    A module that needs files in it fills it with an autouse fixture of its own,
    so every test still asks for ``project`` and finds the same folder.
    """
    root = tmp_path / "project"
    root.mkdir()
    return root
