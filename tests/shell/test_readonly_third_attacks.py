"""A third attacker's lines, judged by effect, beside the first two rounds.

Fresh angles: repositories git finds otherwise than the check (a ``.git`` folder git
passes over for the bare-looking project around it, a submodule whose git directory
lies inside the working tree and which no ``modules`` folder shows), worktree and
common-directory configuration, symlinked configuration, and reads out of the project
through tilde, ``$HOME``, quoting, brace and ``/proc`` forms and git's own options
(``--no-index``, ``--stdin``, ``--contents``, ``-f``, ``--ignore-revs-file``).
Every line :func:`check_permission` runs unasked is run by bash in a scratch project
(:class:`tests.shell.test_readonly_fresh_attacks.World`): it may change nothing, reach
no server, run no program the repository names and show no secret from outside.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from hookline.shell.git_repository import untrusted_repository
from tests.effects import ConnectionCounter
from tests.shell.test_readonly_fresh_attacks import (
    HOSTILE_CONFIG,
    SECRET,
    World,
    allowed_unasked,
    judge,
)

#: Reads through every angle the first rounds did not try (run in the plain project).
LINES = [
    "cat ~root/.bashrc",
    "cat ~+/../outside/secret",
    "cat ~-/secret",
    "cat ~+/victim",
    "cat $HOME/keep",
    "cat ${HOME}/keep",
    'cat "$HOME"/keep',
    "cat /proc/self/root/tmp",
    "ls /proc/1/cwd/",
    "cat /proc/self/fd/0",
    "ls /proc/self/fd/",
    "cat {..,x}/outside/secret",
    "cat .{.,}/outside/secret",
    "cat ./.[.]/outside/secret",
    "cat .?/outside/secret",
    "cat ''..''/outside/secret",
    "cat \\.\\./outside/secret",
    "cat $'..'/outside/secret",
    "cat ..$'/'outside/secret",
    "cat $'\\x2e\\x2e'/outside/secret",
    "cat $'\\056\\056/outside/secret'",
    "cat ~/keep",
    "cat x~/../../outside/secret",
    "cat -- ../outside/secret",
    "head -c100 /etc/../tmp/x",
    "git diff --no-index ../outside/secret victim",
    "git diff --no-index victim escape/secret",
    "git diff --no-index /dev/null escape/secret",
    "git diff --no-index -- victim link-secret",
    "git show HEAD:../outside/secret",
    "git grep --no-index SECRET ../outside",
    "git grep --no-index -e x -- ..",
    "git grep --no-index --untracked SECRET",
    "git grep --no-index SECRET escape",
    "git grep --no-index -r SECRET .",
    "git grep --untracked SECRET",
    "git grep --untracked -e SECRET -- escape",
    "git ls-files --others ..",
    "git blame -- escape/secret",
    "git blame --contents escape/secret victim",
    "git blame --contents=link-secret victim",
    "git log --follow -- escape/secret",
    "git cat-file --textconv HEAD:victim",
    "git cat-file -p HEAD:victim",
    "git check-attr -a --stdin < list",
    "git check-ignore --stdin < list-text",
    "git log --format=%x00",
    "git rev-parse --git-path hooks",
    "git log -L1,1:victim",
    "git log -L1,1:/etc/passwd",
    "git log --no-walk --stdin < list",
    "git rev-list --stdin < list",
    "git cat-file --batch < list-text",
    "git cat-file --batch-check < list-text",
    "git diff --no-index victim /proc/self/cwd/../outside/secret",
    "git log --ignore-revs-file=../outside/secret",
    "git blame --ignore-revs-file ../outside/secret victim",
    "git blame --ignore-revs-file link-secret victim",
    "git blame -S link-secret victim",
    "git log --exclude-from=link-secret",
    "git shortlog -s < link-secret",
    "git grep -f link-secret",
    "git grep -f escape/secret victim",
    "git grep --file=link-secret victim",
    "git grep -f/dev/stdin victim",
    "git grep -f - victim < link-secret",
    "git diff --stat HEAD -- escape",
    "git status --porcelain escape/",
    "git ls-files -o --directory escape",
    "git ls-files --others --exclude-from=link-secret",
    "git ls-files -X link-secret -o",
    "git check-ignore -v --no-index escape/secret",
    "git describe --contains HEAD",
    "git name-rev --stdin < link-secret",
    "git show-ref --verify --exclude-existing < link-secret",
    "git log --grep-reflog=x",
    "git log --notes",
    "git log --format='%(trailers:key=x)'",
    "git log --format=%N",
    "git count-objects -v",
    "git stash show -p",
    "git worktree list --porcelain",
    "git reflog show --all",
    "git for-each-ref --format='%(upstream:track)'",
    "git tag -l --format='%(contents:signature)'",
    "git branch -l --format='%(objectname:short)'",
    "git -P log -1",
    "git --no-pager --no-optional-locks status",
    "git log --output-indicator-new=x -p -1",
    "git diff --color-moved=zebra HEAD~1",
    "git diff --word-diff-regex=. HEAD~1",
    "git diff -G x HEAD~1",
    "git log -S x --pickaxe-regex",
    "git diff --relative=.. HEAD~1",
    "git diff --src-prefix=../ HEAD~1",
    "git log --author='$(touch x)'",
    "git diff --textconv HEAD~1",
    "git log -p --textconv -1",
    "git show --textconv HEAD:victim",
    "git diff --no-index --textconv victim sub/x",
    "git grep --textconv x",
    "git cat-file --filters HEAD:victim",
    "git cat-file --filters --path=victim HEAD",
    "git ls-files --eol",
    "git log --format='%C(auto)%h'",
    "git rev-parse --local-env-vars",
    "git rev-parse --sq-quote '$(id)'",
    "git rev-parse --resolve-git-dir ../outside",
    "git rev-parse --prefix .. victim",
    "git rev-parse --show-superproject-working-tree",
    "git rev-parse --absolute-git-dir",
    "git ls-tree -r HEAD --format='%(path)'",
    "git diff-files",
    "git archive HEAD",
    "git bundle list-heads ../outside/x",
    "git fsck",
    "git verify-commit HEAD",
    "git verify-tag v0",
    "git log --show-notes=x",
    "git log --decorate-refs=x",
    "git config --list",
    "git config --get core.fsmonitor",
    "git help log",
    "git version --build-options",
    "git log --remerge-diff -1",
    "git diff --submodule=diff HEAD~1",
    "git status --ignore-submodules=none",
    "git grep --recurse-submodules x",
    "git ls-files --recurse-submodules",
    "git diff --ita-invisible-in-index",
    "git status --find-renames=50",
    "git diff --no-index --ext-diff victim sub/x",
    "git diff --no-ext-diff HEAD~1",
    "git diff --ext HEAD~1",
    "git diff --no-textconv HEAD~1",
    "git log --format=%GG",
    "git log --format=%G?",
    "git log --format=%g?",
    "git log --pretty=%GS",
    "git log --pretty=tformat:%GK",
    "git log --pretty=raw",
    "git log --format=%(signature)",
    "git for-each-ref --format='%(signature:grade)'",
    "git log --show-signature",
    "git log --show-sig",
    "git log --show-s",
    "git log --no-show-signature",
    "git show --pretty=fuller HEAD",
    "git stash list --show-signature",
    "git -c log.showSignature=true log",
    "git log -c",
    "git log --cc",
    "git log --format='%G''?'",
    'git log "--format=%""G?"',
    "git log --format=%\\G?",
    "git log --format=%%G?",
]

#: git lines run in each hostile repository below: none may run what it names.
GIT = [
    "git status",
    "git status --short",
    "git status --ignore-submodules=none",
    "git status --porcelain=v2",
    "git diff",
    "git diff HEAD~1 HEAD",
    "git diff --stat HEAD~1",
    "git diff --submodule=diff HEAD~1",
    "git diff --cached",
    "git log -1",
    "git log -p -1",
    "git log --stat",
    "git show",
    "git show HEAD~1",
    "git show --textconv HEAD:victim",
    "git grep v",
    "git grep --recurse-submodules v",
    "git grep --textconv v",
    "git ls-files",
    "git ls-files --recurse-submodules",
    "git blame victim",
    "git cat-file --textconv HEAD:victim",
    "git cat-file --filters HEAD:victim",
    "git describe --tags",
    "git for-each-ref",
    "git stash show -p",
    "git rev-parse HEAD",
    "git branch -a",
    "git worktree list",
    "git check-attr -a victim",
]


class ThirdWorld(World):
    """The fresh attacks' scratch project, with more ways for git to find a repository
    the check did not read."""

    def _hostile_config(self) -> str:
        return HOSTILE_CONFIG.format(ran=self.project / "evil.sh", hooks="/nonexistent")

    def _plant_passed_over(self) -> None:
        """The project is a bare-looking repository with a hostile ``./config``, and a
        ``.git`` folder git does not take for one (no ``HEAD``): git passes it over."""
        self._plant_bare()
        (self.project / ".git").mkdir()

    def _plant_headless(self) -> None:
        """As above, but the ``.git`` git passes over has all but a readable ``HEAD``."""
        self._plant_bare()
        for name in ("objects", "refs"):
            (self.project / ".git" / name).mkdir(parents=True)
        (self.project / ".git" / "HEAD").write_text("garbage\n")

    def _plant_gitlink(self) -> None:
        """A submodule whose git directory (``sub/.git``) is in the working tree: git
        status runs in it, under its configuration."""
        sub = self.project / "nested"
        sub.mkdir()
        env = {**self.env, "GIT_DIR": str(sub / ".git"), "GIT_WORK_TREE": str(sub)}
        who = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
        (sub / "f").write_text("f\n")
        for args in (["init", "-q"], ["add", "f"], [*who, "commit", "-qm", "n"]):
            subprocess.run(["git", *args], cwd=sub, env=env, check=True)
        with (sub / ".git" / "config").open("a") as file:
            file.write(self._hostile_config())
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=sub, env=env, capture_output=True, text=True
        ).stdout.strip()
        self.git("update-index", "--add", "--cacheinfo", f"160000,{head},nested")
        (sub / "f").write_text("dirty\n")

    def _plant_worktree_config(self) -> None:
        """``extensions.worktreeConfig`` and a hostile ``config.worktree``."""
        self.git("config", "extensions.worktreeConfig", "true")
        (self.project / ".git" / "config.worktree").write_text(self._hostile_config())

    def _plant_common(self) -> None:
        """``.git`` a file naming a git directory inside the project, whose
        ``commondir`` names another one there with a hostile configuration."""
        dot = self.project / ".git"
        meta = self.project / "meta"
        meta.mkdir()
        dot.rename(meta / "common")
        (meta / "common" / "worktrees" / "w").mkdir(parents=True)
        wt = meta / "common" / "worktrees" / "w"
        (wt / "commondir").write_text("../..\n")
        (wt / "HEAD").write_text((meta / "common" / "HEAD").read_text())
        (wt / "gitdir").write_text(f"{dot}\n")
        (wt / "index").write_bytes((meta / "common" / "index").read_bytes())
        dot.write_text("gitdir: meta/common/worktrees/w\n")
        with (meta / "common" / "config").open("a") as file:
            file.write(self._hostile_config())

    def _plant_linked_config(self) -> None:
        """``.git/config`` a symlink to a hostile file of the project."""
        evil = self.project / "evil.cfg"
        evil.write_text((self.project / ".git" / "config").read_text() + self._hostile_config())
        (self.project / ".git" / "config").unlink()
        (self.project / ".git" / "config").symlink_to(evil)

    def _plant_hooks_path(self) -> None:
        """``core.hooksPath`` (relative) naming a project folder with a read's hook."""
        hooks = self.project / "githooks"
        hooks.mkdir()
        for hook in ("post-index-change", "reference-transaction"):
            (hooks / hook).write_text(f"#!/bin/sh\ntouch {self.root}/RAN\n")
            (hooks / hook).chmod(0o755)
        self.git("config", "core.hooksPath", "githooks")


