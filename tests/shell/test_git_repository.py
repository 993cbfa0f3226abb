"""Which repositories may make a read-only git command run a program or read elsewhere."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hookline.shell.git_repository import untrusted_repository


def _repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


#: Configuration a project may ship that names a program or another place.
HOSTILE = [
    "[core]\n\tfsmonitor = ./x",
    "[core]\n\tFSMonitor = ./x",
    "[CORE]\n\tfsmonitor = ./x",
    "[core]\n\tpager = ./x",
    "[core]\n\teditor = ./x",
    "[core]\n\tsshCommand = ./x",
    "[core]\n\tworktree = /",
    "[core]\n\tattributesFile = /x",
    "[core]\n\texcludesFile = /x",
    "[core]\n\taskPass = ./x",
    "[core]\n\tgitProxy = ./x",
    "[core] fsmonitor = ./x",
    "[core]\nfsmonitor=./x",
    "[core]\n\tfsmonitor = \\\n./x",
    '[core "x"]\n\tfsmonitor = ./x',
    "[diff]\n\texternal = ./x",
    '[diff "a"]\n\ttextconv = ./x',
    '[diff "a"]\n\tcommand = ./x',
    "[diff.a]\n\ttextconv = ./x",
    '[filter "a"]\n\tclean = ./x',
    '[filter "a"]\n\tprocess = ./x',
    '[merge "a"]\n\tdriver = ./x',
    "[pager]\n\tlog = ./x",
    "[log]\n\tshowSignature = true",
    "[gpg]\n\tprogram = ./x",
    '[gpg "ssh"]\n\tprogram = ./x',
    "[include]\n\tpath = x",
    '[includeIf "gitdir:/"]\n\tpath = x',
    "[extensions]\n\tpartialClone = origin",
    '[remote "origin"]\n\tpromisor = true',
    '[remote "origin"]\n\tuploadpack = ./x',
    "[credential]\n\thelper = ./x",
    "[blame]\n\tignoreRevsFile = /etc/passwd",
    "[sequence]\n\teditor = ./x",
    "[uploadpack]\n\tpackObjectsHook = ./x",
    "[lfs]\n\trepositoryformatversion = 0",
    "[status]\n\tsubmoduleSummary = true",
    "[core]\n\tfsmonitor",
    "[core\n\tfsmonitor = ./x",
]

#: What ``git init``, a clone and everyday use write.
PLAIN = [
    "",
    "[core]\n\tfilemode = false\n\tignorecase = true",
    '[remote "origin"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/x/*',
    '[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main',
    "[user]\n\tname = x\n\temail = x@example.com",
    '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic x',
    "[pull]\n\trebase = true",
    "[alias]\n\tst = status",
]


@pytest.mark.parametrize("config", HOSTILE)
def test_a_hostile_configuration_is_untrusted(tmp_path: Path, config: str) -> None:
    repo = _repo(tmp_path / "p")
    with (repo / ".git" / "config").open("a") as file:
        file.write(config + "\n")
    assert untrusted_repository(str(repo))
    (repo / "sub").mkdir()
    assert untrusted_repository(str(repo / "sub"))


@pytest.mark.parametrize("config", PLAIN)
def test_a_plain_configuration_is_trusted(tmp_path: Path, config: str) -> None:
    repo = _repo(tmp_path / "p")
    with (repo / ".git" / "config").open("a") as file:
        file.write(config + "\n")
    assert not untrusted_repository(str(repo))


@pytest.mark.parametrize(
    "plant",
    [
        "hooks/post-index-change",
        "hooks/reference-transaction",
        "hooks/fsmonitor-watchman",
        "hooks/anything-else",
        "modules/x/config",
        "objects/info/alternates",
        "config.worktree",
    ],
)
def test_what_else_a_git_directory_holds(tmp_path: Path, plant: str) -> None:
    repo = _repo(tmp_path / "p")
    target = repo / ".git" / plant
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("[core]\n\tfsmonitor = ./x\n" if plant.endswith("config.worktree") else "x")
    assert untrusted_repository(str(repo))


def test_hooks_only_writes_run_are_trusted(tmp_path: Path) -> None:
    # ``pre-commit install`` and husky: hooks of commit, push, checkout
    repo = _repo(tmp_path / "p")
    (repo / ".git" / "hooks" / "pre-commit").write_text("x")
    (repo / ".husky").mkdir()
    (repo / ".husky" / "pre-push").write_text("x")
    with (repo / ".git" / "config").open("a") as file:
        file.write("[core]\n\thooksPath = .husky\n")
    assert not untrusted_repository(str(repo))
    (repo / ".husky" / "post-index-change").write_text("x")
    assert untrusted_repository(str(repo))


def test_a_git_file_and_a_bare_folder_are_followed(tmp_path: Path) -> None:
    real = _repo(tmp_path / "real")
    with (real / ".git" / "config").open("a") as file:
        file.write("[core]\n\tfsmonitor = ./x\n")
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / ".git").write_text(f"gitdir: {real / '.git'}\n")
    assert untrusted_repository(str(linked))
    bare = tmp_path / "bare"
    for folder in ("objects", "refs"):
        (bare / folder).mkdir(parents=True)
    (bare / "HEAD").write_text("ref: refs/heads/main\n")
    (bare / "config").write_text("[gpg]\n\tprogram = ./x\n")
    assert untrusted_repository(str(bare))
    (linked / ".git").write_text("not a gitdir line\n")
    assert untrusted_repository(str(linked))


def test_no_repository_is_trusted(tmp_path: Path) -> None:
    assert not untrusted_repository(str(tmp_path))
