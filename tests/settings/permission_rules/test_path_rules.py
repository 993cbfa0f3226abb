"""Read/Edit path rules: Claude's anchors, gitignore globs, paths resolved before matching."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookline.settings import load_settings
from hookline.settings.permission_rules import PermissionRules

from .helpers import decide, run_agent, write_settings


@pytest.fixture(autouse=True)
def _project_files(project: Path) -> None:
    """What every test here finds in the project folder."""
    root = project
    (root / "src" / "x").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / ".env").write_text("SECRET=1\n")
    (root / "link").symlink_to(".env")


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "bypassPermissions", "dontAsk", "plan"])
@pytest.mark.parametrize("path", [".env", "./sub/../.env", "link", "sub/../link"])
def test_a_read_deny_holds_in_every_mode_through_dotdot_and_symlinks(
    project: Path, mode: str, path: str
) -> None:
    check = decide(mode, "read", {"path": path}, project, deny=["Read(./.env)"])
    assert check.decision == "deny"
    assert "Read(./.env)" in check.reason


def test_a_read_deny_by_absolute_path_is_the_same_file(project: Path) -> None:
    check = decide(
        "bypassPermissions", "read", {"path": str(project / ".env")}, project, deny=["Read(./.env)"]
    )
    assert check.decision == "deny"


def test_dot_slash_anchors_at_the_working_dir_and_a_bare_name_matches_at_any_depth(
    project: Path,
) -> None:
    (project / "sub" / ".env").write_text("x")
    anchored = decide(
        "bypassPermissions", "read", {"path": "sub/.env"}, project, deny=["Read(./.env)"]
    )
    anywhere = decide(
        "bypassPermissions", "read", {"path": "sub/.env"}, project, deny=["Read(.env)"]
    )
    assert (anchored.decision, anywhere.decision) == ("allow", "deny")


@pytest.mark.parametrize(
    ("path", "decision"),
    [("src/a.py", "allow"), ("src/x/a.py", "ask"), ("src/a.txt", "ask"), ("a.py", "ask")],
)
def test_star_stays_inside_a_folder(project: Path, path: str, decision: str) -> None:
    for tool in ("write", "edit"):
        check = decide("default", tool, {"path": path}, project, allow=["Edit(src/*.py)"])
        assert check.decision == decision, (tool, check)


def test_double_star_crosses_folders(project: Path) -> None:
    for path in ("src/a.py", "src/x/a.py", "src/x/y/z.txt"):
        assert (
            decide("default", "write", {"path": path}, project, allow=["Edit(src/**)"]).decision
            == "allow"
        )
    assert (
        decide("default", "write", {"path": "a.py"}, project, allow=["Edit(src/**)"]).decision
        == "ask"
    )


def test_an_edit_deny_covers_write_and_edit(project: Path) -> None:
    for tool in ("write", "edit"):
        check = decide(
            "bypassPermissions", tool, {"path": "src/a.py"}, project, deny=["Edit(src/**)"]
        )
        assert check.decision == "deny"


def test_a_write_rule_reads_as_an_edit_rule(project: Path) -> None:
    check = decide(
        "bypassPermissions", "edit", {"path": "src/a.py"}, project, deny=["Write(src/**)"]
    )
    assert check.decision == "deny"


def test_slash_anchors_at_the_settings_project_root_not_the_working_dir(project: Path) -> None:
    """``/src/**`` is the project's src even when the agent works in a subfolder."""
    cwd = project / "sub"
    rules = ["Edit(/src/**)"]
    inside = decide(
        "bypassPermissions", "write", {"path": "../src/a.py"}, cwd, deny=rules, root=project
    )
    local = decide(
        "bypassPermissions", "write", {"path": "src/a.py"}, cwd, deny=rules, root=project
    )
    assert (inside.decision, local.decision) == ("deny", "allow")


def test_slash_anchor_comes_from_the_settings_files_project(project: Path) -> None:
    write_settings(project, {"permissions": {"deny": ["Edit(/src/**)"]}})
    rules = PermissionRules.from_settings(load_settings(project))
    assert rules.deny[0].origin.root == str(project)
    assert rules.deny[0].path is not None and rules.deny[0].path.base == str(project)


def test_double_slash_is_an_absolute_path(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    deny = [f"Edit(/{other}/**)"]
    assert (
        decide(
            "bypassPermissions", "write", {"path": str(other / "f")}, project, deny=deny
        ).decision
        == "deny"
    )
    # A single slash would have meant <project>/elsewhere/**, which this is not.
    single = [f"Edit({other}/**)"]
    assert (
        decide(
            "bypassPermissions",
            "write",
            {"path": str(other / "f")},
            project,
            deny=single,
            root=project,
        ).decision
        == "allow"
    )


def test_tilde_is_the_home_folder(project: Path) -> None:
    home = Path.home()
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("key")
    for path in ("~/.ssh/id_rsa", str(home / ".ssh" / "id_rsa")):
        check = decide(
            "bypassPermissions", "read", {"path": path}, project, deny=["Read(~/.ssh/**)"]
        )
        assert check.decision == "deny", path


def test_a_leading_dotdot_climbs_from_the_working_dir(project: Path) -> None:
    cwd = project / "sub"
    check = decide("bypassPermissions", "read", {"path": "../.env"}, cwd, deny=["Read(../.env)"])
    assert check.decision == "deny"


def test_an_allow_rule_does_not_follow_a_link_out_of_its_folder(
    project: Path, tmp_path: Path
) -> None:
    """``Edit(src/**)`` allows src/; a link in src/ pointing elsewhere is not in src/."""
    outside = tmp_path / "outside.txt"
    outside.write_text("x")
    (project / "src" / "escape.txt").symlink_to(outside)
    check = decide(
        "default",
        "write",
        {"path": "src/escape.txt"},
        project,
        allow=["Edit(src/**)"],
        add_dirs=[str(tmp_path)],
    )
    assert check.decision == "ask"


def test_a_read_deny_on_a_folder_covers_a_search_of_that_folder(project: Path) -> None:
    (project / "secrets").mkdir()
    (project / "secrets" / "k").write_text("k")
    deny = ["Read(./secrets/**)"]
    for tool, args in [
        ("read", {"path": "secrets/k"}),
        ("grep", {"pattern": "k", "path": "secrets/k"}),
        ("ls", {"path": "secrets/k"}),
    ]:
        assert decide("bypassPermissions", tool, args, project, deny=deny).decision == "deny", tool


def test_a_search_tool_rule_covers_only_that_tool(project: Path) -> None:
    deny = ["Grep(./sub/**)"]
    assert (
        decide(
            "bypassPermissions", "grep", {"pattern": "x", "path": "sub/a"}, project, deny=deny
        ).decision
        == "deny"
    )
    assert (
        decide("bypassPermissions", "read", {"path": "sub/a"}, project, deny=deny).decision
        == "allow"
    )


def test_reason_names_the_rule_and_its_file(project: Path) -> None:
    settings = write_settings(project, {"permissions": {"deny": ["Read(./.env)"]}})
    rules = PermissionRules.from_settings(load_settings(project))
    from hookline.agent.permissions import check_permission

    check = check_permission("bypassPermissions", rules, "read", {"path": ".env"}, str(project))
    assert check.reason == f"denied by rule Read(./.env) ({settings}: permissions.deny[0])"


async def test_read_deny_stops_the_agent_in_bypass_mode(project: Path) -> None:
    results = await run_agent(
        project,
        [
            ("read", {"path": ".env"}),
            ("read", {"path": "./sub/../.env"}),
            ("read", {"path": "link"}),
        ],
        settings={"permissions": {"deny": ["Read(./.env)"]}},
        mode="bypassPermissions",
    )
    assert [r.is_error for r in results] == [True, True, True]
    assert all("SECRET" not in r.text and "Read(./.env)" in r.text for r in results)


def test_symlinked_working_dir_still_matches(tmp_path: Path, project: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(project)
    check = decide("bypassPermissions", "read", {"path": ".env"}, alias, deny=["Read(./.env)"])
    assert check.decision == "deny"
    assert os.path.realpath(alias) == str(project)


@pytest.mark.parametrize(
    "path", ["@.env", "a.txt", "~/x", "sub/../a", "/abs/p", "./x/", "@sub/../.env"]
)
def test_rules_resolve_paths_as_the_tools_do(project: Path, path: str) -> None:
    """The tools read ``@.env`` as ``.env``: a rule must see the same file."""
    from hookline.settings.permission_rules import FilePath
    from hookline.tools._params import resolve_path

    assert FilePath.of(path, str(project)).path == os.path.normpath(
        resolve_path(str(project), path)[0]
    )


def test_a_mention_prefix_does_not_slip_past_a_read_deny(project: Path) -> None:
    for path in ("@.env", "@./.env", "@link"):
        check = decide("bypassPermissions", "read", {"path": path}, project, deny=["Read(./.env)"])
        assert check.decision == "deny", path


def test_a_nul_byte_in_a_path_is_judged_not_raised(project: Path) -> None:
    check = decide("default", "write", {"path": "a\x00b"}, project, deny=["Read(./.env)"])
    assert check.decision == "ask"


def test_a_pathological_path_rule_cannot_stall_a_call(project: Path) -> None:
    """Backtracking regexes take hours here; RE2 answers at once (the test timeout guards)."""
    deny = ["Read(*a*a*a*a*a*a*a*a*a*a*a*a*b)", "Edit(**/*a*a*a*a*a*a*a*a*a*a*c)"]
    long_name = "a" * 20_000
    assert decide("default", "read", {"path": long_name}, project, deny=deny).decision == "allow"
    assert (
        decide("acceptEdits", "write", {"path": long_name}, project, deny=deny).decision == "allow"
    )