KINDS = [
    "passed_over",
    "headless",
    "gitlink",
    "worktree_config",
    "common",
    "linked_config",
    "hooks_path",
]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return ThirdWorld(tmp_path_factory.mktemp("third"), ConnectionCounter())


@pytest.fixture(scope="module", params=KINDS)
def hostile(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> World:
    kind = str(request.param)
    return ThirdWorld(tmp_path_factory.mktemp(f"third-{kind}"), ConnectionCounter(), hostile=kind)


def test_the_set_is_large() -> None:
    assert len(set(LINES) | set(MORE)) + len(GIT) >= 300


@pytest.mark.parametrize("line", list(dict.fromkeys(LINES)))
def test_an_allowed_line_changes_nothing(world: World, line: str) -> None:
    judge(world, line)


@pytest.mark.parametrize("line", GIT)
def test_a_repository_git_finds_otherwise_runs_nothing(hostile: World, line: str) -> None:
    judge(hostile, line)
    assert not (hostile.root / "RAN").exists(), line


def test_each_hostile_repository_is_untrusted(hostile: World) -> None:
    assert untrusted_repository(str(hostile.project))


def test_a_plain_repository_is_still_trusted(world: World) -> None:
    assert untrusted_repository(str(world.project)) is False
    assert allowed_unasked("git status", world.project)


@pytest.mark.parametrize("mode", ["sha1", "sha256"])
@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_an_index_of_any_format_without_submodules_is_trusted(
    tmp_path: Path, mode: str, version: str
) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    repo = tmp_path / "r"
    subprocess.run(["git", "init", "-q", f"--object-format={mode}", str(repo)], check=True, env=env)
    for index in range(20):
        (repo / f"d{index}").mkdir()
        (repo / f"d{index}" / f"file-{index * 7}").write_text(f"{index}\n")
    subprocess.run(["git", "add", "."], cwd=repo, check=True, env=env)
    subprocess.run(
        ["git", "update-index", "--index-version", version], cwd=repo, check=True, env=env
    )
    subprocess.run(
        ["git", "update-index", "--skip-worktree", "d1/file-7"], cwd=repo, check=True, env=env
    )
    assert untrusted_repository(str(repo)) is False


#: More reads: ``$PWD`` and ``~`` forms, links out through every program's own way of
#: following them, globs and quoting around a link, process and environment views.
MORE = [
    "cat $PWD/../outside/secret",
    'cat "$PWD/../outside/secret"',
    "cat ${PWD}/../outside/secret",
    "cat ~+/../outside/secret",
    "ls -d ~*",
    "echo ~*",
    "cat ~*/keep",
    "cat /proc/$$/cwd/../outside/secret",
    "cat /proc/self/cwd/../outside/secret",
    "ls /proc/*/cwd/",
    "cat /proc/1/environ",
    "cat /proc/self/environ",
    "cat /proc/self/cmdline",
    "grep -r SECRET escape/",
    "grep -r SECRET escape",
    "grep -rH . escape/.",
    "grep -r --include=secret . .",
    "grep -d recurse SECRET escape",
    "grep --directories=recurse SECRET escape",
    "grep -r SECRET link-secret",
    "cat escape/secret",
    "cat escape//secret",
    "cat ./escape/./secret",
    "cat link-secret",
    "cat link-secret/",
    "tail link-secret",
    "find escape/ -name secret",
    "find -L . -name secret",
    "find . -follow -name secret",
    "find -H escape -name secret",
    "rg SECRET escape/",
    "rg -L SECRET",
    "rg --follow SECRET",
    "rg SECRET -- escape",
    "rg --pre-glob '*' SECRET",
    "rg --search-zip SECRET",
    "rg -z SECRET",
    "tree -l",
    "tree escape/",
    "ls -L escape",
    "ls -lL link-secret",
    "ls -R escape/",
    "stat -L link-secret",
    "md5sum link-secret",
    "sha256sum escape/secret",
    "cmp link-secret victim",
    "diff link-secret victim",
    "diff -r escape sub",
    "diff --recursive escape sub",
    "diff -N escape/secret victim",
    "diff --from-file=escape/secret victim",
    "diff --to-file=link-secret victim",
    "sort link-secret",
    "sort -m link-secret victim",
    "sort --files0-from=list-out",
    "sort -T ../outside victim",
    "sort --temporary-directory=../outside victim",
    "uniq link-secret",
    "uniq victim ../outside/new",
    "jq . link-secret",
    "jq -R . escape/secret",
    "jq --rawfile x link-secret -n '$x'",
    "jq --slurpfile x link-secret -n '$x'",
    "jq -L escape 'include \"secret\"; .' data.json",
    "jq --arg x y -f link-secret data.json",
    "jq -n 'input_filename'",
    "jq -n '$ENV'",
    "jq -n env",
    "jq -n '$__loc__'",
    "jq -n 'input' link-secret",
    "head -c 1000 /dev/urandom",
    "cat /dev/zero",
    "od -N8 /dev/urandom",
    "file -L link-secret",
    "file -z link-secret",
    "file -m link-secret victim",
    "file --magic-file=link-secret victim",
    "strings link-secret",
    "hexdump -C link-secret",
    "nl link-secret",
    "wc -c link-secret",
    "cut -c1- link-secret",
    "paste link-secret",
    "tac escape/secret",
    "du -a escape/",
    "du --files0-from=list-out",
    "readlink -f escape",
    "realpath escape/secret",
    "cat < link-secret",
    "cat 0< link-secret",
    "cat <escape/secret",
    "cat <<< x",
    "cat <(cat link-secret)",
    "cat < <(cat link-secret)",
    "echo $(cat link-secret)",
    "echo `cat link-secret`",
    'echo "$(<link-secret)"',
    "cat -- -",
    "cat - < link-secret",
    "test -r ../outside/secret",
    "[ -e ../outside/secret ]",
    "test -f ~root/.bashrc",
    "which -a cat",
    "type -a cat",
    "command -v cat",
    "env",
    "printenv",
    "printenv HOME",
    "date -r ../outside/secret",
    "date -r link-secret",
    "date --reference=link-secret",
    "date -f link-secret",
    "date --file=link-secret",
    "git log --format=%H -1 -- escape",
    "expr substr abc 1 2",
    "printf '%s' ~root",
    "echo ~root",
    "echo ~nobody/x",
    "ls ~nobody",
    "ls ~root",
    "ls ~",
    "ls ~/",
    "ls ~-",
    "ls ~+",
    "cd ~",
    "cd ~/",
    "cd ..",
    "cd escape",
    "cd / && ls",
    "cd escape && cat secret",
    "cd sub; cat ../../outside/secret",
    "pwd -P",
    "ls -la /",
    "ls /home",
    "ls /root",
    "cat /etc/passwd",
    "cat /etc/shadow",
    "cat /etc/hostname",
    "head /etc/hosts",
    "git status --untracked-files=all",
    "git status -- escape/",
    "git ls-files --others --directory escape/",
    "git log -- ':(top)victim'",
    "git show ':/one'",
    "git rev-parse --git-dir",
    "git grep -e v --and --not -e x",
    "git grep --threads=64 v",
    "git for-each-ref --format='%(*contents)'",
    "git log --format='%(trailers)'",
    "git grep -P '(?C1)v'",
    "grep -P '(?C1)v' victim",
    "rg --ignore-file ../outside/secret v",
    "rg --ignore-file=link-secret v",
    "rg --type-add 'x:*.y' -tx v",
    "rg --hyperlink-format='file://{host}{path}' v",
    "rg --no-ignore -uuu SECRET",
    "rg -uuu --follow SECRET",
    "rg --files",
    "rg --files escape",
    "ps eww",
    "ps -o args",
    "sort --random-source=link-secret victim",
    "sort --random-source=../outside/secret victim",
    "find . -newer ../outside/secret",
    "find . -newer link-secret",
    "find . -samefile link-secret",
    "find . -printf '%l\\n'",
    "find escape -maxdepth 0",
    "stat -c %s link-secret",
    "stat -L -c %s link-secret",
    "ls -l link-secret",
    "ls --dereference-command-line escape",
    "ls -H escape",
    "ls escape/",
    "ls -d escape/",
    "du -sh escape/",
    "du -D escape",
    "du --dereference-args escape",
    "tree --fromfile . < link-secret",
    "tree -a escape",
    "cat ./-- ../outside/secret",
    "wc -l < escape/secret",
    "head -n1 < link-secret",
    'cat "link-secret"',
    "cat 'escape'/secret",
    "cat es'c'ape/secret",
    "cat es\\cape/secret",
    "cat e{s,x}cape/secret",
    "cat {escape,sub}/secret",
    "cat escape/{secret,x}",
    "cat esc[a]pe/secret",
    "cat escap?/secret",
    "cat */secret",
    "cat */*",
    "grep -r SECRET */",
    "grep SECRET */*",
    "ls */",
    "file */*",
    "git diff --no-index escape/secret victim",
    "git diff --no-index e*/secret victim",
    "md5sum */*",
]


@pytest.mark.parametrize("line", [line for line in dict.fromkeys(MORE) if line not in LINES])
def test_a_further_allowed_line_changes_nothing(world: World, line: str) -> None:
    judge(world, line)


#: jq reads a module (JSON data or jq code) from any folder its program names.
JQ = [
    """jq -n 'import "creds" as $c {search: "~/.docker"}; $c'""",
    """jq -n 'import "creds" as $c {search: "../outside"}; $c'""",
    """jq -n 'include "creds" {search: "../outside"}; .'""",
    """jq -n '"creds" | modulemeta'""",
    "jq -n -f jqmod.jq",
    "jq -nf jqmod.jq",
    "jq --from-file jqmod.jq -n",
    "jq -L ../outside -n 'import \"creds\" as $c; $c'",
    "jq --library-path=../outside -n 1",
]


@pytest.mark.parametrize("line", JQ)
def test_jq_reads_no_module_outside(world: World, line: str) -> None:
    creds = world.outside / "creds.json"
    docker = world.home / ".docker" / "creds.json"
    docker.parent.mkdir(exist_ok=True)
    for path in (creds, docker):
        path.write_text(json.dumps({"secret": SECRET}))
    (world.project / "jqmod.jq").write_text('import "creds" as $c {search: "../outside"}; $c\n')
    try:
        judge(world, line)
        assert not allowed_unasked(line, world.project), line
    finally:
        (world.project / "jqmod.jq").unlink()


def test_a_plain_jq_still_runs_unasked(world: World) -> None:
    assert allowed_unasked("jq -r .a data.json", world.project)
    judge(world, "jq -r .a data.json")


def test_a_passed_over_git_folder_below_a_hostile_repository_is_untrusted(
    tmp_path: Path,
) -> None:
    """Run from ``sub`` (a working directory inside the repository), git passes over an
    empty ``sub/.git`` to the hostile ``.git`` above: it runs ``core.fsmonitor``."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    repo = tmp_path / "p"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    ran = tmp_path / "RAN"
    hook = repo / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {ran}\n")
    hook.chmod(0o755)
    with (repo / ".git" / "config").open("a") as file:
        file.write(f"[core]\n\tfsmonitor = {hook}\n")
    (repo / "sub" / ".git").mkdir(parents=True)
    subprocess.run(["git", "status"], cwd=repo / "sub", env=env, capture_output=True)
    assert ran.exists()  # what git does there
    assert untrusted_repository(str(repo / "sub"))


def test_git_walks_up_from_the_folder_a_link_names(tmp_path: Path) -> None:
    """The working directory reached through a symlink: git walks up from the physical
    folder (into the hostile repository there), not from the link's parent."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    repo = tmp_path / "evil"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    ran = tmp_path / "RAN"
    hook = repo / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {ran}\n")
    hook.chmod(0o755)
    with (repo / ".git" / "config").open("a") as file:
        file.write(f"[core]\n\tfsmonitor = {hook}\n")
    (repo / "project").mkdir()
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "project").symlink_to(repo / "project")
    cwd = tmp_path / "plain" / "project"
    subprocess.run(["git", "status"], cwd=cwd, env=env, capture_output=True)
    assert ran.exists()  # what git does there
    assert untrusted_repository(str(cwd))
