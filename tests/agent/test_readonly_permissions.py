"""Read-only bash lines run unasked; acceptEdits also runs filesystem commands inside
the working directories; a deny or ask rule still wins."""

from __future__ import annotations

import os
from pathlib import Path
from typing import cast

import pytest

from hookline.agent.gate import PermissionGate
from hookline.agent.permissions import PermissionRules, check_permission
from hookline.core.runner import HookRunner
from hookline.core.vocabulary import PermissionMode
from hookline.shell import parse_command
from hookline.shell.readonly import (
    FILESYSTEM_PROGRAMS,
    READ_ONLY_PROGRAMS,
    filesystem_operands,
    read_only_line,
)


def decide(
    mode: str,
    line: str,
    cwd: Path,
    *,
    allow: tuple[str, ...] = (),
    deny: tuple[str, ...] = (),
    ask: tuple[str, ...] = (),
    add_dirs: tuple[str, ...] = (),
) -> str:
    rules = PermissionRules.from_lists(allow, deny, ask, additional_directories=add_dirs)
    check = check_permission(cast(PermissionMode, mode), rules, "bash", {"command": line}, str(cwd))
    return check.decision


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "escape").symlink_to(outside)
    return project, outside


# -- the classifier


@pytest.mark.parametrize(
    "line",
    [
        "git status",
        "ls -la",
        "git log --oneline | head -5",
        "grep -rn TODO src 2>/dev/null",
        "cat < README.md",
        "find . -name '*.py' -type f",
        "sed -n '1,20p' a.txt",
        "LC_ALL=C sort a.txt | uniq -c",
        "timeout 5 git diff HEAD~1 -- src",
        "cd src && ls",
        "git branch --list 'feat*'",
        "date +%F",
    ],
)
def test_read_only_lines(line: str) -> None:
    assert read_only_line(parse_command(line))


@pytest.mark.parametrize(
    "line",
    [
        "",
        "ls > out.txt",
        "ls; touch x",
        "sort -uo out a.txt",
        "git -c core.pager=sh log",
        "git log --out=f",
        "git branch -D main",
        "find . -delete",
        "sed -n 'w f' a.txt",
        "sed -i s/a/b/ a.txt",
        "cat $(rm x)",
        "echo $HOME",
        "X=1; ls",
        "PATH=/x ls",
        "./ls",
        "cd .. && git status",
        "cat < /dev/tcp/127.0.0.1/80",
        "less a.txt",
        "time -o f ls",
        "sudo ls",
        "xargs cat",
        # they only read, but what they print is the environment, API keys included
        "env",
        "printenv",
        "printenv ANTHROPIC_API_KEY",
        "ps eww",
        "ps aux",
    ],
)
def test_not_read_only_lines(line: str) -> None:
    assert not read_only_line(parse_command(line))


def test_filesystem_operands() -> None:
    def operands(line: str) -> tuple[str, ...] | None:
        return filesystem_operands(parse_command(line).commands[0])

    assert operands("mkdir -p a/b") == ("a/b",)
    assert operands("mv -t dest a b") == ("a", "b", "dest")
    assert operands("rm -rf build *.o") == ("build", "*.o")
    assert operands("sed -i s/a/b/ f.txt") == ("f.txt",)
    for line in ("rm -rf lin*/x", "rm ~-/x", "cp -s a b", "touch $X", "rm a > f", "ls a"):
        assert operands(line) is None, line


def test_the_lists_are_data() -> None:
    assert {"cat", "ls", "git", "grep", "find", "sed"} <= set(READ_ONLY_PROGRAMS)
    assert set(FILESYSTEM_PROGRAMS) == {"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"}


# -- check_permission


@pytest.mark.parametrize("mode", ["default", "plan", "acceptEdits", "dontAsk"])
def test_a_read_only_line_runs_unasked_in_every_mode(layout: tuple[Path, Path], mode: str) -> None:
    project, _ = layout
    assert decide(mode, "git status && ls -la", project) == "allow"


