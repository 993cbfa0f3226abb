"""A third attacker's lines against acceptEdits' protected folders, judged by effect.

Fresh forms of ``.git``, ``.claude`` and ``.hookline`` beside the first two rounds:
trailing slashes and dots, globs that match the folder itself (``.*``, ``.g*``),
quoting, the project or a staging folder copied over it (``cp -rT staged .``), a
symlink in the project to ``.git`` or its hooks, HOME's git configuration. Each must
ask; those acceptEdits does accept are run by bash in a git project whose files would
make git run a hook, then ``git status``: nothing outside may change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent.test_accept_edits_fresh_attacks import accepted, git_project, run_judged

#: Each reaches ``.git``, ``.claude``, ``.hookline`` or HOME: acceptEdits asks.
PROTECTED = [
    "rm -rf .git/",
    "rm -rf ./.git",
    "rm -rf .//.git",
    "rm -rf .git/.",
    "rm -rf .git/./hooks",
    "mv .git x",
    "mv .git/ x",
    "mv ./.git old",
    "mv .git .git2",
    "rm -rf .*",
    "rm -rf .[a-z]*",
    "rm -rf .??*",
    "rm -rf .g*",
    "rm -rf ./.g*",
    "rm -rf .[g]it",
    "rm -rf .gi[t]",
    "rm -rf .git*",
    "mv .g* x",
    "cp -r staged/. .",
    "cp -rT staged .",
    "cp -r staged/.git .",
    "cp -a staged/.git ./",
    "cp -r staged/* staged/.* .",
    "mv staged/.git .",
    "mv -t . staged/.git",
    "mv staged/.git ./",
    "cp -rT staged/.git .git",
    "touch lnk/hooks/post-index-change",
    "cp evil-hook lnk/hooks/post-index-change",
    "cp -p evil-hook hk/post-index-change",
    "cp evil-hook hk/",
    "cp evil.cfg lnk/config",
    "sed -i s/a/b/ lnk/config",
    "mv evil-hook hk/post-index-change",
    "cp evil.cfg cl/settings.json",
    "mkdir cl",
    "cp evil.cfg ~/.gitconfig",
    "cp evil.cfg $HOME/.gitconfig",
    "mkdir -p ~/.config/git",
    "cp evil.cfg .git",
    "cp evil.cfg .git/",
    "mv evil.cfg .git",
    "rm -rf *",
    "rm -rf .",
    "rm -rf ./",
    "rm -rf ../project",
    'rm -rf "$PWD"',
    "rm -rf $PWD/.git",
    "rm -rf */..",
    "cp -r . sub/",
    "cp -rT . sub",
    'rm -rf "".git',
    'rm -rf .gi""t',
    "rm -rf '.git'",
    "rm -rf \\.git",
    "rm -rf .gi\\t",
    "rm -rf .git/hooks/../config",
    "touch .git/hooks/post-index-change",
    "mkdir .git/hooks/x",
    "rmdir .git/refs/tags",
    "cp evil.cfg .git/info/attributes",
    "mkdir -p sub/.git",
    "cp evil.cfg sub/.git/config",
    "mkdir -p .hookline",
    "cp evil.cfg .hookline/",
    "cp evil.cfg .HookLine/settings.json",
    "mv .claude x",
    "rm -rf .Claude",
]

#: Names that only look like a protected one (a trailing dot or space is kept on
#: Linux), and files git reads but which name no program by themselves: accepted,
#: they must still change nothing outside, also through a later ``git status``.
LOOKALIKES = [
    "mv evil.cfg .gitattributes",
    "cp evil.cfg .gitmodules",
    "cp evil.cfg sub/.gitattributes",
    "cp evil.cfg .claude./settings.json",
    "cp evil.cfg .git./config",
    'cp evil.cfg ".git /config"',
]


def staged_project(tmp_path: Path) -> tuple[Path, list[Path]]:
    """:func:`git_project` with a staging folder holding a hostile ``.git`` and links
    to the project's ``.git``, its hooks and ``.claude``."""
    project, watched = git_project(tmp_path)
    staged = project / "staged" / ".git" / "hooks"
    staged.mkdir(parents=True)
    (staged / "post-index-change").write_bytes((project / "evil-hook").read_bytes())
    (staged / "post-index-change").chmod(0o755)
    (project / "staged" / ".git" / "config").write_bytes((project / "evil.cfg").read_bytes())
    (project / "lnk").symlink_to(".git")
    (project / "hk").symlink_to(".git/hooks")
    (project / "cl").symlink_to(".claude")
    return project, watched


def test_the_set_is_large() -> None:
    assert len(PROTECTED) + len(LOOKALIKES) >= 60


@pytest.mark.parametrize("line", PROTECTED)
def test_a_protected_folder_asks_in_every_form(tmp_path: Path, line: str) -> None:
    project, _ = staged_project(tmp_path)
    assert not accepted(line, project), line


@pytest.mark.parametrize("line", LOOKALIKES)
def test_a_lookalike_changes_nothing_outside(tmp_path: Path, line: str) -> None:
    project, watched = staged_project(tmp_path)
    if accepted(line, project):
        run_judged(line, project, watched, tmp_path / "home")
        run_judged("git status", project, watched, tmp_path / "home")
        assert not (tmp_path / "outside" / "RAN").exists(), line


#: With HOME inside the working directory, the user's git configuration (which git
#: trusts in every repository) is a project file: acceptEdits asks for it.
HOME_GIT_CONFIG = [
    "cp evil.cfg .gitconfig",
    "mv evil.cfg .gitconfig",
    "cp -f evil.cfg ./.gitconfig",
    "cp evil.cfg ~/.gitconfig",
    "cp evil.cfg $HOME/.gitconfig",
    "sed -i s/x/y/ .gitconfig",
    "touch .gitconfig",
    "mkdir -p .config/git",
    "cp evil.cfg .config/git/config",
    "cp -r xdg .config",
    "cp -rT xdg .config",
    "mv xdg .config",
    "rm -rf .config",
    "cp evil.cfg .config/git/",
]


@pytest.mark.parametrize("line", HOME_GIT_CONFIG)
def test_the_user_git_configuration_asks_when_home_is_the_project(
    tmp_path: Path, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, watched = git_project(tmp_path)
    (project / ".gitconfig").write_text("")
    (project / "xdg" / "git").mkdir(parents=True)
    (project / "xdg" / "git" / "config").write_bytes((project / "evil.cfg").read_bytes())
    monkeypatch.setenv("HOME", str(project))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert not accepted(line, project), line
    run_judged(line, project, watched, project)  # were it accepted: then git status
    run_judged("git status", project, watched, project)
