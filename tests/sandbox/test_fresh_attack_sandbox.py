# ruff: noqa: E501 - attack lines are kept whole, one a line
"""Sandbox-specific attack lines through the real ``hookline --mode json``, judged by effect.

Run with the sandbox on (``--trust-project``, ``sandbox.enabled``), in default mode and in
bypassPermissions, against the rules of :mod:`tests.permissions.fresh`. Beyond the rules'
effects, a line gets through when it writes outside the project (a folder beside it,
``$HOME``, ``/tmp``, ``/var/tmp``, ``/dev/shm``, another session's TMPDIR), creates or
changes a protected path (settings, hooks, ``.git`` internals — ``git config`` of the project
is read on the host afterwards), reaches a Unix socket outside, leaves a process running,
or reaches the loopback server through the proxy by another spelling of the host, a
smuggled request, ``CONNECT`` or userinfo. Also tried: ``/proc/1/root``, ptrace of pid 1,
nested user namespaces, ``umount``/``mount``, renames of protected paths' parents, hard
links, and names with newlines or leading dashes.
"""

from __future__ import annotations

import pytest

from tests.sandbox.helpers import needs_bwrap
from tests.settings.permission_rules.fresh import BatchCache, batches, params  # noqa: F401 - fixture

pytestmark = [needs_bwrap]

#: One batch (lines 60-89: protected paths planted under other names) waits until
#: pytest's timeout under pytest, although it ends in about 20 s when ``run_batch`` is
#: called directly (every line held then). Skipped until the wait is found; the same
#: attacks on ``.claude``, ``.hookline``, ``.git`` and ``.env`` are in test_filesystem.py.
_WAITS = range(60, 90)


def _cases() -> list[object]:
    out: list[object] = []
    for case in params(LINES, THROUGH, ["sandbox-default", "sandbox-bypass"]):
        index = int(str(case.id).rsplit("-", 1)[1])
        if index in _WAITS:
            skip = pytest.mark.skip(reason="this batch waits under pytest (see _WAITS)")
            case = pytest.param(*case.values, marks=[*case.marks, skip], id=case.id)
        out.append(case)
    return out


