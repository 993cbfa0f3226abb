"""Code known only at run time, wrappers that run a command, and writes by function definitions.

Whatever bash evaluates from a variable's value, reads from stdin or a descriptor,
or runs through a program the parser cannot see into makes the line unparsable
(callers never auto-allow it and check it in a deny rule's name); a wrapper whose
command can be found is looked through, so deny rules see the command.
"""

from __future__ import annotations

import pytest

from hookline.shell import parse_command

#: Each of these runs code that is not in the text: the line must be unparsable.
UNPARSABLE = [
    # prompt and indirect expansion evaluate a variable's value
    "x='$(rm v)'; ls \"${x@P}\"",
    "ls ${x[0]@P}",
    "x='a[$(rm v)]'; ls ${!x}",
    'ls "${!x:-y}"',
    "ls ${!x/a/b}",
    "ls ${!x[0]}",
    "ls ${!1}",
    # builtins that evaluate the subscript of a name they are given
    "test -v 'a[$(rm v)]'",
    "[ -v 'a[$(rm v)]' ]",
    "[[ -v 'a[$(rm v)]' ]]",
    "[[ -v $x ]]",
    "read 'a[$(rm v)]'",
    "read -ra 'a[$(rm v)]'",
    "declare 'a[$(rm v)]=1'",
    "typeset 'a[$(rm v)]=1'",
    "export 'a[$(rm v)]=1'",
    "readonly 'a[$(rm v)]=1'",
    "f() { local 'a[$(rm v)]=1'; }",
    "declare -n r='a[$(rm v)]'",
    "declare -n r; r=PS4",
    "printf -v 'a[$(rm v)]' x",
    "printf -v'a[$(rm v)]' x",
    "unset 'a[$(rm v)]'",
    "unset -v 'a[$(rm v)]'",
    "getopts a 'a[$(rm v)]'",
    "wait -p 'a[$(rm v)]' -n",
    "mapfile 'a[$(rm v)]'",
    'read "$name"',
    # builtins that run a string
    "mapfile -C 'rm v' -c 1 <<< x",
    "readarray -C 'rm v' -c 1 <<< x",
    "compgen -C 'rm v' x",
    "compgen -F f x",
    "compgen -W '$(rm v)' x",
    "complete -C 'rm v' ls",
    "enable -f ./evil.so evil",
    "fc -s",
    # variables a shell runs as code
    "BASH_ENV=/dev/stdin bash -c :",
    "env BASH_ENV=/dev/stdin bash -c :",
    "export BASH_ENV=/dev/stdin",
    "declare -x BASH_ENV=/dev/stdin",
    "ENV=/dev/stdin sh -c :",
    "PS4='$(rm v)'; set -x",
    "PS4[0]='$(rm v)'",
    "read PS4",
    "printf -v PS4 x",
    "mapfile PS4",
    "for PS4 in x; do :; done",
    ": ${PS4:=x}",
    "PROMPT_COMMAND='rm v' bash -c :",
    "PS0=x bash -c :",
    "SHELLOPTS=xtrace bash -c :",
    "env 'BASH_FUNC_ls%%=() { rm v; }' bash -c ls",
    "LD_PRELOAD=./evil.so ls",
    "GIT_CONFIG_COUNT=1 git x",
    'GIT_PAGER="$x" git log',
    "PATH=.:$PATH ls",
    "export PATH=bin:$PATH",
    # code read from stdin, a file on stdin or a descriptor
    "echo 'rm v' | source /dev/stdin",
    "source /dev/fd/3 3<<< 'rm v'",
    "source /proc/self/fd/3",
    "source /proc/$$/fd/0",
    'source "$f"',
    "bash < script.sh",
    "bash < <(echo rm v)",
    "bash -s < <(echo rm v)",
    "bash /dev/fd/3",
    "echo 'rm v' | bash s",
    "echo 'rm v' | . ./s",
    "source s <<< 'rm v'",
    "bash --init-file <(echo rm v) -c :",
    "bash --rcfile=/tmp/rc -c :",
    "echo 'rm v' | script -q /dev/null",
    "echo 'rm v' | ssh localhost",
    "python3 -c 'import os'",
    "python3 -Ic 'import os'",
    "python3 - < x.py",
    "python3 /dev/stdin",
    "python3 <(echo x)",
    "python3 -m code",
    "python3 -m timeit x",
    "perl -e 'unlink q(v)'",
    "perl -ne 'print' f",
    "node -e x",
    "node --eval=x",
    "expect -c 'spawn rm v'",
    "awk 'BEGIN{system(\"rm v\")}'",
    "awk 'BEGIN{\"rm v\" | getline}'",
    "awk -f /dev/stdin",
    "sed '1e rm v' f",
    "sed 's/x/rm v/e' f",
    "sed -f /dev/stdin f",
    "git -c alias.x='!rm v' x",
    "git -c core.pager='rm v' log",
    "git --config-env=alias.x=X x",
    "git config alias.x '!rm v'",
    "git config -f .git/config alias.x '!rm v'",
    "gdb -batch -ex 'shell rm v'",
    "ssh -o ProxyCommand='rm v' host",
    "ssh -F ./config host",
    "proot rm v",
    "faketime now rm v",
    "parallel rm ::: v",
    "bwrap --args 3 rm v",
    # an argument known only at run time may be the option that evaluates or runs
    "o=-v; printf $o 'a[$(rm v)]' x",
    "o=-v; test $o 'a[$(rm v)]'",
    "x=-C; compgen $x 'rm v' w",
    # tree-sitter cannot read these: unparsable, whatever they run
    "{ source /dev/stdin; } <<< 'rm v'",
    "f() { echo x; } <> .env",
]


