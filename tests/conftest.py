"""Shared fixtures: every test gets its own HOME and HOOKLINE_HOME, never the real ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_server import RedisServer


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
    monkeypatch.delenv("HOOKLINE_STORE", raising=False)  # hooks' state: in this process
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


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A real ``redis-server`` of the test's own on a free port (skipped, saying so, where
    the binary is missing); stopped at the end."""
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(folder).start()
    try:
        yield server
    finally:
        server.stop()
