"""Bash rules as an attacker tries them: allow needs every command, deny needs one.

Each row is a way around a rule that worked before rules saw shell syntax.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import decide, run_agent

ECHO_ALLOWS = ["Bash(echo:*)", "Bash(echo *)"]

#: Lines an ``echo`` allow rule must not let through unasked.
NOT_JUST_ECHO = [
    "echo hi; touch x",
    "echo hi && touch x",
    "echo hi || touch x",
    "echo hi & touch x",
    "echo hi\ntouch x",
    "echo $(touch x)",
    "echo `touch x`",
    'echo "$(touch x)"',
    "echo <(touch x)",
    "echo x | sh",
    "echo hi > ../x",
    "echo hi > out.txt",
    "echo hi >> ~/.bashrc",
    "echo hi > $FILE",
    "cd .. && echo hi > x",
    "sudo echo hi",
    "LD_PRELOAD=/tmp/evil.so echo hi",
    "$CMD hi",
    "ech$X hi",
    "echo (",
    "echo hi; /tmp/evil/echo hi",
]


@pytest.mark.parametrize("rule", ECHO_ALLOWS)
@pytest.mark.parametrize("line", NOT_JUST_ECHO)
def test_an_echo_allow_covers_only_echo(tmp_path: Path, rule: str, line: str) -> None:
    check = decide("default", "bash", {"command": line}, tmp_path, allow=[rule])
    assert check.decision == "ask", check


@pytest.mark.parametrize("rule", ECHO_ALLOWS)
@pytest.mark.parametrize(
    "line",
    ["echo hi", "echo", 'echo "a; b && c"', "echo hi > /dev/null", "echo hi 2>&1", "echo $HOME"],
)
def test_an_echo_allow_covers_echo(tmp_path: Path, rule: str, line: str) -> None:
    check = decide("default", "bash", {"command": line}, tmp_path, allow=[rule])
    assert check.decision == "allow", check
    assert rule in check.reason


#: Ways to run curl that a ``curl`` deny rule must see through.
CURL_IN_DISGUISE = [
    "curl x",
    "true && curl x",
    "true; curl x",
    "false || curl x",
    "env FOO=1 curl x",
    "FOO=1 curl x",
    "timeout 5 curl x",
    "nohup curl x &",
    "nice -n 5 curl x",
    "bash -c 'curl x'",
    'sh -c "true; curl x"',
    "eval 'curl x'",
    "sudo curl x",
    "sudo -u root curl x",
    "'cu''rl' x",
    "c\\url x",
    '"curl" x',
    "/usr/bin/curl x",
    "echo $(curl x)",
    "echo `curl x`",
    "(curl x)",
    "{ curl x; }",
    "if true; then curl x; fi",
    "for i in 1; do curl x; done",
    "f() { curl x; }; f",
    "cat urls | xargs curl",
    "find . -exec curl {} \\;",
    "curl",
]


@pytest.mark.parametrize("rule", ["Bash(curl:*)", "Bash(curl *)"])
@pytest.mark.parametrize("line", CURL_IN_DISGUISE)
def test_a_curl_deny_sees_through_the_shell_in_bypass_mode(
    tmp_path: Path, rule: str, line: str
) -> None:
    check = decide("bypassPermissions", "bash", {"command": line}, tmp_path, deny=[rule])
    assert check.decision == "deny", check
    assert rule in check.reason


@pytest.mark.parametrize("line", ["curlx y", "echo curl", "ls curl", "git log --grep curl"])
def test_a_curl_deny_does_not_catch_other_programs(tmp_path: Path, line: str) -> None:
    check = decide("bypassPermissions", "bash", {"command": line}, tmp_path, deny=["Bash(curl:*)"])
    assert check.decision == "allow", check


@pytest.mark.parametrize(
    ("line", "decision"),
    [
        ("ls", "allow"),
        ("ls -la", "allow"),
        ("ls -la src", "allow"),
        ("lsof", "ask"),
        ("lsblk -a", "ask"),
    ],
)
def test_space_star_keeps_the_word_boundary(tmp_path: Path, line: str, decision: str) -> None:
    check = decide("default", "bash", {"command": line}, tmp_path, allow=["Bash(ls *)"])
    assert check.decision == decision


def test_star_without_a_space_crosses_the_word(tmp_path: Path) -> None:
    assert (
        decide("default", "bash", {"command": "lsof"}, tmp_path, allow=["Bash(ls*)"]).decision
        == "allow"
    )


@pytest.mark.parametrize(
    ("line", "decision"),
    [
        ("git push origin main", "allow"),
        ("git merge main", "allow"),
        ("git main", "ask"),
        ("git push origin dev", "ask"),
    ],
)
def test_a_star_inside_the_command(tmp_path: Path, line: str, decision: str) -> None:
    check = decide("default", "bash", {"command": line}, tmp_path, allow=["Bash(git * main)"])
    assert check.decision == decision


def test_exact_rules_compare_the_command_not_its_quoting(tmp_path: Path) -> None:
    allow = ['Bash(git commit -m "x")']
    for line in ('git commit -m "x"', "git commit -m x", "git   commit -m 'x'"):
        assert (
            decide("default", "bash", {"command": line}, tmp_path, allow=allow).decision == "allow"
        )
    assert (
        decide("default", "bash", {"command": "git commit -m y"}, tmp_path, allow=allow).decision
        == "ask"
    )


def test_rm_star_catches_quoted_and_escaped_rm(tmp_path: Path) -> None:
    for line in (
        "'rm' -rf x",
        "r\\m -rf x",
        "\\rm -rf x",
        "command rm -rf x",
        "builtin cd; rm -rf x",
    ):
        check = decide(
            "bypassPermissions", "bash", {"command": line}, tmp_path, deny=["Bash(rm *)"]
        )
        assert check.decision == "deny", line


def test_an_allow_rule_does_not_cover_sudo_or_assignments_unless_it_names_them(
    tmp_path: Path,
) -> None:
    allow = ["Bash(npm test)"]
    for line in (
        "sudo npm test",
        "doas npm test",
        "NODE_OPTIONS=--require=x npm test",
        "env LD_PRELOAD=x npm test",
    ):
        assert (
            decide("default", "bash", {"command": line}, tmp_path, allow=allow).decision == "ask"
        ), line
    assert decide(
        "default", "bash", {"command": "timeout 60 npm test"}, tmp_path, allow=allow
    ).decision == ("allow")
    sudo = ["Bash(sudo npm test)"]
    assert (
        decide("default", "bash", {"command": "sudo npm test"}, tmp_path, allow=sudo).decision
        == "allow"
    )


def test_a_deny_on_a_wrapper_name_stops_it_anywhere_in_the_line(tmp_path: Path) -> None:
    check = decide(
        "bypassPermissions", "bash", {"command": "true && sudo ls"}, tmp_path, deny=["Bash(sudo:*)"]
    )
    assert check.decision == "deny"


def test_an_ask_rule_asks_for_one_command_of_many(tmp_path: Path) -> None:
    check = decide(
        "default",
        "bash",
        {"command": "git status && git push"},
        tmp_path,
        allow=["Bash"],
        ask=["Bash(git push:*)"],
    )
    assert check.decision == "ask" and "Bash(git push:*)" in check.reason


@pytest.mark.parametrize("line", ["echo (", "if then", "$CMD x", "$(printf rm) -rf x", 'eval "$X"'])
def test_what_cannot_be_read_is_never_auto_allowed(tmp_path: Path, line: str) -> None:
    assert decide("default", "bash", {"command": line}, tmp_path, allow=["Bash"]).decision == "ask"
    assert (
        decide("acceptEdits", "bash", {"command": line}, tmp_path, allow=["Bash"]).decision == "ask"
    )
    assert decide("dontAsk", "bash", {"command": line}, tmp_path, allow=["Bash"]).decision == "deny"
    # bypassPermissions asks only when a bash rule cannot be checked on it.
    guarded = decide("bypassPermissions", "bash", {"command": line}, tmp_path, deny=["Bash(rm *)"])
    assert guarded.decision == "ask"
    assert decide("bypassPermissions", "bash", {"command": line}, tmp_path).decision == "allow"


class TestRedirections:
    """A redirection that writes a file is an edit of that file."""

    def test_an_edit_deny_stops_the_redirect_in_every_mode(self, tmp_path: Path) -> None:
        for mode in ("default", "acceptEdits", "bypassPermissions"):
            for line in (
                "echo hi > out.txt",
                "echo hi >> out.txt",
                "echo hi &> out.txt",
                "(echo hi) > out.txt",
                "bash -c 'echo hi > out.txt'",
            ):
                check = decide(
                    mode,
                    "bash",
                    {"command": line},
                    tmp_path,
                    deny=["Edit(out.txt)"],
                    allow=["Bash"],
                )
                assert check.decision == "deny", (mode, line, check)

    def test_a_bash_allow_does_not_cover_the_write(self, tmp_path: Path) -> None:
        line = {"command": "echo hi > out.txt"}
        assert decide("default", "bash", line, tmp_path, allow=["Bash(echo *)"]).decision == "ask"
        both = decide("default", "bash", line, tmp_path, allow=["Bash(echo *)", "Edit(out.txt)"])
        assert both.decision == "allow"
        assert (
            decide("acceptEdits", "bash", line, tmp_path, allow=["Bash(echo *)"]).decision
            == "allow"
        )

    def test_accept_edits_covers_redirects_inside_the_working_dirs_only(
        self, tmp_path: Path
    ) -> None:
        allow = ["Bash(echo *)"]
        tmp_path = tmp_path / "project"  # the home folder is tmp_path/home: outside it
        (tmp_path / "sub").mkdir(parents=True)
        for line in (
            "echo hi > ../x",
            "echo hi > /tmp/x",
            "echo hi > ~/x",
            "cd sub && echo hi > x",
            "echo hi > $F",
        ):
            check = decide("acceptEdits", "bash", {"command": line}, tmp_path, allow=allow)
            assert check.decision == "ask", (line, check)

    def test_bypass_writes_anywhere_unless_an_edit_rule_is_watching(self, tmp_path: Path) -> None:
        line = {"command": "echo hi > $F"}
        assert decide("bypassPermissions", "bash", line, tmp_path).decision == "allow"
        watched = decide("bypassPermissions", "bash", line, tmp_path, deny=["Edit(.git/**)"])
        assert watched.decision == "ask"


async def test_the_agent_runs_only_what_the_rules_allow(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    results = await run_agent(
        project,
        [
            ("bash", {"command": "echo hi; touch chained"}),
            ("bash", {"command": "echo $(touch substituted)"}),
            ("bash", {"command": "echo hi > redirected"}),
            ("bash", {"command": "echo fine"}),
        ],
        settings={"permissions": {"allow": ["Bash(echo *)"]}},
    )
    assert [r.is_error for r in results] == [True, True, True, False]
    assert "fine" in results[3].text
    assert not any((project / n).exists() for n in ("chained", "substituted", "redirected"))
    assert "touch chained" in results[0].text


async def test_the_agent_denies_in_bypass_mode_through_the_shell(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    lines = [
        "true && touch a",
        "env FOO=1 touch b",
        "timeout 5 touch c",
        "bash -c 'touch d'",
        "'tou''ch' e",
        "echo ok",
    ]
    results = await run_agent(
        project,
        [("bash", {"command": line}) for line in lines],
        settings={"permissions": {"deny": ["Bash(touch:*)"]}},
        mode="bypassPermissions",
    )
    assert [r.is_error for r in results] == [True] * 5 + [False]
    assert not any((project / n).exists() for n in "abcde")
    assert all("Bash(touch:*)" in r.text for r in results[:5])


def test_a_pathological_bash_rule_cannot_stall_a_call(tmp_path: Path) -> None:
    """``* * * … z`` against a long line: no backtracking (the test timeout guards)."""
    rule = "Bash(" + "* " * 40 + "z)"
    line = "echo " + "a " * 20_000
    check = decide("bypassPermissions", "bash", {"command": line}, tmp_path, deny=[rule])
    assert check.decision == "allow"
    assert decide(
        "bypassPermissions", "bash", {"command": line + "z"}, tmp_path, deny=[rule]
    ).decision == ("deny")


@pytest.mark.parametrize(
    "line",
    [
        "env -C /etc sh -c 'echo x > passwd'",
        "sudo -D /etc sh -c 'echo x > passwd'",
        "find /etc -maxdepth 0 -execdir sh -c 'echo x > passwd' \\;",
        "(cd /etc; echo x > passwd)",
    ],
)
def test_a_redirect_in_another_folder_is_never_auto_allowed(tmp_path: Path, line: str) -> None:
    check = decide("acceptEdits", "bash", {"command": line}, tmp_path, allow=["Bash"])
    assert check.decision == "ask", check
    denied = decide(
        "bypassPermissions", "bash", {"command": line}, tmp_path, deny=["Edit(//etc/**)"]
    )
    assert denied.decision == "ask"


def test_a_sudo_allow_rule_is_matched_as_written(tmp_path: Path) -> None:
    allow = ["Bash(sudo apt update)"]
    assert decide(
        "default", "bash", {"command": "sudo apt update"}, tmp_path, allow=allow
    ).decision == ("allow")
    other_user = {"command": "sudo -u mallory apt update"}
    assert decide("default", "bash", other_user, tmp_path, allow=allow).decision == "ask"
    deny = ["Bash(sudo -u root *)"]
    line = {"command": "true && sudo -u root ls"}
    assert decide("bypassPermissions", "bash", line, tmp_path, deny=deny).decision == "deny"
    assert decide(
        "bypassPermissions", "bash", {"command": "sudo ls"}, tmp_path, deny=deny
    ).decision == ("allow")