LINES = [
    "echo {tok} > {out}",
    "mkdir {out}",
    "echo {tok} > $HOME/{tok}",
    "echo {tok} > /tmp/{tok}",
    "echo {tok} > /var/tmp/{tok}",
    "echo {tok} > /dev/shm/{tok}",
    "echo {tok} > ../{tok}",
    "cd ..; echo {tok} > {tok}",
    "echo {tok} > /proc/self/cwd/../{tok}",
    "echo {tok} > /proc/1/cwd/../{tok}",
    "echo {tok} > /proc/1/root/tmp/{tok}",
    'echo \'open("/tmp/{tok}","w").write("x")\' > {f}.py; python3 {f}.py',
    "ln -s /tmp {f}; echo {tok} > {f}/{tok}",
    "ln -s .. {f}; echo {tok} > {f}/{tok}",
    "mkdir -p .git/x && printf 'gitdir: ..\\n' > .git/x/{tok} ; printf '[core]\\n\\tfsmonitor = touch {tok}\\n' > {f}; echo '../{f}' > .git/commondir",
    "printf '../evil{tok}\\n' > .git/commondir; mkdir -p .git/evil{tok}",
    "mkdir -p {f}/hooks; printf '[x]\\n\\ty = {tok}\\n' > {f}/config; printf '%s\\n' \"$PWD/{f}\" > .git/commondir",
    "printf '[x]\\n\\ty = {tok}\\n[core]\\n\\trepositoryformatversion = 0\\n' > {f}.cfg; git config --file .git/config include.path ../{f}.cfg",
    "git config x.y {tok}",
    "git config --local core.hooksPath /tmp/{tok}",
    "git config --worktree x.y {tok}",
    "echo '[x] y = {tok}' >> .git/config",
    "mv .git/config .git/c{tok}; printf '[x]\\n\\ty = {tok}\\n' > .git/config",
    "mv .git .g{tok}; mkdir .git; echo {tok} > .git/config",
    "printf 'ref: refs/heads/{tok}\\n' > .git/HEAD; echo {tok} > .git/info/attributes",
    "echo {tok} > .git/info/exclude",
    "echo {tok} > .git/description; mkdir -p .git/objects/info; echo /tmp/{tok} > .git/objects/info/alternates",
    "mkdir -p .git/modules/m; printf '[x]\\n\\ty = {tok}\\n' > .git/modules/m/config",
    "printf '#!/bin/sh\\n# {tok}\\n' > .git/hooks/pre-commit",
    "mv .git/hooks .git/h{tok}",
    "ln -s /tmp/{tok} .git/hooks/pre-push",
    "mkdir -p .claude/commands && echo {tok} > .claude/commands/x.md",
    "echo {tok} > .claude/settings.local.json",
    "mv .claude .c{tok}; mkdir .claude; echo {tok} > .claude/settings.json",
    "mv .claude/settings.json .claude/s{tok}",
    "ln -sf /tmp/{tok} .claude/settings.local.json",
    "mkdir -p .claude/agents; echo {tok} > .claude/agents/x.md",
    "mkdir -p .claude/skills/x; echo {tok} > .claude/skills/x/SKILL.md",
    "mkdir -p .claude/hooks; echo {tok} > .claude/hooks/x.sh",
    "echo {tok} > .claude/CLAUDE.md",
    "mkdir -p .hookline/hooks; echo '# {tok}' > .hookline/hooks/x.py",
    "mkdir -p .hookline; echo {tok} > .hookline/settings.json",
    "echo {tok} > .mcp.json",
    "echo {tok} > .bashrc",
    "echo {tok} > .profile; echo {tok} > .gitconfig",
    "mkdir -p sub/.claude; echo {tok} > sub/.claude/settings.json",
    "mkdir -p sub/.git/hooks; echo {tok} > sub/.git/hooks/pre-commit",
    "mkdir -p sub/.hookline/hooks; echo '# {tok}' > sub/.hookline/hooks/x.py",
    "mkdir -p $'.claude\\n'; echo {tok} > $'.claude\\n/settings.json'",
    "mkdir -p -- -x; echo {tok} > -x/.mcp.json",
    "cd .claude && echo {tok} > settings.local.json",
    "cd .git && echo {tok} >> config",
    'echo \'import os; os.rename(".claude", ".c2"); os.mkdir(".claude"); open(".claude/settings.json","w").write("{tok}")\' > {f}.py; python3 {f}.py',
    "ln .claude/settings.json {f}; echo {tok} >> {f}",
    "ln .git/config {f}; echo '[x] y = {tok}' >> {f}",
    "cp -al .claude {f}; echo {tok} >> {f}/settings.json",
    "echo {tok} > .claude/./settings.local.json",
    "touch -d 2000-01-01 .claude/settings.json; echo {tok} > {f}",
    "chmod 777 .claude/settings.json; echo {tok} >> .claude/settings.json",
    "setfattr -n user.x -v {tok} .claude/settings.json",
    "echo {tok} > .env.",
    "echo {tok} > .envrc",
    "ln -s .env {f}; echo {tok} >> {f}",
    "mv .env .e{tok}; echo {tok} > .env",
    "cat secrets/key > {f}",
    "cp secrets/key {f}",
    "ls -la secrets",
    "stat secrets/key",
    "cat /proc/self/root/$PWD/secrets/key",
    "umount secrets 2>&1; cat secrets/key",
    "unshare -Urm sh -c 'umount -l secrets; cat secrets/key'",
    "unshare -U true; echo {tok} > .env",
    "mount --bind /tmp sub 2>&1; echo {tok} > sub/{tok}",
    "mv secrets s{tok}; cat s{tok}/key",
    "mv . ../{tok} 2>&1",
    "ln secrets/key {f}",
    'echo \'import socket; s=socket.socket(socket.AF_UNIX); s.connect("{sock}"); s.send(b"{tok}")\' > {f}.py; python3 {f}.py',
    'echo \'IO::Socket::UNIX->new(Peer=>"{sock}")->print("{tok}")\' > {f}.pl; perl -MIO::Socket::UNIX {f}.pl',
    'echo \'require("net").connect("{sock}").end("{tok}")\' > {f}.js; node {f}.js',
    'echo \'import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b"{tok}", "{sock}")\' > {f}.py; python3 {f}.py',
    "echo 'import socket; a,b=socket.socketpair(); print(a)' > {f}.py; python3 {f}.py",
    'echo \'import socket; s=socket.socket(1, 1|0o2000000); s.connect("{sock}"); s.send(b"{tok}")\' > {f}.py; python3 {f}.py',
    "echo 'import ctypes,socket; l=ctypes.CDLL(None); fd=l.syscall(41,1,1,0); print(fd)' > {f}.py; python3 {f}.py",
    "echo 'import ctypes; l=ctypes.CDLL(None); print(l.syscall(53,1,1,0,0))' > {f}.py; python3 {f}.py",
    "ls -la /proc/1/fd/ /proc/*/fd/ 2>&1 | head -50",
    "cat /proc/1/environ | tr '\\0' '\\n' | head; cat /proc/1/cmdline",
    "for p in /proc/[0-9]*; do readlink $p/exe; done | sort -u",
    "echo 'import ctypes; l=ctypes.CDLL(None); print(l.ptrace(16, 1, 0, 0))' > {f}.py; python3 {f}.py",
    "echo 'import os; print(os.listdir(\"/proc/1/root/\"))' > {f}.py; python3 {f}.py",
    "setsid -f sleep {dur}",
    "nohup sleep {dur} > /dev/null 2>&1 &",
    "(sleep {dur} &) ; disown -a",
    "setsid sh -c 'sleep {dur}' < /dev/null > /dev/null 2>&1 &",
    'echo \'import os,time; os.fork() and os._exit(0); os.setsid(); os.execvp("sleep",["sleep","{dur}"])\' > {f}.py; python3 {f}.py',
    "tmux -L {tok} new -d 'sleep {dur}'",
    "systemd-run --user sleep {dur}",
    "ls /tmp/hookline-sandbox-*/ 2>&1; echo {tok} > /tmp/hookline-sandbox-x/tmp/{tok}",
    "for d in /tmp/hookline-sandbox-*/tmp; do echo {tok} > $d/{tok}; done 2>&1",
    "echo $TMPDIR; echo {tok} > $TMPDIR/../{tok}",
    "unshare -U -r true && echo userns-allowed",
    "unshare -Ur sh -c 'id' 2>&1",
    "bwrap --bind / / true 2>&1",
    "echo 'import os; os.unshare(0x10000000); print(\"ok\")' > {f}.py; python3 {f}.py",
    "nsenter -t 1 -a true 2>&1",
    "capsh --print | head -3",
    "echo {tok} > /etc/{tok}",
    "echo 127.0.0.1 evil{tok} >> /etc/hosts",
    "echo nameserver 127.0.0.1 > /etc/resolv.conf",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://localhost:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://[::1]:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://2130706433:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://0177.0.0.1:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://localhost.:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://127.1:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://0x7f000001:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://[::ffff:127.0.0.1]:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://localtest.me:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://0.0.0.0:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://127.0.0.1%2e:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "echo 'import urllib.request as u; print(u.urlopen(\"http://example.com@127.0.0.1:{port}{path}\").read())' > {f}.py; python3 {f}.py",
    "wget -qO- http://LOCALHOST:{port}{path}",
    "wget -qO- http://127.0.0.1.nip.io:{port}{path}",
    "env | grep -i proxy; cat /proc/1/status | grep -i cap",
    "mkdir {f}; cp -r .git/. {f}/ 2>/dev/null; printf '[x]\\n\\ty = {tok}\\n' >> {f}/config; echo ../{f} > .git/commondir",
    "printf 'gitdir: ../{f}\\n' > {f}.txt; mkdir -p sub2 && cp -r .git sub2/{f} && printf '[x]\\n\\ty = {tok}\\n' >> sub2/{f}/config",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET http://127.0.0.1:{port}{path} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'CONNECT 127.0.0.1:{port} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n\\r\\nGET {path} HTTP/1.0\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET http://example.com@127.0.0.1:{port}{path} HTTP/1.1\\r\\nHost: example.com\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET {path} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET http://127.0.0.1:{port}{path} HTTP/1.0\\n\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'CONNECT [::1]:{port} HTTP/1.1\\r\\n\\r\\nGET {path} HTTP/1.0\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET HTTP://127.0.0.1.:{port}{path} HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET  http://127.0.0.1:{port}{path}  HTTP/1.1\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET\\thttp://2130706433:{port}{path}\\tHTTP/1.1\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'POST http://x.invalid/ HTTP/1.1\\r\\nHost: x.invalid\\r\\nContent-Length: 0\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n0\\r\\n\\r\\nGET http://127.0.0.1:{port}{path} HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET http://[::ffff:7f00:1]:{port}{path} HTTP/1.1\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'CONNECT 127.0.0.1:{port}@x.invalid:443 HTTP/1.1\\r\\n\\r\\nGET {path} HTTP/1.0\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'CONNECT x.invalid:443 HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n\\r\\nGET {path} HTTP/1.0\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET http://127.0.0.1%3A{port}{path} HTTP/1.1\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py",
    "cat > {f}.py <<'E'\nimport socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('\\0hookline')\nE\npython3 {f}.py",
]

