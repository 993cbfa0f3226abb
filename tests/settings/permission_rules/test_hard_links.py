"""A hard link is another name for a protected file: Read and Edit deny rules hold through it.

Judged by effect, through the real agent in bypass mode (deny rules hold in every mode):
the secret never reaches a tool result, ``.env`` keeps its content.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookline.settings.permission_rules import PermissionRules

from .helpers import decide, run_agent

SECRET = "TOPSECRET-7f3a"
DENY = ["Read(./secrets/**)", "Edit(.env)", "Read(.env)"]


@pytest.fixture(autouse=True)
def _project_files(project: Path) -> None:
    """What every test here finds in the project folder."""
    root = project
    (root / "secrets").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "secrets" / "key").write_text(f"KEY={SECRET}\n")
    (root / ".env").write_text(f"ENV={SECRET}\n")
    os.link(root / "secrets" / "key", root / "docs" / "notes.txt")
    os.link(root / ".env", root / "config.txt")
    (root / "plain.txt").write_text("nothing here\n")


async def _agent(project: Path, calls: list[tuple[str, dict[str, object]]]) -> list[str]:
    results = await run_agent(
        project, calls, settings={"permissions": {"deny": DENY}}, mode="bypassPermissions"
    )
    return [r.text for r in results]


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read", {"path": "docs/notes.txt"}),
        ("read", {"path": "config.txt"}),
        ("grep", {"pattern": "TOPSECRET", "path": "."}),
        ("grep", {"pattern": "TOPSECRET", "path": "docs"}),
        ("grep", {"pattern": "TOPSECRET", "path": "docs/notes.txt"}),
        ("find", {"pattern": "**/*.txt"}),
        ("ls", {"path": "docs"}),
    ],
)
async def test_no_tool_shows_a_protected_file_through_a_hard_link(
    project: Path, tool: str, args: dict[str, object]
) -> None:
    shown = await _agent(project, [(tool, args)])
    assert SECRET not in shown[0]
    assert "notes.txt" not in shown[0] and "config.txt" not in shown[0]


async def test_the_fixture_is_honest_without_rules(project: Path) -> None:
    results = await run_agent(project, [("grep", {"pattern": "TOPSECRET", "path": "."})])
    assert "notes.txt" in results[0].text and "config.txt" in results[0].text


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("write", {"path": "config.txt", "content": "pwned\n"}),
        ("edit", {"path": "config.txt", "old_text": "ENV", "new_text": "PWNED"}),
        ("bash", {"command": "echo pwned > config.txt"}),
        ("bash", {"command": "echo pwned >> config.txt"}),
        ("bash", {"command": "f() { echo pwned; } > config.txt; f"}),
    ],
)
async def test_no_tool_writes_a_protected_file_through_a_hard_link(
    project: Path, tool: str, args: dict[str, object]
) -> None:
    shown = await _agent(project, [(tool, args)])
    assert "denied" in shown[0]
    assert (project / ".env").read_text() == f"ENV={SECRET}\n"


def test_a_link_made_after_a_walk_is_seen(project: Path) -> None:
    """The walk is kept, but a folder that changed since (a new link) is walked again."""
    rules = ["Read(./secrets/**)"]
    assert decide("default", "read", {"path": "docs/notes.txt"}, project, deny=rules).decision == (
        "deny"
    )
    (project / "secrets" / "new").write_text("NEW\n")
    os.link(project / "secrets" / "new", project / "late.txt")
    check = decide("default", "read", {"path": "late.txt"}, project, deny=rules)
    assert check.decision == "deny", check


def test_a_protected_file_replaced_after_a_walk_is_seen(project: Path) -> None:
    rules = ["Edit(.env)"]
    assert decide("default", "write", {"path": "config.txt"}, project, deny=rules).decision == (
        "deny"
    )
    (project / "new.env").write_text("FRESH\n")
    os.replace(project / "new.env", project / ".env")  # .env is now another inode
    os.link(project / ".env", project / "fresh.txt")
    check = decide("default", "write", {"path": "fresh.txt"}, project, deny=rules)
    assert check.decision == "deny", check


def test_a_file_with_one_name_is_not_walked_for(project: Path) -> None:
    check = decide("default", "read", {"path": "plain.txt"}, project, deny=DENY)
    assert check.decision == "allow", check


def test_listings_hide_a_hard_link(project: Path) -> None:
    hide = PermissionRules.from_lists(deny=DENY).hide_predicate(str(project))
    assert hide is not None
    assert hide(str(project / "docs" / "notes.txt"))
    assert not hide(str(project / "plain.txt"))
