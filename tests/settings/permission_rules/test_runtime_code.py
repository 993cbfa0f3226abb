"""Code known only at run time never runs past a rule: the issue's lines, through the real CLI.

Each line runs in ``hookline --mode json`` (no UI: an ask is a denial) against
``Bash(rm *)``/``Bash(curl *)``/``Edit(.env)`` deny rules and a ``Bash(ls *)``
allow rule, in the default mode and in bypassPermissions (deny rules hold in
every mode), and is judged by its effect: ``v`` still there, ``.env`` unchanged,
no ``X``, the loopback server never reached.
"""

from __future__ import annotations

import os

import pytest

from .attack import Target, loopback, target  # noqa: F401 - fixtures
from .helpers import run_agent

MODES = ["default", "bypassPermissions"]

#: ``ls`` is allowed; prompt and indirect expansion run code a bare assignment stored.
ALLOW_WALKAROUNDS = [
    "x='$(touch X)'; ls \"${x@P}\"",
    "x='a[$(touch X)]'; ls ${!x}",
]

#: Code that reaches bash at run time, past the deny rules.
DENY_WALKAROUNDS = [
    "source /dev/stdin <<< 'rm -f v'",
    ". /dev/fd/0 <<< 'rm -f v'",
    "BASH_ENV=/dev/stdin bash -c : <<< 'rm -f v'",
    "bash --init-file <(echo 'rm -f v') -i < /dev/null",
    "bash --rcfile <(echo 'rm -f v') -i < /dev/null",
    "mapfile -C 'rm -f v' -c 1 <<< x",
    "readarray -C 'rm -f v' -c 1 <<< x",
    "compgen -C 'rm -f v' x",
    "PS4='$(rm -f v)'; set -x; :",
    "PS4='$(curl -s {url})'; set -x; :",
    "test -v 'a[$(rm -f v)]'",
    "read 'a[$(rm -f v)]' <<< x",
    "declare -n r='a[$(rm -f v)]'; echo $r",
    "printf -v 'a[$(rm -f v)]' x",
    "a=(1); unset 'a[$(rm -f v)]'",
]

#: Wrappers the parser did not know: their command is found, or the line is unreadable.
WRAPPERS = [
    "script -qc 'rm -f v' /dev/null",
    "runuser -u root -- rm -f v",
    "setpriv rm -f v",
    "unshare rm -f v",
    "nsenter -t 1 -U rm -f v",
    'chroot / rm -f "$PWD/v"',
    "script -qc 'curl -s {url}' /dev/null",
]

#: A redirection on a function definition writes the file each time the function runs.
FUNCTION_REDIRECTS = [
    "f() { echo x; } > .env; f",
    "function h { echo x; } >> .env; h",
    "k() ( echo x ) > .env; k",
    "f() { echo x >&2; } 2> .env; f",
    "f() { echo x; } &> .env; f",
    "f() { echo x; } >| .env; f",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "line", ALLOW_WALKAROUNDS + DENY_WALKAROUNDS + WRAPPERS + FUNCTION_REDIRECTS
)
def test_the_line_changes_nothing(target: Target, line: str, mode: str) -> None:  # noqa: F811
    shown = target.run_cli(line, mode)
    target.assert_untouched(mode, shown)


@pytest.mark.parametrize("line", ['x=1; ls "${x}"', "a=(1 2); ls ${!a[@]}", "ls ${!BASH*}"])
def test_plain_expansions_stay_allowed(target: Target, line: str) -> None:  # noqa: F811
    shown = target.run_cli(line, "default")
    assert "Permission denied" not in shown, shown


async def test_a_symlink_made_in_one_call_is_seen_through_in_the_next(target: Target) -> None:  # noqa: F811
    """``ln -s /usr/bin/curl c`` runs (no rule covers ``ln``); ``./c`` is then ``curl``."""
    calls = [
        ("bash", {"command": "ln -s /usr/bin/curl c"}),
        ("bash", {"command": target.line("./c -s {url}")}),
    ]
    results = await run_agent(target.project, calls, mode="bypassPermissions")
    assert "denied" in results[1].text
    target.assert_untouched("bypassPermissions", results[1].text)


async def test_a_hard_link_made_in_one_call_is_not_written_in_the_next(target: Target) -> None:  # noqa: F811
    calls = [
        ("bash", {"command": "ln .env notes"}),
        ("bash", {"command": "echo pwned > notes"}),
        ("write", {"path": "notes", "content": "pwned\n"}),
    ]
    results = await run_agent(target.project, calls, mode="bypassPermissions")
    assert all("denied" in r.text for r in results[1:]), results
    target.assert_untouched("bypassPermissions")


@pytest.mark.xfail(strict=True, reason="a copy is another program: only the sandbox holds it")
async def test_a_copy_of_a_denied_program_made_in_one_call(target: Target) -> None:  # noqa: F811
    calls = [("bash", {"command": "cp /bin/rm c"}), ("bash", {"command": "./c -f v"})]
    await run_agent(target.project, calls, mode="bypassPermissions")
    target.assert_untouched("bypassPermissions")


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read", {"path": "notes"}),
        ("grep", {"pattern": "TOPSECRET", "path": "."}),
        ("write", {"path": "envcopy", "content": "pwned"}),
    ],
)
def test_a_hard_link_does_not_read_or_write_around_a_rule(
    target: Target,  # noqa: F811
    tool: str,
    args: dict[str, object],
) -> None:
    """``ln secrets/key notes`` and ``ln .env envcopy`` (made outside the agent): the
    built-in tools compare inodes, in ``hookline --mode json`` and bypassPermissions."""
    os.link(target.project / "secrets" / "key", target.project / "notes")
    os.link(target.project / ".env", target.project / "envcopy")
    shown = target.run_cli_call(tool, args, "bypassPermissions")
    target.assert_untouched("bypassPermissions", shown)
