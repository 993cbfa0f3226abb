"""Fixtures for session tests: a project folder and an open session in it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hookline.session import SessionManager


@pytest.fixture
def session(project: Path) -> Iterator[SessionManager]:
    manager = SessionManager.create(project)
    yield manager
    manager.close()
