"""An attacker's lines against the read-only list, judged by effect.

Each line tries to write, delete, run code or reach the network while looking
read-only. Every line :func:`read_only_line` lets through is run for real by bash
in a scratch project (a git repository, a fake HOME, a loopback TCP server) and
must leave every file as it was and reach no server. A line it does not let
through is fine: it would be asked about. A few plain reads must get through, so
the set is not passed by a classifier that allows nothing.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookline.shell import parse_command
from hookline.shell.readonly import read_only_line
from tests.effects import ConnectionCounter, file_state

#: Commands that change something when they run (``{port}``: the loopback server).
WRITERS = [
    "touch pwned",
    "rm -f victim",
    "mkdir newdir",
    "cp victim copy",
    "mv victim moved",
    "ln -s victim link",
    "chmod 600 victim",
    "truncate -s0 victim",
    "dd if=/dev/null of=pwned status=none",
    "tee pwned </dev/null",
    "sed -i s/v/w/ victim",
    'python3 -c \'open("pwned","w")\'',
    "curl -s http://127.0.0.1:{port}/",
    "wget -q -O- http://127.0.0.1:{port}/",
    "git tag newtag",
    "git branch newbranch",
    "git config user.name pwned",
    "git stash",
    "git commit -q --allow-empty -m pwned",
    "git update-ref refs/heads/x HEAD",
]

#: Ways to hide one command among reads (``W``: the writer).
SHAPES = [
    "W",
    "ls; W",
    "ls && W",
    "ls || W",
    "ls | W",
    "W | ls",
    "ls & W",
    "ls\nW",
    "ls \\\n; W",
    "echo $(W)",
    "echo `W`",
    'echo "$(W)"',
    "cat <(W)",
    "ls > >(W)",
    "time W",
    "nice W",
    "nice -n 5 W",
    "timeout 5 W",
    "stdbuf -o0 W",
    "env W",
    "env X=1 W",
    "command W",
    "builtin W",
    "exec W",
    "eval 'W'",
    "bash -c 'W'",
    "sh -c 'W'",
    "sh <<< 'W'",
    "bash <<'EOF'\nW\nEOF",
    ". /dev/stdin <<< 'W'",
    "source /dev/stdin <<< 'W'",
    "nohup W",
    "xargs W </dev/null",
    "echo . | xargs W",
    "find . -maxdepth 0 -exec W \\;",
    "find . -maxdepth 0 -execdir W \\;",
    "f() { W; }; f",
    "ls() { W; }; ls",
    "if true; then W; fi",
    "for i in 1; do W; done",
    "while false; do :; done; W",
    "{ ls; W; }",
    "(ls; W)",
    "trap 'W' EXIT; ls",
    "sudo -n W",
    "watch -n 1 -g W",
]

#: Single lines: options that write or run code, redirections, variables, tricks.
SPECIALS = [
    # git options that write or run a program
    "git -c core.pager='touch pwned' log",
    "git -c alias.st='!touch pwned' st",
    "git -c core.fsmonitor='touch pwned' status",
    "git --config-env=core.pager=X log",
    "git --exec-path=. status",
    "git -C .. status",
    "git --git-dir=.git --work-tree=/ status",
    "git log --output=pwned",
    "git log --out=pwned",
    "git diff --output=pwned",
    "git show --output pwned",
    "git diff --ext-diff",
    "GIT_EXTERNAL_DIFF='touch pwned' git diff HEAD~1",
    "GIT_PAGER='touch pwned' git log",
    "PAGER='touch pwned' git log",
    "GIT_DIR=.git git status",
    "GIT_CONFIG_PARAMETERS=\"'core.pager'='touch pwned'\" git log",
    "git grep -O'touch pwned' v",
    "git grep --open-files-in-pager='touch pwned' v",
    "git branch -D main",
    "git branch -m main other",
    "git branch --delete main",
    "git branch -c main copy",
    "git branch newname",
    "git branch -f main HEAD",
    "git branch --set-upstream-to=main",
    "git tag v1",
    "git tag -d v0",
    "git tag -a v2 -m x",
    "git stash",
    "git stash push",
    "git stash drop",
    "git stash clear",
    "git reflog expire --all --expire=now",
    "git reflog delete HEAD@{0}",
    "git remote add evil http://127.0.0.1:{port}/",
    "git remote show origin",
    "git remote prune origin",
    "git worktree add ../wt",
    "git config user.name pwned",
    "git config --global user.name pwned",
    "git checkout -b x",
    "git fetch http://127.0.0.1:{port}/",
    "git ls-remote http://127.0.0.1:{port}/",
    "git clone http://127.0.0.1:{port}/ x",
    "git gc",
    "git help log",
    "git st",
    "cd .. && git status",
    "cd sub && git log",
    # find, sort, sed, awk, tree, file, uniq, date
    "find . -delete",
    "find . -name victim -delete",
    "find . -exec touch pwned \\;",
    "find . -execdir touch pwned \\;",
    "find . -ok touch pwned \\;",
    "find . -okdir touch pwned \\;",
    "find . -fprint pwned",
    "find . -fprint0 pwned",
    "find . -fprintf pwned %p",
    "find . -fls pwned",
    "sort -o pwned victim",
    "sort -uo pwned victim",
    "sort victim -o pwned",
    "sort --output=pwned victim",
    "sort --out=pwned victim",
    "sort --o pwned victim",
    "sort --compress-program='touch pwned' victim",
    "sed -n 'w pwned' victim",
    "sed 's/v/w/w pwned' victim",
    "sed -n '1w pwned' victim",
    "sed 'e touch pwned' victim",
    "sed 's/.*/touch pwned/e' victim",
    "sed -i s/v/w/ victim",
    "sed --in-place s/v/w/ victim",
    "sed -ibak s/v/w/ victim",
    "sed -f script.sed victim",
    "sed -n '1p;w pwned' victim",
    "sed -n $'1p\\nw pwned' victim",
    "sed -e 1p -e 'w pwned' victim",
    "sed --expression='w pwned' victim",
    "awk 'BEGIN{system(\"touch pwned\")}'",
    "awk '{print > \"pwned\"}' victim",
    "awk 'BEGIN{\"touch pwned\" | getline}'",
    "tree -o pwned",
    "tree -R -H . -o pwned",
    "file -C -m victim",
    "uniq victim pwned",
    "date -s '2020-01-01'",
    "date --set='2020-01-01'",
    "date 010100002020",
    "hostname pwned",
    "xxd victim pwned",
    "rg --pre 'touch' v",
    "rg --pre=./evil.sh v",
    "rg --hostname-bin=./evil.sh v",
    "time -o pwned ls",
    "/usr/bin/time -o pwned ls",
    "/usr/bin/time --output=pwned ls",
    "printf -v PATH /nonexistent",
    # pagers and shells in disguise
    "less victim",
    "more victim",
    "man -P 'touch pwned' ls",
    "man ls",
    "vi victim",
    "ed victim",
    "tee pwned",
    "ls | tee pwned",
    "env -i touch pwned",
    "env -S 'touch pwned'",
    "env X=1 rm -f victim",
    # redirections
    "ls > pwned",
    "ls >> victim",
    "ls >| pwned",
    "ls &> pwned",
    "ls 2> pwned",
    "ls >& pwned",
    "ls 1<> pwned",
    "cat 3<> pwned",
    "> pwned",
    "cat victim > pwned",
    "cat < /dev/tcp/127.0.0.1/{port}",
    "echo hi > /dev/tcp/127.0.0.1/{port}",
    "cat < /dev/udp/127.0.0.1/{port}",
    "exec 3<>/dev/tcp/127.0.0.1/{port}",
    "ls > ~/pwned",
    "ls > $HOME/pwned",
    'ls > "$(echo pwned)"',
    "{ ls; } > pwned",
    "ls 2>&1 > pwned",
    "f() { ls; } > pwned; f",
    # variables, functions, aliases, IFS
    "PATH=.:$PATH ls",
    "PATH=/nonexistent; ls",
    "X=1; ls",
    "IFS=/; ls",
    "IFS=x; ls",
    "for PATH in /nonexistent; do ls; done",
    "BASH_ENV=./evil.sh ls",
    "LD_PRELOAD=./evil.so ls",
    "alias ls='touch pwned'; ls",
    "shopt -s expand_aliases; alias ls='touch pwned'; ls",
    "hash -p /usr/bin/touch ls; ls pwned",
    "declare -x PATH=/nonexistent; ls",
    "export PATH=/nonexistent; ls",
    "read PATH <<< /nonexistent; ls",
    "CMD=touch; $CMD pwned",
    "${CMD:-touch} pwned",
    "$(echo touch) pwned",
    "`echo touch` pwned",
    't=touch; "$t" pwned',
    "ls ${X:=pwned}",
    "cat $(rm -f victim)",
    "cat `rm -f victim`",
    'ls "$(touch pwned)"',
    "echo $((1 + $(touch pwned)))",
    "cat <(touch pwned)",
    "diff <(ls) <(touch pwned)",
    "echo ${x[$(touch pwned)]}",
    "y='a[$(touch pwned)]'; echo $((y))",
    # program names that are not what they say
    "./ls",
    "./evil.sh",
    "sh evil.sh",
    "bash evil.sh",
    "/tmp/ls",
    "/usr/local/bin/touch pwned",
    "l\\s; touch pwned",
    "'touch' pwned",
    '"touch" pwned',
    't""ouch pwned',
    "$'\\x74ouch' pwned",
    "/usr/bin/t?uch pwned",
    "/usr/bin/tou* pwned",
    "{touch,pwned}",
    "ls {a,b}; touch pwned",
    "echo {a,b} > pwned",
    "busybox touch pwned",
    # interpreters and network clients
    'python3 -c \'open("pwned","w")\'',
    "python3 -m http.server",
    "perl -e 'open(F,\">pwned\")'",
    'node -e \'require("fs").writeFileSync("pwned","")\'',
    "curl -s http://127.0.0.1:{port}/",
    "curl -o pwned http://127.0.0.1:{port}/",
    "wget http://127.0.0.1:{port}/",
    "nc 127.0.0.1 {port} </dev/null",
    "ssh -o ProxyCommand='touch pwned' x",
    "openssl s_client -connect 127.0.0.1:{port}",
    # a writer among readers
    "ls; touch pwned; ls",
    "git status && rm -f victim",
    "cat victim | sh",
    "cat evil.sh | bash",
    "echo 'touch pwned' | sh",
    "ls | xargs rm -f",
    "ls && git log --oneline && mkdir x",
    "grep -r v . || touch pwned",
    "wc -l victim; cp victim copy",
    "head victim\ntouch pwned",
    "head victim\r\ntouch pwned",
    "ls # comment\ntouch pwned",
    "ls \\\ntouch pwned",
    "echo 'ls'; touch pwned",
    'echo "ls; touch pwned" | bash',
    "ls $(: ) ; touch pwned",
    "(touch pwned) &",
    "coproc touch pwned",
    "true && { rm -f victim; }",
    "[ -f victim ] && rm victim",
    "test -f victim || touch pwned",
    "case x in x) touch pwned;; esac",
    "select x in a; do touch pwned; done </dev/null",
    "until true; do :; done; touch pwned",
    "ls <<EOF\n$(touch pwned)\nEOF",
    'cat <<< "$(touch pwned)"',
    "ls -- $(touch pwned)",
    "sleep 0 & touch pwned",
    "! touch pwned",
    "time (touch pwned)",
    "nice -n 5 timeout 5 touch pwned",
    "timeout 5 bash -c 'touch pwned'",
    "command -p touch pwned",
    "builtin eval 'touch pwned'",
    "exec touch pwned",
    "eval touch pwned",
    "eval 'ls'",
    ". ./evil.sh",
    "source ./evil.sh",
    "mkdir -p x",
    "rmdir sub",
    "cp -r sub sub2",
    "mv victim v2",
    "rm -rf sub",
]

#: Lines that look like attacks but only read: allowed or not, they must change nothing.
LOOKALIKES = [
    "cat /dev/tcp/127.0.0.1/{port}",
    "ls /dev/tcp/127.0.0.1/{port}",
    "head -c 8 /dev/urandom | od",
    "git log -p --textconv -1",
    "git diff --no-ext-diff HEAD~1",
    "git log -p -1 --output-indicator-new=x",
    "git describe --always --dirty",
    "git reflog",
    "git worktree list",
    "git branch --show-current",
    "git cat-file -p HEAD",
    "git grep v",
    "git remote",
    "sort -k1,1 -t, victim",
    "sort -t o victim",
    "find . -newer victim -print",
    "date -d yesterday",
    "sed -n '$p' victim",
    "uniq victim",
    "file -b victim",
    "hostname",
    "env",
    "printenv HOME",
    "command -v touch",
    "type ls",
    "grep -r v ~",
    "du -sh ~",
    "echo touch pwned",
    "echo '$(touch pwned)'",
    "printf '%s\n' '`touch pwned`'",
    "grep -e '-exec' victim",
    "ls -- '-delete'",
    "sleep 0",
    "true > /dev/null",
]

#: Plain reads that must get through (and, run, change nothing).
READS = [
    "ls",
    "ls -la",
    "pwd",
    "git status",
    "git status --short",
    "git log --oneline -3",
    "git diff",
    "git diff HEAD~1 -- victim",
    "git show --stat HEAD",
    "git branch",
    "git branch -a",
    "git tag",
    "git tag -l 'v*'",
    "git remote -v",
    "git rev-parse HEAD",
    "git ls-files",
    "git blame victim",
    "git stash list",
    "cat victim",
    "head -n 2 victim",
    "tail -n 2 victim",
    "wc -l victim",
    "grep -rn v .",
    "grep -c v victim 2>/dev/null",
    "find . -name '*.sh' -type f",
    "sort victim | uniq -c",
    "sed -n '1,2p' victim",
    "sed 's/v/w/g' victim",
    "cut -c1-3 victim",
    "diff victim victim",
    "stat victim",
    "du -sh .",
    "file victim",
    "date",
    "date +%F",
    "echo hello",
    "printf '%s\\n' a b",
    "which ls",
    "uname -a",
    "whoami",
    "LC_ALL=C sort victim",
    "timeout 5 ls",
    "time ls",
    "ls | wc -l",
    "cat < victim",
    "ls 2>&1",
    "ls >/dev/null 2>&1",
    "cd sub && ls",
    "jq -n 1",
    "git log --oneline | head -1",
]


def lines() -> Iterator[str]:
    for writer in WRITERS:
        for shape in SHAPES:
            yield shape.replace("W", writer)
    yield from SPECIALS
    yield from LOOKALIKES


ATTACKS = list(dict.fromkeys(lines()))


class World:
    """A scratch project (a git repository) and HOME, and a way to run a line in it."""

    def __init__(self, root: Path, server: ConnectionCounter) -> None:
        self.root = root
        self.project = root / "project"
        self.home = root / "home"
        self.server = server
        self.project.mkdir()
        self.home.mkdir()
        (self.project / "victim").write_text("v1\nv2\nv3\n")
        (self.project / "evil.sh").write_text("touch pwned\n")
        (self.project / "evil.sh").chmod(0o755)
        (self.project / "ls").write_text("#!/bin/sh\ntouch pwned\n")
        (self.project / "ls").chmod(0o755)
        (self.project / "script.sed").write_text("w pwned\n")
        (self.project / "sub").mkdir()
        (self.project / "sub" / "x").write_text("x\n")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "LANG": "C",
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        for args in (
            ["init", "-q", "-b", "main"],
            ["config", "user.email", "t@example.com"],
            ["config", "user.name", "t"],
            ["add", "."],
            ["commit", "-qm", "one"],
            ["tag", "v0"],
        ):
            self.git(*args)
        (self.project / "victim").write_text("v1\nv2\nchanged\n")
        self.git("commit", "-qam", "two")
        self.git("status")  # a fresh index: a later status has nothing to refresh

    def git(self, *args: str) -> None:
        subprocess.run(["git", *args], cwd=self.project, env=self.env, check=True)

    def staged(self) -> str:
        out = subprocess.run(
            ["git", "ls-files", "--stage"],
            cwd=self.project,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout

    def snapshot(self) -> dict[str, tuple[object, ...]]:
        """Every path under the root: a file's mode, size, mtime and content."""
        seen: dict[str, tuple[object, ...]] = {}
        for folder, dirs, files in os.walk(self.root):
            for name in dirs + files:
                path = os.path.join(folder, name)
                if path == str(self.project / ".git" / "index"):
                    # ``git status`` refreshes the index's stat cache (racy-git entries);
                    # what it records is the staged entries
                    seen[path] = (self.staged(),)
                    continue
                seen[path] = file_state(path)
            # a folder by what it holds, not its mtime: ``git status`` takes and drops
            # .git/index.lock, which leaves no file behind
            seen[folder] = (os.lstat(folder).st_mode,)
        return seen

    def run(self, line: str) -> None:
        subprocess.run(
            ["bash", "-c", line],
            cwd=self.project,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            check=False,
        )


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(tmp_path_factory.mktemp("readonly"), ConnectionCounter())


