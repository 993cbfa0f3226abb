"""``mcp_tool`` settings hooks against a real MCP server process written with the SDK.

The hook engine is given the session's ``McpServers`` (the ``McpToolCaller``
seam); nothing is faked: the tool runs in the server process and its text is
read as a command hook's stdout.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hookline.claude import ClaudeHooks, HookSource
from hookline.claude.mcp_hook import substitute
from hookline.claude.timeouts import default_timeout
from hookline.mcp import McpServers, parse_server
from hookline.settings.models import MatcherConfig, McpToolHookConfig
from hookline.settings.validate import check_hooks

SERVER = str(Path(__file__).with_name("mcp_server.py"))
BASH = {"tool_name": "Bash", "tool_input": {"command": "ls -la"}, "tool_use_id": "t1"}


@pytest.fixture
async def servers(tmp_path: Path) -> AsyncIterator[McpServers]:
    env = {"MCP_TEST_LOG": str(tmp_path / "notes.jsonl")}
    config = parse_server("demo", {"command": sys.executable, "args": [SERVER], "env": env}, "t")
    running = McpServers([config], cwd=os.getcwd())
    await running.start()
    yield running
    await running.close()


def mcp_tool(tool: str, server: str = "demo", **kw: Any) -> McpToolHookConfig:
    return McpToolHookConfig.model_validate(
        {"type": "mcp_tool", "server": server, "tool": tool, **kw}
    )


def engine(
    tmp_path: Path,
    event: str,
    *hooks: McpToolHookConfig,
    caller: McpServers | None,
    scope: str = "user",
    **kw: Any,
) -> ClaudeHooks:
    group = MatcherConfig(matcher=None, hooks=list(hooks))  # type: ignore[arg-type]
    source = HookSource(scope, Path("/u/.claude/settings.json"), {event: [group]})  # type: ignore[arg-type]
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return ClaudeHooks([source], project_dir=project, mcp_tools=caller, **kw)


def notes(tmp_path: Path) -> list[dict[str, str]]:
    path = tmp_path / "notes.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


# --- decisions ---------------------------------------------------------------------------


async def test_the_tools_json_text_is_the_decision(tmp_path: Path, servers: McpServers) -> None:
    hook = mcp_tool("gate", input={"command": "${tool_input.command}"})
    hooks = engine(tmp_path, "PreToolUse", hook, caller=servers)
    denied = await hooks.engine.run(
        "PreToolUse", {**BASH, "tool_input": {"command": "rm -rf /tmp/x"}}
    )
    (o,) = denied.outcomes
    assert (o.kind, o.hook_type) == ("blocking", "mcp_tool")
    assert denied.verdict.permission == "deny"
    assert denied.verdict.permission_reason == "gate says no to 'rm -rf /tmp/x'"
    allowed = await hooks.engine.run("PreToolUse", dict(BASH))
    assert allowed.outcomes[0].kind == "success"
    assert allowed.verdict.permission == "allow" and not allowed.verdict.blocked


async def test_plain_text_is_context_where_command_stdout_is(
    tmp_path: Path, servers: McpServers
) -> None:
    hook = mcp_tool("echo", input={"message": "remember the ${prompt}"})
    hooks = engine(tmp_path, "UserPromptSubmit", hook, caller=servers)
    run = await hooks.engine.run("UserPromptSubmit", {"prompt": "milk"})
    assert run.verdict.contexts == ["remember the milk"]


async def test_a_tool_error_is_a_non_blocking_error(tmp_path: Path, servers: McpServers) -> None:
    hooks = engine(tmp_path, "PreToolUse", mcp_tool("boom"), caller=servers)
    run = await hooks.engine.run("PreToolUse", dict(BASH))
    (o,) = run.outcomes
    assert (o.kind, o.reason) == (
        "non_blocking_error",
        "mcp_tool demo/boom: Error executing tool boom",
    )
    assert not run.verdict.blocked  # as Claude Code: a failing hook does not decide
    strict = engine(tmp_path, "PreToolUse", mcp_tool("boom", onFailure="block"), caller=servers)
    assert (await strict.engine.run("PreToolUse", dict(BASH))).verdict.blocked


async def test_a_deny_in_an_error_still_blocks(tmp_path: Path, servers: McpServers) -> None:
    hooks = engine(tmp_path, "PreToolUse", mcp_tool("deny_then_fail"), caller=servers)
    run = await hooks.engine.run("PreToolUse", dict(BASH))
    assert run.outcomes[0].kind == "blocking"
    assert (run.verdict.permission, run.verdict.permission_reason) == ("deny", "denied, then broke")


async def test_a_timeout_is_a_non_blocking_error_and_the_server_goes_on(
    tmp_path: Path, servers: McpServers
) -> None:
    hook = mcp_tool("slow", input={"seconds": 30}, timeout=0.5)
    hooks = engine(tmp_path, "PostToolUse", hook, caller=servers)
    (o,) = (await hooks.engine.run("PostToolUse", {**BASH, "tool_response": {}})).outcomes
    assert (o.kind, o.reason) == ("non_blocking_error", "mcp_tool demo/slow timed out after 0.5s")
    echo = engine(
        tmp_path, "PostToolUse", mcp_tool("echo", input={"message": "ok"}), caller=servers
    )
    (after,) = (await echo.engine.run("PostToolUse", {**BASH, "tool_response": {}})).outcomes
    assert (after.kind, after.stdout) == ("success", "ok")


# --- unreachable servers and tools --------------------------------------------------------


@pytest.mark.parametrize(
    ("hook", "why"),
    [
        (mcp_tool("gate", server="nowhere"), "MCP server 'nowhere' is not configured"),
        (mcp_tool("no_such_tool"), "MCP server 'demo' has no tool 'no_such_tool'"),
    ],
)
async def test_an_unreachable_tool_blocks_pre_tool_use_and_only_warns_elsewhere(
    tmp_path: Path, servers: McpServers, hook: McpToolHookConfig, why: str
) -> None:
    pre = await engine(tmp_path, "PreToolUse", hook, caller=servers).engine.run(
        "PreToolUse", dict(BASH)
    )
    (o,) = pre.outcomes
    assert o.kind == "blocking" and why in (o.reason or "") and "fails closed" in (o.reason or "")
    assert pre.verdict.blocked
    post = engine(tmp_path, "PostToolUse", hook, caller=servers)
    (p,) = (await post.engine.run("PostToolUse", {**BASH, "tool_response": {}})).outcomes
    assert p.kind == "non_blocking_error" and why in (p.reason or "")


async def test_a_gate_whose_server_dies_answering_blocks(
    tmp_path: Path, servers: McpServers
) -> None:
    hooks = engine(tmp_path, "PreToolUse", mcp_tool("die"), caller=servers)
    run = await hooks.engine.run("PreToolUse", dict(BASH))
    assert run.verdict.blocked
    assert "MCP server 'demo' went away during the call" in (run.verdict.reason or "")
    again = await hooks.engine.run("PreToolUse", dict(BASH))  # and stays closed afterwards
    assert again.verdict.blocked and "is not connected" in (again.verdict.reason or "")


async def test_a_server_name_must_match_exactly(tmp_path: Path, servers: McpServers) -> None:
    hooks = engine(tmp_path, "PreToolUse", mcp_tool("gate", server="Demo"), caller=servers)
    run = await hooks.engine.run("PreToolUse", dict(BASH))
    assert run.verdict.blocked and "'Demo' is not configured" in (run.verdict.reason or "")


async def test_without_servers_a_gate_fails_closed(tmp_path: Path) -> None:
    hooks = engine(tmp_path, "PreToolUse", mcp_tool("gate"), caller=None)
    run = await hooks.engine.run("PreToolUse", dict(BASH))
    assert run.verdict.blocked and "no MCP servers are connected" in (run.verdict.reason or "")


async def test_a_stopped_server_is_not_connected(tmp_path: Path, servers: McpServers) -> None:
    await servers.close()
    hooks = engine(tmp_path, "PreToolUse", mcp_tool("gate"), caller=servers)
    run = await hooks.engine.run("PreToolUse", dict(BASH))
    assert run.verdict.blocked and "MCP server 'demo' is not connected" in (
        run.verdict.reason or ""
    )


async def test_an_untrusted_projects_mcp_tool_hook_never_calls(
    tmp_path: Path, servers: McpServers
) -> None:
    hook = mcp_tool("note", input={"text": "ran"})
    hooks = engine(
        tmp_path, "PostToolUse", hook, caller=servers, scope="project", project_trusted=False
    )
    run = await hooks.engine.run("PostToolUse", {**BASH, "tool_response": {}})
    assert run.outcomes == [] and notes(tmp_path) == []
    trusted = engine(tmp_path, "PostToolUse", hook, caller=servers, scope="project")
    await trusted.engine.run("PostToolUse", {**BASH, "tool_response": {}})
    assert notes(tmp_path) == [{"text": "ran", "extra": ""}]


# --- substitution --------------------------------------------------------------------------


async def test_input_is_filled_from_the_hook_input(tmp_path: Path, servers: McpServers) -> None:
    hook = mcp_tool(
        "note",
        input={"text": "${tool_name}: ${tool_input.command}", "extra": "[${tool_input.nope}]"},
    )
    hooks = engine(tmp_path, "PreToolUse", hook, caller=servers)
    await hooks.engine.run("PreToolUse", {**BASH, "tool_input": {"command": "echo ${session_id}"}})
    # a missing field is '', and substituted text is not expanded again
    assert notes(tmp_path) == [{"text": "Bash: echo ${session_id}", "extra": "[]"}]


def test_substitution_walks_nested_values_and_list_indexes() -> None:
    payload = {"tool_input": {"edits": [{"file_path": "/a"}], "n": 3, "flag": True}, "x": None}
    value = {
        "list": ["${tool_input.edits.0.file_path}", "${tool_input.edits.5.file_path}"],
        "nested": {"n": "n=${tool_input.n}", "flag": "${tool_input.flag}", "x": "${x}"},
        "whole": "${tool_input.edits}",
        "number": 7,
    }
    assert substitute(value, payload) == {
        "list": ["/a", ""],
        "nested": {"n": "n=3", "flag": "true", "x": ""},
        "whole": '[{"file_path": "/a"}]',
        "number": 7,
    }


# --- settings ----------------------------------------------------------------------------


def test_settings_accept_mcp_tool_hooks_and_name_a_bad_one() -> None:
    good = {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": "${cwd}"}}
    checked = check_hooks({"Stop": [{"hooks": [good, {"type": "mcp_tool", "server": "s"}]}]})
    assert checked.value == {"Stop": [{"hooks": [good]}]}
    assert checked.warnings == ["hooks.Stop[0].hooks[1].tool: required, but missing; hook skipped"]


def test_the_default_timeout_is_a_minute_and_events_can_lower_it() -> None:
    hook = mcp_tool("t")
    assert default_timeout(hook, "PreToolUse", {}) == 60.0
    assert default_timeout(hook, "UserPromptSubmit", {}) == 30.0
    assert default_timeout(hook, "SessionEnd", {}) == 1.5


def test_the_same_call_in_two_files_runs_once_and_lists_as_server_tool(tmp_path: Path) -> None:
    same = mcp_tool("gate", input={"command": "${tool_input.command}"})
    other = mcp_tool("gate", input={"command": "${tool_input.description}"})
    groups = [MatcherConfig(matcher="Bash", hooks=[same, other])]  # type: ignore[list-item]
    sources = [
        HookSource("user", Path("/u.json"), {"PreToolUse": groups}),  # type: ignore[dict-item]
        HookSource("project", Path("/p.json"), {"PreToolUse": groups}),  # type: ignore[dict-item]
    ]
    hooks = ClaudeHooks(sources, project_dir=tmp_path)
    selection = hooks.engine.select("PreToolUse", "Bash")
    assert [h.describe() for h in selection.hooks] == ["mcp_tool: demo/gate"] * 2
    assert [h.spec for h in selection.hooks] == [same, other]
    assert len(selection.deduped) == 2


def test_hooks_list_and_explain_show_the_server_and_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hookline.cli import main

    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    gate = {"type": "mcp_tool", "server": "policy", "tool": "check", "input": {"c": "${cwd}"}}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [gate]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    assert main(["hooks", "list", "--cwd", str(project), "--trust-project"]) == 0
    listed = capsys.readouterr().out
    assert "mcp_tool: policy/check" in listed and "PreToolUse matcher 'Bash' — loaded" in listed
    args = ["hooks", "explain", "PreToolUse", "--tool", "Bash", "--cwd", str(project)]
    assert main([*args, "--trust-project"]) == 0
    explained = capsys.readouterr().out
    assert "- mcp_tool: policy/check (project:" in explained
    assert "— timeout 60 s" in explained