@pytest.mark.parametrize("line", UNPARSABLE)
def test_code_known_only_at_run_time_makes_the_line_unparsable(line: str) -> None:
    assert parse_command(line).unparsable, line


#: Wrappers whose command can be found: deny rules see ``rm``.
WRAPPED = [
    "script -qc 'rm v' /dev/null",
    "script -q -c 'rm v' /dev/null",
    "script --command 'rm v' /dev/null",
    "script /dev/null -qc 'rm v'",
    "script -c'rm v' -q /dev/null",
    "script -E never -qc 'rm v' /dev/null",
    "script -q /dev/null -- rm v",
    "runuser -u root -- rm v",
    "runuser --user=root rm v",
    "runuser root -c 'rm v'",
    "runuser -l root -c 'rm v'",
    "setpriv rm v",
    "setpriv --reuid 0 --regid 0 --clear-groups rm v",
    "unshare rm v",
    "unshare -U -r --fork rm v",
    "unshare -R / -w /tmp rm v",
    "nsenter -t 1 -m rm v",
    "chroot / rm v",
    "chroot --userspec=0:0 / rm v",
    "systemd-run --user --wait -p X=1 rm v",
    "flatpak-spawn --host rm v",
    "ssh localhost rm v",
    "ssh -p 22 -o BatchMode=yes localhost 'rm v'",
    "sg root -c 'rm v'",
    "sg root 'rm v'",
    "pkexec --user root rm v",
    "firejail --quiet rm v",
    "bwrap --ro-bind / / --dev /dev --unshare-all rm v",
    "torsocks rm v",
    "torify rm v",
    "proxychains4 -q -f x.conf rm v",
    "strace -f -o /dev/null rm v",
    "ltrace rm v",
    "valgrind --tool=none rm v",
    "xvfb-run -a -s '-screen 0 1x1x8' rm v",
    "dbus-run-session -- rm v",
    "toybox rm v",
    "gdb --args rm v",
    "source /dev/stdin <<< 'rm v'",
    ". /dev/fd/0 <<< 'rm v'",
    "source //dev/./stdin <<< 'rm v'",
    "GIT_PAGER='rm v' git log",
    "EDITOR='rm v' git commit",
]


@pytest.mark.parametrize("line", WRAPPED)
def test_a_wrapper_is_looked_through(line: str) -> None:
    parsed = parse_command(line)
    assert ["rm", "v"] in [c.argv for c in parsed.commands], parsed


@pytest.mark.parametrize(
    "line",
    [
        "f() { echo x; } > .env; f",
        "function h { echo x; } >> .env; h",
        "function h() { echo x; } > .env",
        "k() ( echo x ) > .env; k",
        "f() { echo x; } 2> .env",
        "f() { echo x; } &> .env",
        "f() { echo x; } >| .env",
        "f() { echo x; } 3> .env",
        "g() { f() { echo x; } > .env; }",
        "bash -c 'f() { echo x; } > .env; f'",
    ],
)
def test_a_redirection_on_a_function_definition_is_a_write(line: str) -> None:
    assert ".env" in parse_command(line).writes


#: What agents write every day stays readable.
READABLE = [
    "ls ${!a[@]} ${!a[*]} ${!BASH*} ${!BASH@}",
    'echo "${!#}"',
    'echo "${x@Q}" "${x@E}" "${x@U}"',
    "read -r line",
    "read -r a b <<< 'x y'",
    "IFS= read -r line",
    "declare -a arr=(1 2)",
    "local x=1",
    'export PATH="$HOME/bin:$PATH"',
    "export NODE_ENV=production",
    "PATH=/usr/local/bin:$PATH make",
    "printf '%s[x]\\n' a",
    "printf -v out '%s' x",
    "test -f x && test -v HOME",
    "[[ -v HOME ]]",
    "unset x y",
    "unset -f f",
    "mapfile -t lines < file",
    "source venv/bin/activate",
    ". ./env.sh",
    "bash script.sh",
    "python3 script.py --flag",
    "python3 -m pytest -q",
    "python3 -mpip install x",
    "node server.js",
    "perl script.pl",
    "awk '{print $1}' f",
    "awk -F: '$3 > 1000 {print $1}' /etc/passwd",
    "sed -n '1,5p' f",
    "sed -i 's/e/x/g' f",
    "git log --oneline -5",
    "git -C sub status",
    "git -c user.name=x -c user.email=y commit -m 'm'",
    "git config user.name x",
    "GIT_PAGER=cat git log",
    "ssh -o BatchMode=yes host uptime",
    "f() { echo x; }; f > out.txt",
    "trap 'echo done' EXIT",
    'printf "a[%s]\\n" "$x"',
    'printf "%s\\n" "$x"',
]


@pytest.mark.parametrize("line", READABLE)
def test_ordinary_lines_stay_readable(line: str) -> None:
    parsed = parse_command(line)
    assert not parsed.unparsable, parsed.problems
