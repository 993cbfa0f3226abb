"""An attacker's lines against acceptEdits' filesystem commands, judged by effect.

acceptEdits runs ``mkdir``, ``touch``, ``rm``, ``rmdir``, ``mv``, ``cp`` and
``sed -i`` unasked inside the working directories. Each line here tries to reach
outside them (``..``, symlinks, globs, ``~``, ``cd``, ``-t``, variables, a link
made earlier in the line). Every line :func:`check_permission` allows is run by
bash in a fresh project beside an ``outside`` folder and a fake HOME: nothing
outside the project may change, and no loopback server may be reached.
"""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest

from hookline.agent.permissions import PermissionRules, check_permission
from tests.effects import digest

#: Lines that stay inside the project: they must be accepted.
PLAIN = [
    "mkdir -p sub/new && touch sub/new/x",
    "rm -rf sub",
    "mv victim renamed",
    "cp victim copy",
    "sed -i s/v/x/ victim",
    "touch a b c",
]

LINES = [
    "rm -rf ../outside",
    "rm -rf ../outside/keep",
    "rm -rf escape/",
    "rm -rf escape/keep",
    "rm -f escape",
    "touch escape/new",
    "mkdir escape/new",
    "cp victim escape/",
    "cp victim escape/keep",
    "cp -t escape victim",
    "cp --target-directory=escape victim",
    "mv victim escape/",
    "mv -t escape victim",
    "mv escape/keep .",
    "sed -i s/k/x/ escape/keep",
    "sed -i s/k/x/ ../outside/keep",
    "rm -rf esc*/",
    "rm -rf esc*/keep",
    "touch esc*/new",
    "rm -rf */keep",
    "rm -rf ./*/../../outside",
    "rm -rf sub/../../outside",
    "rm -rf ~/keep",
    "touch ~/new",
    "rm -rf ~-/keep",
    "rm -rf ~+/../outside",
    "rm -rf $HOME/keep",
    "rm -rf ${OUT:-../outside}",
    "cd .. && rm -rf outside",
    "cd escape && rm keep",
    "cd escape; touch new",
    "pushd escape && rm keep",
    "cp -a escape e2 && rm -rf e2/",
    "cp -r escape e2; rm -rf e2/keep",
    "mv escape e2; rm -rf e2/keep",
    "ln -s ../outside o && rm -rf o/",
    "mkdir d && ln -s ../outside d/o && rm -rf d/o/",
    "touch victim > ../outside/keep",
    "rm -rf . ",
    "rm -rf ./",
    "rm -rf *",
    "rm -rf .*",
    "rmdir -p sub/deep",
    "mkdir -p ../outside/new",
    "mkdir -m 777 ../outside/new",
    "touch -r ../outside/keep new",
    "cp ../outside/keep here",
    "PATH=./bin:$PATH rm victim",
    "X=1; rm victim",
    "IFS=/; rm -rf x",
    "timeout 5 rm -rf ../outside",
    "nice rm -rf escape/",
    "sudo rm -rf ../outside",
    "env rm -rf ../outside",
    "command rm -rf ../outside",
    "xargs rm -rf <<< ../outside",
    "find .. -delete",
    "rm -rf $(echo ../outside)",
    "rm -rf `echo ../outside`",
    "rm -rf {..,.}/outside",
    "sed -i 'w ../outside/keep' victim",
    "sed -i 's/v/x/w ../outside/keep' victim",
    "sed -i -e 's/v/x/' -e 'w ../outside/keep' victim",
    "sed -i 'e touch ../outside/new' victim",
    "sed -i s/v/x/ victim ../outside/keep",
    "cp /etc/hostname ../outside/keep",
    "mv victim ../outside/keep",
    "cp -s ../outside/keep link && sed -i s/k/x/ link",
    "rm -rf -- ../outside",
    "rm -rf --no-preserve-root /nonexistent-root-test",
    "touch ../outside/new",
    "touch -- ../outside/new",
    *PLAIN,
]


@pytest.mark.parametrize("line", LINES)
def test_an_accepted_line_stays_inside(tmp_path: Path, line: str) -> None:
    project = tmp_path / "project"
    (project / "sub" / "deep").mkdir(parents=True)
    (project / "victim").write_text("v\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("k\n")
    (project / "escape").symlink_to(outside)
    home = tmp_path / "home"  # the autouse isolated HOME
    home.mkdir(exist_ok=True)
    (home / "keep").write_text("k\n")
    rules = PermissionRules.from_lists((), (), ())
    check = check_permission("acceptEdits", rules, "bash", {"command": line}, str(project))
    if check.decision != "allow":
        return
    before = {**digest(outside), **digest(home)}
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.setblocking(False)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    subprocess.run(
        ["bash", "-c", line],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=10,
        check=False,
    )
    after = {**digest(outside), **digest(home)}
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert not changed, f"{line!r} is accepted but changed {changed}"
    with pytest.raises(BlockingIOError):
        server.accept()
    server.close()


def test_plain_filesystem_lines_are_accepted(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "victim").write_text("v\n")
    rules = PermissionRules.from_lists((), (), ())
    for line in PLAIN:
        check = check_permission("acceptEdits", rules, "bash", {"command": line}, str(tmp_path))
        assert check.decision == "allow", (line, check)
