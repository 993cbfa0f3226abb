"""A read rule about a place outside every working directory leaves read-only bash lines
be (they read only inside them); one that could match inside still holds them."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.agent.permissions import check_permission
from hookline.settings.permission_rules import PathPattern, PermissionRules


@pytest.mark.parametrize(
    ("specifier", "reaches"),
    [
        ("//elsewhere/keys/auth.json", False),  # a file outside
        ("//elsewhere/**", False),  # a folder outside
        ("//elsewhere/*/secret", False),
        ("//**/secret", True),  # a glob from the root can land anywhere
        ("**/.env", True),  # relative: the working directory's
        (".env", True),
        ("../.env", False),  # the parent's own file
        ("../**", True),  # the parent holds the project
        ("//", True),
    ],
)
def test_which_patterns_reach_into_the_project(
    tmp_path: Path, specifier: str, reaches: bool
) -> None:
    project = tmp_path / "work" / "project"
    project.mkdir(parents=True)
    spec = specifier.replace("//elsewhere", f"/{tmp_path}/elsewhere")
    pattern = PathPattern.compile(spec, root=str(project))
    assert pattern.reaches_into([str(project)], str(project)) is reaches


def test_a_parent_anchor_reaches_a_project_inside_it(tmp_path: Path) -> None:
    project = tmp_path / "work" / "project"
    project.mkdir(parents=True)
    pattern = PathPattern.compile(f"/{tmp_path}/work/**", root=str(project))
    assert pattern.reaches_into([str(project)], str(project))


@pytest.mark.parametrize(
    ("deny", "asked"),
    [
        ("Read(//{outside}/auth.json)", False),
        ("Read(//{outside}/**)", False),
        ("Read(**/.env)", True),
        ("Read(//{project}/notes.txt)", True),
    ],
)
def test_a_read_only_line_is_asked_only_under_a_rule_that_reaches_it(
    tmp_path: Path, deny: str, asked: bool
) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "notes.txt").write_text("n\n")
    rules = PermissionRules.from_lists(deny=[deny.format(outside=outside, project=project)])
    check = check_permission("default", rules, "bash", {"command": "ls"}, str(project))
    assert check.decision == ("ask" if asked else "allow"), check.reason
