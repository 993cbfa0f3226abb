"""Path rules as an attacker tries them: ways to name a denied file by another name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .helpers import decide


def test_a_hard_link_to_a_denied_file_is_denied(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SECRET=1\n")
    os.link(tmp_path / ".env", tmp_path / "notes.txt")
    check = decide("default", "read", {"path": "notes.txt"}, tmp_path, deny=["Read(./.env)"])
    assert check.decision == "deny", check


@pytest.mark.parametrize("rule", ["Read(secrets/)", "Read(./secrets/)", "Read(**/secrets/)"])
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("ls", {"path": "secrets"}),
        ("ls", {"path": "secrets/"}),
        ("ls", {"path": "secrets/."}),
        ("ls", {"path": "app/../secrets"}),
        ("ls", {"path": "./secrets//"}),
        ("ls", {"path": "link_to_secrets"}),  # a link to the folder is the folder
        ("grep", {"pattern": "x", "path": "secrets"}),
        ("grep", {"pattern": "x", "path": "link_to_secrets"}),
        ("find", {"pattern": "*", "path": "app/../secrets/"}),
        ("read", {"path": "secrets/k"}),
        ("read", {"path": "app/../secrets/k"}),
        ("read", {"path": "link_to_secrets/k"}),
    ],
)
def test_a_folder_only_rule_covers_the_folder_by_any_name(
    tmp_path: Path, rule: str, tool: str, args: dict[str, str]
) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "k").write_text("x")
    (tmp_path / "link_to_secrets").symlink_to(tmp_path / "secrets")
    check = decide("bypassPermissions", tool, args, tmp_path, deny=[rule])
    assert check.decision == "deny", check


def test_a_folder_only_rule_leaves_a_file_of_that_name_alone(tmp_path: Path) -> None:
    (tmp_path / "secrets").write_text("x")
    check = decide(
        "bypassPermissions", "read", {"path": "secrets"}, tmp_path, deny=["Read(secrets/)"]
    )
    assert check.decision == "allow", check


@pytest.mark.parametrize("mode", ["default", "bypassPermissions"])
@pytest.mark.parametrize(
    "line",
    [
        'ls "$(< secre?s/key)"',
        'ls "$(< secrets/k*)"',
        "cat < secre*/key",
        'f=secrets/key; ls "$(< $f)"',
        'cd secrets && ls "$(< key)"',
        'cd secrets; read x < key; ls "$x"',
    ],
)
def test_a_shell_read_known_only_at_run_time_is_not_let_past_a_read_deny_rule(
    tmp_path: Path, line: str, mode: str
) -> None:
    """The shell opens ``$(< glob)``, ``< $f`` and, after ``cd``, ``< key`` itself: a
    Read deny rule cannot be checked on them, so the line is not allowed."""
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "key").write_text("KEY=1\n")
    check = decide(
        mode, "bash", {"command": line}, tmp_path,
        deny=["Read(./secrets/**)"], allow=["Bash(ls *)", "Bash(cat *)"],
    )  # fmt: skip
    assert check.decision != "allow", check