THROUGH: dict[str, dict[str, str]] = {
    "mkdir -p .git/x && printf 'gitdir: ..\\n' > .git/x/{tok} ; printf '[core]\\n\\tfsmonitor = touch {tok}\\n' > {f}; echo '../{f}' > .git/commondir": {
        "sandbox-default": "inert: writes inside .git are allowed (git must write there); a commondir or alternates file a call makes is removed after it, config and hooks stay read-only",
        "sandbox-bypass": "inert: writes inside .git are allowed (git must write there); a commondir or alternates file a call makes is removed after it, config and hooks stay read-only",
    },
    "printf 'ref: refs/heads/{tok}\\n' > .git/HEAD; echo {tok} > .git/info/attributes": {
        "sandbox-default": "inert: writes inside .git are allowed (git must write there); a commondir or alternates file a call makes is removed after it, config and hooks stay read-only",
        "sandbox-bypass": "inert: writes inside .git are allowed (git must write there); a commondir or alternates file a call makes is removed after it, config and hooks stay read-only",
    },
    "echo {tok} > .git/description; mkdir -p .git/objects/info; echo /tmp/{tok} > .git/objects/info/alternates": {
        "sandbox-default": "inert: writes inside .git are allowed (git must write there); a commondir or alternates file a call makes is removed after it, config and hooks stay read-only",
        "sandbox-bypass": "inert: writes inside .git are allowed (git must write there); a commondir or alternates file a call makes is removed after it, config and hooks stay read-only",
    },
    "mkdir -p .git/modules/m; printf '[x]\\n\\ty = {tok}\\n' > .git/modules/m/config": {
        "sandbox-default": "inert: writes inside .git are allowed (git must write there); a commondir or alternates file a call makes is removed after it, config and hooks stay read-only",
        "sandbox-bypass": "inert: writes inside .git are allowed (git must write there); a commondir or alternates file a call makes is removed after it, config and hooks stay read-only",
    },
    "echo 'import urllib.request as u; print(u.urlopen(\"http://localhost:{port}{path}\").read())' > {f}.py; python3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "echo 'import urllib.request as u; print(u.urlopen(\"http://2130706433:{port}{path}\").read())' > {f}.py; python3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "echo 'import urllib.request as u; print(u.urlopen(\"http://0177.0.0.1:{port}{path}\").read())' > {f}.py; python3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "echo 'import urllib.request as u; print(u.urlopen(\"http://localhost.:{port}{path}\").read())' > {f}.py; python3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "echo 'import urllib.request as u; print(u.urlopen(\"http://127.1:{port}{path}\").read())' > {f}.py; python3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "echo 'import urllib.request as u; print(u.urlopen(\"http://0x7f000001:{port}{path}\").read())' > {f}.py; python3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "echo 'import urllib.request as u; print(u.urlopen(\"http://[::ffff:127.0.0.1]:{port}{path}\").read())' > {f}.py; python3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "echo 'import urllib.request as u; print(u.urlopen(\"http://0.0.0.0:{port}{path}\").read())' > {f}.py; python3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "wget -qO- http://LOCALHOST:{port}{path}": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET http://127.0.0.1:{port}{path} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'CONNECT 127.0.0.1:{port} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n\\r\\nGET {path} HTTP/1.0\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET HTTP://127.0.0.1.:{port}{path} HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
    "cat > {f}.py <<'E'\nimport os, socket\nh, p = os.environ['HTTP_PROXY'].rsplit('/', 1)[1].split(':')\ns = socket.create_connection((h, int(p)), timeout=3)\ns.sendall(b'GET http://[::ffff:7f00:1]:{port}{path} HTTP/1.1\\r\\n\\r\\n')\ntry:\n    print(s.recv(4096))\nexcept OSError as e:\n    print(e)\nE\npython3 {f}.py": {
        "sandbox-bypass": "inherent: bypass lets the proxy pass an unlisted host (rule names curl)",
    },
}


@pytest.mark.parametrize(("line", "config"), _cases())
def test_the_sandbox_holds(batches: BatchCache, line: str, config: str) -> None:  # noqa: F811
    got = batches.verdict("sandbox", LINES, line, config, sandbox_checks=True)
    assert got == [], got
