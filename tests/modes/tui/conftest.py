"""The tests here drive the real app in a tmux pane (skipped when tmux is missing), but
for the activity's and the approval preview's, which need no terminal."""

from __future__ import annotations

import pytest

from .pane import needs_tmux

#: Test modules here that drive no pane.
_NO_PANE = frozenset(
    {"test_activity.py", "test_call_preview.py", "test_idle.py", "test_pickers.py"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = str(item.path).replace("\\", "/")
        if "tests/modes/tui/" in path and item.path.name not in _NO_PANE:
            item.add_marker(needs_tmux)