def test_plan_mode_still_denies_a_line_that_writes(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    assert decide("plan", "touch x", project) == "deny"
    assert decide("plan", "ls > out.txt", project) == "deny"


def test_a_deny_or_ask_rule_still_wins(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    assert decide("default", "git status", project, deny=("Bash(git status)",)) == "deny"
    assert decide("default", "ls; git log", project, ask=("Bash(git log *)",)) == "ask"
    assert decide("plan", "git log", project, ask=("Bash(git log *)",)) == "ask"


def test_a_read_rule_turns_the_list_off(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    assert decide("default", "cat .env", project, deny=("Read(.env)",)) == "ask"
    assert decide("default", "grep -r KEY .", project, ask=("Grep(secrets/**)",)) == "ask"


def test_a_redirect_write_needs_what_an_edit_needs(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    assert decide("default", "ls > out.txt", project) == "ask"
    # a command that writes by redirection is not read-only, nor a filesystem command
    assert decide("acceptEdits", "ls > out.txt", project) == "ask"
    assert decide("acceptEdits", "ls > out.txt", project, allow=("Bash(ls *)",)) == "allow"
    assert decide("default", "ls > out.txt", project, allow=("Bash(ls *)",)) == "ask"
    assert decide("default", "ls > out.txt", project, deny=("Edit(out.txt)",)) == "deny"


def test_a_writer_among_readers_asks(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    assert decide("default", "ls && touch x && git status", project) == "ask"
    assert decide("dontAsk", "ls && touch x", project) == "deny"


@pytest.mark.parametrize(
    "line",
    [
        "mkdir -p build/out",
        "touch notes.txt",
        "rm -rf sub",
        "rmdir sub",
        "mv a.txt b.txt",
        "cp -r sub sub2",
        "sed -i 's/a/b/g' a.txt",
        "mkdir -p out && ls out",
        "timeout 5 rm -f a.txt",
    ],
)
def test_accept_edits_runs_filesystem_commands_inside(layout: tuple[Path, Path], line: str) -> None:
    project, _ = layout
    assert decide("acceptEdits", line, project) == "allow"
    assert decide("default", line, project) == "ask"


@pytest.mark.parametrize(
    "line",
    [
        "rm -rf ../outside",
        "rm -rf escape/",
        "touch escape/x",
        "cp a.txt /tmp/x",
        "mv a.txt ~/x",
        "rm -rf .",
        "rm -rf *.o/..",
        "cd /tmp && rm x",
        "rm -rf lin*/x",
        "cp -a escape e2; rm -rf e2/",
        "sed -i 'w ../x' a.txt",
        "rm -i a.txt",
        "sudo rm a.txt",
        "X=1; rm a.txt",
    ],
)
def test_accept_edits_asks_for_paths_it_cannot_hold(layout: tuple[Path, Path], line: str) -> None:
    project, _ = layout
    assert decide("acceptEdits", line, project) == "ask"


def test_accept_edits_counts_additional_directories(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    line = f"touch {outside}/x"
    assert decide("acceptEdits", line, project) == "ask"
    assert decide("acceptEdits", line, project, add_dirs=(str(outside),)) == "allow"
    assert decide("acceptEdits", line, project, deny=("Bash(touch *)",)) == "deny"


def test_no_rule_is_suggested_for_a_read_only_command(layout: tuple[Path, Path]) -> None:
    project, _ = layout
    from hookline.agent.rule_suggestions import rules_to_remember

    gate = PermissionGate(HookRunner(), cwd=str(project))
    line = {"command": "git status && npm test"}
    assert rules_to_remember(gate, "bash", line) == ["Bash(npm test)"]


@pytest.mark.parametrize(
    "line",
    [
        "cat ../outside/keep",
        "cat escape/keep",
        "ls escape",
        "cat esc*/keep",
        "cat /etc/hostname",
        "cat ~/.bashrc",
        "grep -r key /etc",
        "grep --file=/etc/hostname x",
        "git diff --no-index /etc/hostname a.txt",
        "cd /etc && cat hostname",
        "cd sub && cat x",
        "cat ~-/x",
        "head -n 1 *",
    ],
)
def test_a_read_outside_the_working_directories_asks(layout: tuple[Path, Path], line: str) -> None:
    project, outside = layout
    (outside / "keep").write_text("k\n")
    (project / "link").symlink_to(outside / "keep")  # ``*`` matches a link out
    assert decide("default", line, project) == "ask"


def test_a_read_inside_an_added_directory_runs(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    line = f"cat {outside}/keep escape/keep"
    assert decide("default", line, project) == "ask"
    assert decide("default", line, project, add_dirs=(str(outside),)) == "allow"
    assert decide("plan", "ls sub && head -n 1 *.txt", project) == "allow"


@pytest.mark.parametrize("line", ["cd && ls", "cd - && ls", "cd; ls", "cd ~ && ls"])
def test_a_cd_out_of_the_project_asks(layout: tuple[Path, Path], line: str) -> None:
    project, _ = layout
    assert decide("default", line, project) == "ask"


def test_a_relative_search_path_turns_the_list_off(monkeypatch: pytest.MonkeyPatch) -> None:
    # with ``.`` in PATH, ``ls`` may be a file of the project
    monkeypatch.setenv("PATH", f".:{os.environ['PATH']}")
    assert not read_only_line(parse_command("ls"))
    assert read_only_line(parse_command("/bin/ls"))
