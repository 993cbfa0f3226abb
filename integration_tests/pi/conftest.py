"""Skip (with the reason) when node or the pinned pi is not installed."""

from __future__ import annotations

import pytest

from .agents import pi_missing


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = pi_missing()
    if reason is not None:
        for item in items:
            item.add_marker(pytest.mark.skip(reason=reason))
