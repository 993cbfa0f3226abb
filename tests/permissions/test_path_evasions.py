"""Path rules as an attacker tries them: ways to name a denied file by another name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .helpers import decide


@pytest.mark.xfail(
    strict=True,
    reason="a hard link is another name for the same inode; path rules compare names, "
    "and finding every name of a denied file would mean scanning the file system",
)
def test_a_hard_link_to_a_denied_file_is_denied(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SECRET=1\n")
    os.link(tmp_path / ".env", tmp_path / "notes.txt")
    check = decide("default", "read", {"path": "notes.txt"}, tmp_path, deny=["Read(./.env)"])
    assert check.decision == "deny", check
