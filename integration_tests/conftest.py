"""Integration tests against the real Claude Code (`make test-integrations` installs it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The loopback model servers live with the unit tests. This folder is a package (the pi
# suite's relative imports need it), so its own modules (harness, cases) are put on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import claude_binary


@pytest.fixture(scope="session")
def claude() -> Path:
    """The native `claude` binary; skips (saying how to install it) when it is missing."""
    binary = claude_binary()
    if binary is None:
        pytest.skip("Claude Code is not installed: run `make test-integrations`")
    return binary
