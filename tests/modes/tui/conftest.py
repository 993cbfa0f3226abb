"""Every test here drives the real app in a tmux pane (skipped when tmux is missing)."""

from __future__ import annotations

import pytest

from .pane import needs_tmux


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/modes/tui/" in str(item.path).replace("\\", "/"):
            item.add_marker(needs_tmux)