def judge(world: World, line: str) -> None:
    """Run ``line`` when it counts as read-only; it must change nothing."""
    line = line.replace("{port}", str(world.server.port))
    if not read_only_line(parse_command(line)):
        return
    before = world.snapshot()
    hits = world.server.hits
    world.run(line)
    after = world.snapshot()
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert not changed, f"{line!r} is allowed as read-only but changed {changed}"
    assert world.server.hits == hits, f"{line!r} is allowed as read-only but reached the server"


def test_the_set_is_large() -> None:
    assert len(ATTACKS) >= 300


@pytest.mark.parametrize("line", ATTACKS)
def test_an_allowed_line_changes_nothing(world: World, line: str) -> None:
    judge(world, line)


#: Specials that only look like attacks: the continuation joins ``ls touch pwned``.
HARMLESS = {"ls \\\ntouch pwned"}


@pytest.mark.parametrize("line", [line for line in SPECIALS if line not in HARMLESS])
def test_no_special_line_is_allowed(line: str) -> None:
    # each of these writes, runs code or reaches the network (or may, where it is not
    # known before it runs): none is read-only, whatever it does in this project
    assert not read_only_line(parse_command(line.replace("{port}", "1")))


@pytest.mark.parametrize("line", READS)
def test_a_plain_read_is_allowed_and_changes_nothing(world: World, line: str) -> None:
    assert read_only_line(parse_command(line)), line
    judge(world, line)
