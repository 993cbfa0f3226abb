"""A second attacker's lines against acceptEdits' filesystem commands, judged by effect.

Fresh inputs beside :mod:`tests.agent.test_accept_edits_attacks`: backup suffixes
that name a folder, globs bash reads otherwise than the check, links that dangle
out, ``-t`` and ``--`` confusions, special files and ``/proc`` paths. Every line
:func:`check_permission` allows in ``acceptEdits`` (no rule) is run by bash in a
fresh project beside an ``outside`` folder and a fake HOME: nothing outside the
project may change.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from hookline.agent.permissions import PermissionRules, check_permission
from tests.effects import digest

LINES = [
    # sed's backup suffix may name a folder ('*' is the file's name)
    "sed --in-place='../outside/*' s/v/x/ victim",
    "sed --in-place=../outside/* s/v/x/ victim",
    "sed --in-place='escape/*' s/v/x/ victim",
    "sed --in-place=escape/bak s/v/x/ victim",
    "sed --in-place='~/*' s/v/x/ victim",
    "sed --in-place=/tmp/../$HOME/x s/v/x/ victim",
    "sed -i.bak s/v/x/ victim",
    "sed -i'escape/*' s/v/x/ victim",
    "sed -i -s s/v/x/ victim link-out",
    "sed -i s/v/x/ link-out",
    "sed -i --follow-symlinks s/v/x/ link-out",
    "sed -i -n p link-out",
    "sed -i 1d -- link-out",
    "sed -i -e 1d link-out",
    "sed -i -z s/k/x/ hard-out",
    "sed -i s/k/x/ l[^x]nk-out",
    "sed -i s/k/x/ link-o*",
    "sed -i s/k/x/ link-ou?",
    "sed -i s/k/x/ [l]ink-out",
    # globs bash matches otherwise, or matches a link out
    "touch dang*",
    "touch dangl?ng",
    "touch [d]angling",
    "touch [^x]angling",
    "touch d[[:alpha:]]ngling",
    "touch dangling",
    "touch link-o*",
    "touch -c link-o*",
    "touch -a link-out",
    "touch -m -d 2000-01-01 link-out",
    "touch hard-out",
    "touch -d 2000-01-01 hard-out",
    "cp victim esc*",
    "cp victim esc?pe",
    "cp victim [e]scape",
    "cp victim [^x]scape",
    "cp victim e[[:alpha:]]cape",
    "cp victim link-o*",
    "cp victim [l]ink-out",
    "cp victim hard-out",
    "cp -f victim hard-out",
    "cp -a victim hard-out",
    "cp victim dangling",
    "cp -T victim dangling",
    "cp -r sub esc*",
    "cp -t esc* victim",
    "cp -t [^x]scape victim",
    "cp --target-directory=esc* victim",
    "cp -rT sub escape",
    "mv victim esc*",
    "mv victim [^x]scape",
    "mv victim e[[:alpha:]]cape",
    "mv -t esc* victim",
    "mv -t [e]scape victim",
    "mv victim link-o*",
    "mv -T victim escape",
    "mv victim dangling",
    "mv -f victim hard-out",
    "mkdir dangling",
    "mkdir -p dangling",
    "mkdir -p esc*",
    "mkdir -m 777 esc*",
    "mkdir [^x]scape",
    "rmdir esc*",
    "rm -rf esc*",
    "rm -rf [^x]scape",
    "rm link-o*",
    "rm -rf [e]scape/",
    "rm -f hard-out",
    # --, -t and option confusions
    "touch -- -t 0101 link-out",
    "touch -t 200001010000 link-out",
    "touch -d@0 link-out",
    "touch -r link-out new",
    "touch --reference=link-out new",
    "touch --date=@0 link-out",
    "cp -- -t escape victim",
    "cp victim -t escape",
    "cp victim --target-directory escape",
    "cp --target-dir=escape victim",
    "cp -vt escape victim",
    "cp -rt escape sub",
    "mv victim -t escape",
    "mv -vt escape victim",
    "mv --target=escape victim",
    "mv -S ~ victim x",
    "mv -b -S ../outside/x victim sub",
    "mv --backup --suffix=/../../outside/b victim sub/x",
    "cp --backup=numbered victim escape",
    "cp -b victim link-out",
    "cp --parents sub/x escape",
    "cp -s victim link2",
    "cp -l victim hard2",
    "cp -L link-out copy",
    "cp -H link-out copy",
    "cp --remove-destination victim link-out",
    "cp --attributes-only victim link-out",
    "cp -u victim link-out",
    "cp --sparse=always victim link-out",
    "cp --reflink victim link-out",
    "cp -n victim link-out",
    "cp --no-clobber victim link-out",
    "mkdir --mode=777 -p ../outside/m",
    "mkdir -Z x",
    "mkdir --context=x y",
    "rm -rf --one-file-system escape/",
    "rm -r --preserve-root=all escape/",
    "rm -I escape/keep",
    "rm --interactive=never link-out/",
    "rmdir --ignore-fail-on-non-empty escape",
    "rmdir -p sub/deep/../../../outside/empty",
    # special files and /proc
    "cp /proc/self/cwd/victim x",
    "cp victim /proc/self/cwd/../outside/new",
    "touch /proc/self/cwd/new",
    "touch /proc/self/root/tmp/hookline-fresh-attack",
    "touch /dev/shm/hookline-fresh-attack",
    "cp /dev/null victim",
    "cp /dev/stdin x",
    "cp /etc/hostname x",
    "mkdir /proc/self/cwd/x",
    "sed -i s/v/x/ /proc/self/cwd/victim",
    "rm -f /proc/self/cwd/victim",
    "cp victim /dev/stdout",
    "cp victim /dev/fd/1",
    "touch ~+/new",
    "touch ~/new",
    "touch ~root/new",
    "cp victim ~",
    "mkdir ~/x",
    "mkdir -p ./~/x",
    "touch '~'/x",
    "touch \\~/x",
    "touch $'~'/x",
    # a link made, then used, in one line
    "cp -a link-out l2 && sed -i s/k/x/ l2",
    "cp -P link-out l2; touch l2",
    "cp -d link-out l2 && cp victim l2",
    "mv link-out l2 && cp victim l2",
    "cp -r sub s2 && touch s2/../../outside/x",
    "mkdir d && cp -a escape d/ && touch d/escape/new",
    "cp -a escape e2 && touch e2/new",
    "mv escape e3 && touch e3/new",
    "cp -R escape e4; cp victim e4/",
    "touch a && mv a esc*",
    "mkdir x && mv x escape",
    "rm -rf x && cp -a escape x && rm -rf x/keep",
    "touch new; sed -i s/k/x/ link-out",
    # redirections and wrappers around a filesystem command
    "touch new < link-out",
    "mkdir x 2>../outside/err",
    "cp victim x 2> escape/err",
    "touch x >/dev/null",
    "nice touch link-out",
    "timeout 5 cp victim link-out",
    "command cp victim link-out",
    "stdbuf -o0 cp victim escape",
    "time cp victim escape",
    "LC_ALL=C cp victim escape",
    "TZ=UTC touch link-out",
    "LC_ALL=C touch -d 'last year' link-out",
    "touch $'link-out'",
    "touch 'link'-out",
    "touch link\\-out",
    'touch "link-out"',
    "touch link-out''",
    "rm -rf 'escape'/",
    "rm -rf escape\\/",
    "rm -rf ./escape/.",
    "rm -rf escape/./",
    "rm -rf escape/.//",
    "rm -rf escape//keep",
    "rm -rf sub/../escape/keep",
    "rm -rf sub/./../escape",
    "rmdir escape/empty",
]

#: Lines that stay inside the project: they must still be accepted.
PLAIN = [
    "touch new",
    "touch *.txt",
    "rm -f *.txt",
    "cp victim sub/",
    "mv victim sub/renamed",
    "mkdir -p sub/a/b",
    "sed -i 1d victim",
    "rm -rf sub/deep",
]


def project_in(tmp_path: Path) -> tuple[Path, list[Path]]:
    """A project beside ``outside`` and HOME, with links out of it."""
    project = tmp_path / "project"
    (project / "sub" / "deep").mkdir(parents=True)
    (project / "victim").write_text("v\n")
    (project / "a.txt").write_text("a\n")
    outside = tmp_path / "outside"
    (outside / "empty").mkdir(parents=True)
    (outside / "keep").write_text("k\n")
    (outside / "hard").write_text("k\n")
    (project / "escape").symlink_to(outside)
    (project / "link-out").symlink_to(outside / "keep")
    (project / "dangling").symlink_to(outside / "new")
    os.link(outside / "hard", project / "hard-out")
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / "keep").write_text("k\n")
    return project, [outside, home]


def accepted(line: str, project: Path) -> bool:
    rules = PermissionRules.from_lists((), (), ())
    check = check_permission("acceptEdits", rules, "bash", {"command": line}, str(project))
    return check.decision == "allow" and check.rule is None


def judge(tmp_path: Path, line: str) -> None:
    project, watched = project_in(tmp_path)
    run_judged(line, project, watched, tmp_path / "home")


def run_judged(line: str, project: Path, watched: list[Path], home: Path) -> None:
    """Run ``line`` when acceptEdits accepts it: nothing in ``watched`` may change."""
    if not accepted(line, project):
        return
    before = {k: v for root in watched for k, v in digest(root).items()}
    subprocess.run(
        ["bash", "-c", line],
        cwd=project,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=10,
        check=False,
    )
    after = {k: v for root in watched for k, v in digest(root).items()}
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert not changed, f"{line!r} is accepted but changed {changed}"


def test_the_set_is_large() -> None:
    assert len(set(LINES)) >= 150


@pytest.mark.parametrize("line", list(dict.fromkeys(LINES)))
def test_an_accepted_line_stays_inside(tmp_path: Path, line: str) -> None:
    judge(tmp_path, line)


@pytest.mark.xfail(
    strict=True,
    reason="cp writes into the file of the same name in a target folder: a hard link "
    "there to a file outside is not one of the paths the line names; only the kernel "
    "sandbox holds it",
)
def test_a_hard_link_in_a_target_folder_stays_outside(tmp_path: Path) -> None:
    project, watched = project_in(tmp_path)
    os.link(tmp_path / "outside" / "hard", project / "sub" / "victim")
    run_judged("cp victim sub/", project, watched, tmp_path / "home")


@pytest.mark.parametrize("line", PLAIN)
def test_a_plain_line_is_still_accepted(tmp_path: Path, line: str) -> None:
    project, watched = project_in(tmp_path)
    assert accepted(line, project), line
    run_judged(line, project, watched, tmp_path / "home")


#: A filesystem command that plants what git then runs, in the same line.
GIT_CHAINS = [
    "cp evil.cfg .git/config && git status",
    "cp evil.cfg .git/config; git diff",
    "mv evil.cfg .git/config && git log -1",
    "cp -f evil.cfg .git/config || git status",
    "sed -i 's/^.core.$/[core] fsmonitor = sh evil-hook/' .git/config && git status",
    "sed -i -e 's/^.core.$/[core] fsmonitor = sh evil-hook/' .git/config; git status",
    "cp evil-hook .git/hooks/post-index-change && git status",
    "cp -a evil-hook .git/hooks/post-index-change; git status",
    "mkdir -p .git/hooks && cp evil-hook .git/hooks/post-index-change && git status",
    "cat evil.cfg >> .git/config; git status",
    "git status; cp evil.cfg .git/config; git status",
    "touch tracked && cp evil-hook .git/hooks/post-index-change && git status --short",
]


def git_project(tmp_path: Path) -> tuple[Path, list[Path]]:
    """A git project whose files would make git run ``evil-hook`` (it touches a file
    outside), were they in ``.git``."""
    project, watched = project_in(tmp_path)
    outside = tmp_path / "outside"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home")}
    (project / "tracked").write_text("t\n")
    who = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "tracked"], [*who, "commit", "-qm", "one"]):
        subprocess.run(["git", *args], cwd=project, env=env, check=True)
    hook = project / "evil-hook"
    hook.write_text(f"#!/bin/sh\ntouch {outside}/RAN\n")
    hook.chmod(0o755)
    (project / "evil.cfg").write_text(f"[core]\n\tfsmonitor = {hook}\n")
    os.utime(project / "tracked", ns=(0, 0))  # stale stat data: status rewrites the index
    return project, watched


@pytest.mark.parametrize("line", GIT_CHAINS)
def test_a_line_does_not_plant_what_git_runs(tmp_path: Path, line: str) -> None:
    project, watched = git_project(tmp_path)
    run_judged(line, project, watched, tmp_path / "home")


#: Writes into what configures git, the agent or an editor: acceptEdits asks, as Claude
#: Code's protected paths (``.git/hooks`` runs on the next commit, ``.claude`` holds
#: the allow rules).
PROTECTED = [
    "cp evil.cfg .git/config",
    "cp evil-hook .git/hooks/pre-commit",
    "mv evil-hook .git/hooks/post-checkout",
    "sed -i s/a/b/ .git/config",
    "touch .git/hooks/post-merge",
    "rm -rf .git",
    "rm -f .git/index",
    "mkdir -p .claude && cp evil.cfg .claude/settings.local.json",
    "cp evil.cfg .claude/settings.json",
    "mv evil.cfg .hookline/settings.json",
    "cp evil.cfg .vscode/tasks.json",
    "cp evil.cfg .idea/workspace.xml",
    "cp evil.cfg sub/../.git/config",
    "cp -t .git/hooks evil-hook",
    "cp --target-directory=.claude evil.cfg",
    "cp evil.cfg ./.git//config",
    "cp evil.cfg .gi?/config",
    "cp evil.cfg .g*/hooks/",
    "echo x > .git/config",
    "echo x >> .claude/settings.local.json",
    "cp evil.cfg .GIT/config",
    "cp evil.cfg .Claude/settings.json",
]


@pytest.mark.parametrize("line", PROTECTED)
def test_acceptedits_does_not_write_what_configures_git_or_the_agent(
    tmp_path: Path, line: str
) -> None:
    project, _ = git_project(tmp_path)
    assert not accepted(line, project), line


@pytest.mark.parametrize(
    ("tool", "path"), [("write", ".claude/settings.local.json"), ("edit", ".git/config")]
)
def test_acceptedits_edits_ask_there_too(tmp_path: Path, tool: str, path: str) -> None:
    rules = PermissionRules.from_lists((), (), ())
    check = check_permission("acceptEdits", rules, tool, {"path": path}, str(tmp_path))
    assert check.decision == "ask"
