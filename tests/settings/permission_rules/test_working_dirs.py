"""Edits outside the working directories ask in every mode but bypassPermissions."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.agent.setup import AgentOptions
from hookline.cli import _main_parser

from .helpers import decide, run_agent, write_settings


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "project"
    project.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "escape").symlink_to(outside)
    return project, outside


@pytest.mark.parametrize("tool", ["write", "edit"])
def test_accept_edits_asks_outside_the_working_dir(layout: tuple[Path, Path], tool: str) -> None:
    project, outside = layout
    for path in ("../outside.txt", str(outside / "x.txt"), "escape/x.txt", "~/x.txt"):
        check = decide("acceptEdits", tool, {"path": path}, project)
        assert check.decision == "ask", (path, check)
        assert "outside the working directories" in check.reason


def test_accept_edits_allows_inside(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    for path in ("a.txt", "sub/b.txt", str(project / "c.txt"), "sub/../d.txt"):
        assert decide("acceptEdits", "write", {"path": path}, project).decision == "allow", path


def test_accept_edits_allows_inside_an_added_dir_resolved_through_symlinks(
    layout: tuple[Path, Path], tmp_path: Path
) -> None:
    project, outside = layout
    alias = tmp_path / "alias"
    alias.symlink_to(outside)
    for added in (str(outside), str(alias)):
        for path in (str(outside / "x.txt"), "escape/x.txt", "../outside/x.txt"):
            check = decide("acceptEdits", "write", {"path": path}, project, add_dirs=[added])
            assert check.decision == "allow", (added, path, check)


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", "dontAsk"])
def test_outside_edits_are_never_auto_allowed_but_in_bypass(
    layout: tuple[Path, Path], mode: str
) -> None:
    project, _ = layout
    check = decide(mode, "write", {"path": "../outside.txt"}, project)
    assert check.decision in ("ask", "deny")
    assert decide("bypassPermissions", "write", {"path": "../outside.txt"}, project).decision == (
        "allow"
    )


def test_an_edit_allow_rule_may_name_a_place_outside(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    allow = [f"Edit(/{outside}/**)"]
    check = decide("default", "write", {"path": str(outside / "x")}, project, allow=allow)
    assert check.decision == "allow"


def test_add_dir_flag_reaches_the_agent_options() -> None:
    args = _main_parser().parse_args(["--add-dir", "a", "--add-dir", "/b", "-p", "x"])
    assert args.add_dirs == ["a", "/b"]
    assert AgentOptions(add_dirs=args.add_dirs).add_dirs == ["a", "/b"]


async def test_agent_in_accept_edits_writes_inside_and_in_added_dirs_only(
    layout: tuple[Path, Path], tmp_path: Path
) -> None:
    project, outside = layout
    extra = tmp_path / "extra"
    extra.mkdir()
    results = await run_agent(
        project,
        [
            ("write", {"path": "inside.txt", "content": "1"}),
            ("write", {"path": "../outside.txt", "content": "2"}),
            ("write", {"path": str(outside / "abs.txt"), "content": "3"}),
            ("write", {"path": "escape/linked.txt", "content": "4"}),
            ("write", {"path": str(extra / "added.txt"), "content": "5"}),
        ],
        mode="acceptEdits",
        add_dirs=["../extra"],
    )
    assert [r.is_error for r in results] == [False, True, True, True, False]
    assert (project / "inside.txt").read_text() == "1"
    assert (extra / "added.txt").read_text() == "5"
    assert not (tmp_path / "outside.txt").exists()
    assert not (outside / "abs.txt").exists() and not (outside / "linked.txt").exists()
    assert "outside the working directories" in results[1].text


async def test_settings_additional_directories_extend_the_working_dirs(
    layout: tuple[Path, Path],
) -> None:
    project, outside = layout
    write_settings(project, {"permissions": {"additionalDirectories": ["../outside"]}})
    results = await run_agent(
        project, [("write", {"path": "escape/ok.txt", "content": "x"})], mode="acceptEdits"
    )
    assert not results[0].is_error, results[0].text
    assert (outside / "ok.txt").read_text() == "x"


def test_a_missing_add_dir_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hookline.cli import main

    code = main(["--cwd", str(tmp_path), "--add-dir", "nope", "--no-session", "-p", "hi"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"--add-dir {tmp_path / 'nope'} is not a directory" in err
