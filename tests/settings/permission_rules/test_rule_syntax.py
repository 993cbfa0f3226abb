"""Rule syntax as Claude Code writes it, and unreadable rules reported with file and key path."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hookline.agent.setup import AgentOptions, SetupError, build_agent
from hookline.cli import main
from hookline.settings import load_settings
from hookline.settings.permission_rules import (
    PermissionRule,
    PermissionRuleError,
    PermissionRules,
    describe_call,
)

from .helpers import decide, write_settings


@pytest.mark.parametrize(
    ("text", "tool", "specifier"),
    [
        ("Bash", "Bash", None),
        ("Bash(*)", "Bash", None),
        ("  Bash( npm test )  ", "Bash", "npm test"),
        ("Read(./docs/**)", "Read", "./docs/**"),
        ("Bash(echo (a) b)", "Bash", "echo (a) b"),
        ("WebFetch(domain:example.com)", "WebFetch", "domain:example.com"),
        ("mcp__github", "mcp__github", None),
        ("mcp__github__get_*", "mcp__github__get_*", None),
        ("deploy_tool", "deploy_tool", None),
    ],
)
def test_rules_claude_writes_are_read(text: str, tool: str, specifier: str | None) -> None:
    rule = PermissionRule.parse(text)
    assert (rule.tool, rule.specifier) == (tool, specifier)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Bash(", "closing ')'"),
        ("Bash()", "empty specifier"),
        ("Bash(ls) extra", "'extra' after the closing ')'"),
        ("Bash ls", "after the tool name"),
        ("Ba*sh", "MCP tool name"),
        ("mcp__*", "MCP tool name"),
        ("mcp__github(x)", "MCP tools take no specifier"),
        ("", "empty rule"),
        ("(ls)", "tool name first"),
        ("Read(src/../x)", "'..'"),
    ],
)
def test_unreadable_rules_say_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(PermissionRuleError) as caught:
        PermissionRule.parse(text, "deny")
    assert why in str(caught.value)


def test_from_settings_collects_bad_rules_with_file_and_key_path(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    settings = write_settings(
        project, {"permissions": {"allow": ["Bash(ls *)", "Bash("], "deny": ["Read(", "Edit"]}}
    )
    rules = PermissionRules.from_settings(load_settings(project))
    messages = [str(e) for e in rules.errors]
    assert messages == [
        f"{settings}: permissions.allow[1]: bad rule 'Bash(': missing the closing ')'",
        f"{settings}: permissions.deny[0]: bad rule 'Read(': missing the closing ')'",
    ]
    assert [r.text for r in rules.allow] == ["Bash(ls *)"]
    assert [r.text for r in rules.deny] == ["Edit"]
    assert [r.origin.key for r in rules.deny] == ["permissions.deny[1]"]
    assert rules.deny[0].origin.file == str(settings)
    assert rules.deny[0].origin.scope == "project"


async def test_an_unreadable_deny_rule_stops_the_agent_before_it_starts(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    settings = write_settings(project, {"permissions": {"deny": ["Bash(curl:*)", "Bash(rm *"]}})
    with pytest.raises(SetupError) as caught:
        await build_agent(AgentOptions(cwd=str(project), no_session=True), stderr=io.StringIO())
    assert f"{settings}: permissions.deny[1]: bad rule 'Bash(rm *'" in str(caught.value)


async def test_an_unreadable_ask_rule_stops_the_agent_too(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    write_settings(project, {"permissions": {"ask": ["Edit("]}})
    with pytest.raises(SetupError, match=r"permissions\.ask\[0\]"):
        await build_agent(AgentOptions(cwd=str(project), no_session=True), stderr=io.StringIO())


async def test_an_unreadable_allow_rule_is_skipped_with_a_warning(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    settings = write_settings(project, {"permissions": {"allow": ["Bash(", "Read"]}})
    err = io.StringIO()
    bundle = await build_agent(
        AgentOptions(cwd=str(project), no_session=True, trust_project=True), stderr=err
    )
    bundle.agent.session.close()
    assert f"{settings}: permissions.allow[0]: bad rule 'Bash('" in err.getvalue()
    assert "rule skipped" in err.getvalue()


def test_the_cli_reports_a_bad_deny_rule_in_one_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    settings = write_settings(project, {"permissions": {"deny": ["Read(./.env"]}})
    code = main(["--cwd", str(project), "--no-session", "-p", "hi"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{settings}: permissions.deny[0]: bad rule" in err
    assert "Traceback" not in err


def test_web_and_custom_rules_never_touch_the_builtin_tools(tmp_path: Path) -> None:
    deny = ["WebFetch(domain:example.com)", "WebSearch", "Task(explore)", "deploy(prod)"]
    for tool, args in [("bash", {"command": "ls"}), ("read", {"path": "a"})]:
        check = decide("bypassPermissions", tool, args, tmp_path, deny=deny)
        assert check.decision == "allow", check


def test_a_custom_tool_rule_with_a_specifier_denies_the_whole_tool(tmp_path: Path) -> None:
    """hookline cannot read a custom tool's specifier, so a deny covers every use (fail closed)
    and an allow covers none."""
    assert decide("bypassPermissions", "deploy", {}, tmp_path, deny=["deploy(prod)"]).decision == (
        "deny"
    )
    assert decide("default", "deploy", {}, tmp_path, allow=["deploy(prod)"]).decision == "ask"
    assert decide("default", "deploy", {}, tmp_path, allow=["deploy"]).decision == "allow"


@pytest.mark.parametrize(
    ("rule", "tool", "hit"),
    [
        ("mcp__github", "mcp__github__create_issue", True),
        ("mcp__github__*", "mcp__github__create_issue", True),
        ("mcp__github__get_*", "mcp__github__get_issue", True),
        ("mcp__github__get_*", "mcp__github__create_issue", False),
        ("mcp__github__create_issue", "mcp__github__create_issue", True),
        ("mcp__github", "mcp__githubx__create_issue", False),
        ("mcp__git", "mcp__github__create_issue", False),
    ],
)
def test_mcp_rules(rule: str, tool: str, hit: bool, tmp_path: Path) -> None:
    assert PermissionRule.parse(rule).matches(describe_call(tool, {}, str(tmp_path))) is hit


def test_rules_name_claude_or_hookline_tools(tmp_path: Path) -> None:
    for rule in ("Grep", "grep"):
        assert decide(
            "bypassPermissions", "grep", {"pattern": "x"}, tmp_path, deny=[rule]
        ).decision == ("deny")
    assert decide(
        "bypassPermissions", "find", {"pattern": "x"}, tmp_path, deny=["Glob"]
    ).decision == ("deny")


def test_hookline_tool_names_read_as_claudes(tmp_path: Path) -> None:
    line = {"command": "curl x && ls"}
    check = decide("bypassPermissions", "bash", line, tmp_path, deny=["bash(curl:*)"])
    assert check.decision == "deny"
    ls_only = decide(
        "bypassPermissions", "bash", {"command": "ls"}, tmp_path, deny=["bash(curl:*)"]
    )
    assert ls_only.decision == "allow"
    edit = decide("bypassPermissions", "edit", {"path": "a"}, tmp_path, deny=["write(a)"])
    assert edit.decision == "deny"


def test_settings_json_round_trip_keeps_additional_directories(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / "extra").mkdir(parents=True)
    write_settings(project, {"permissions": {"additionalDirectories": ["extra", "~/x"]}})
    rules = PermissionRules.from_settings(load_settings(project))
    home = Path.home()
    assert rules.additional_directories == [str(project / "extra"), str(home / "x")]
    assert json.loads((project / ".claude" / "settings.json").read_text())
