"""docs/permissions.md lists exactly the programs :mod:`hookline.shell.readonly` holds:
the read-only programs, the read-only git subcommands, the wrappers and variables a
read-only command may have, and acceptEdits' filesystem programs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hookline.shell.readonly import (
    FILESYSTEM_PROGRAMS,
    GIT_READ_ONLY,
    READ_ONLY_PROGRAMS,
    SAFE_VARIABLES,
    SAFE_WRAPPERS,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"


def names(start: str, end: str) -> set[str]:
    """The names in backticks from ``start`` to ``end``, parenthesised notes left out."""
    text = " ".join((DOCS / "permissions.md").read_text(encoding="utf-8").split())
    section = text.split(start, 1)[1].split(end, 1)[0]
    return set(re.findall(r"`([^`]+)`", re.sub(r"\([^()]*\)", "", section)))


@pytest.mark.parametrize(
    ("start", "end", "listed"),
    [
        ("Read-only programs:", "whoami`.", {*READ_ONLY_PROGRAMS} - {"whoami"}),
        ("Read-only git subcommands", "`worktree`", {*GIT_READ_ONLY} - {"worktree"}),
        ("inside no wrapper but", "; it is given", {*SAFE_WRAPPERS}),
        ("no variable but", "; the line sets", {*SAFE_VARIABLES}),
        ("**acceptEdits filesystem commands:**", "also run", {*FILESYSTEM_PROGRAMS}),
    ],
)
def test_the_page_lists_the_module(start: str, end: str, listed: set[str]) -> None:
    assert names(start, end) == listed
