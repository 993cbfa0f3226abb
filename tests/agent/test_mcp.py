"""MCP tools under the same hooks and rules as the built-ins, in a real agent.

The server is a real process written with the MCP SDK (tests/mcp/mcp_server.py),
configured the way Claude Code users have it: ``.mcp.json`` in the project.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from hookline import McpNotificationEvent

from .conftest import MakeAgent
from .helpers import covers, texts

SERVER = str(Path(__file__).resolve().parents[1] / "mcp" / "mcp_server.py")


def _mcp_json(project: Path) -> None:
    servers = {"mcpServers": {"demo": {"command": sys.executable, "args": [SERVER]}}}
    (project / ".mcp.json").write_text(json.dumps(servers))


def _call(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": tool, "arguments": arguments}]}


BLOCK_ECHO = """
def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        if event.tool_name == "mcp__demo__echo" and "secret" in event.input.get("message", ""):
            return {"block": True, "reason": "no secrets to MCP servers"}
"""


async def test_an_mcp_tool_is_offered_and_runs(make_agent: MakeAgent, project: Path) -> None:
    _mcp_json(project)
    h = await make_agent([_call("mcp__demo__add", a=20, b=22), "done"])
    assert "mcp__demo__add" in h.agent.tools
    added = await h.agent.prompt("add")
    assert "42" in texts(added)[2]
    await h.agent.shutdown()


async def test_a_module_hook_blocks_an_mcp_tool(make_agent: MakeAgent, project: Path) -> None:
    _mcp_json(project)
    turns = [_call("mcp__demo__echo", message="the secret"), _call("mcp__demo__echo", message="hi")]
    h = await make_agent([*turns, "done"], hooks={"guard": BLOCK_ECHO})
    added = await h.agent.prompt("go")
    results = [m for m in added if m.get("role") == "tool"]
    assert results[0]["is_error"] and "no secrets to MCP servers" in texts([results[0]])[0]
    assert not results[1]["is_error"] and texts([results[1]])[0] == "hi"
    await h.agent.shutdown()


async def test_a_settings_matcher_selects_mcp_tools(
    make_agent: MakeAgent, project: Path, tmp_path: Path
) -> None:
    _mcp_json(project)
    log = tmp_path / "seen.jsonl"
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "mcp__demo__.*",
                    "hooks": [{"type": "command", "command": f"cat >> {log}; echo >> {log}"}],
                },
                {
                    "matcher": "mcp__demo__add",
                    "hooks": [{"type": "command", "command": "echo 'no adding' >&2; exit 2"}],
                },
            ]
        }
    }
    turns = [_call("mcp__demo__echo", message="x"), _call("mcp__demo__add", a=1, b=2), "ok"]
    h = await make_agent(turns, claude_settings=settings)
    added = await h.agent.prompt("go")
    seen = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert [s["tool_name"] for s in seen] == ["mcp__demo__echo", "mcp__demo__add"]
    assert seen[0]["tool_input"] == {"message": "x"}
    results = [m for m in added if m.get("role") == "tool"]
    assert not results[0]["is_error"]
    assert results[1]["is_error"] and "no adding" in texts([results[1]])[0]
    await h.agent.shutdown()


async def test_a_permission_rule_denies_an_mcp_tool(make_agent: MakeAgent, project: Path) -> None:
    _mcp_json(project)
    settings = {"permissions": {"deny": ["mcp__demo__echo"], "allow": ["mcp__demo"]}}
    turns = [_call("mcp__demo__echo", message="x"), _call("mcp__demo__add", a=1, b=2), "ok"]
    h = await make_agent(turns, claude_settings=settings, permission_mode="default")
    added = await h.agent.prompt("go")
    results = [m for m in added if m.get("role") == "tool"]
    assert results[0]["is_error"] and "mcp__demo__echo" in texts([results[0]])[0]
    assert not results[1]["is_error"] and texts([results[1]])[0] == "3"  # allowed by server
    await h.agent.shutdown()


async def test_a_server_crash_mid_session_is_reported_and_its_tools_go(
    make_agent: MakeAgent, project: Path
) -> None:
    _mcp_json(project)
    h = await make_agent([_call("mcp__demo__die"), _call("mcp__demo__add", a=1, b=1), "ok"])
    added = await h.agent.prompt("go")
    results = [m for m in added if m.get("role") == "tool"]
    assert results[0]["is_error"]
    # the next model call no longer offers the dead server's tools: the call is unknown
    assert results[1]["is_error"] and "unknown tool" in texts([results[1]])[0]
    assert "mcp__demo__add" not in h.agent.tools
    reported = h.stderr.getvalue()
    assert "MCP server demo" in reported and "stopped" in reported
    await h.agent.shutdown()


async def test_an_untrusted_projects_mcp_json_starts_nothing(
    make_agent: MakeAgent, project: Path
) -> None:
    _mcp_json(project)
    h = await make_agent(["hi"], trust_project=False)
    assert not any(name.startswith("mcp__") for name in h.agent.tools)
    await h.agent.shutdown()


GATE = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "mcp_tool",
                        "server": "demo",
                        "tool": "gate",
                        "input": {"command": "${tool_input.command}"},
                    }
                ],
            }
        ]
    }
}


async def test_an_mcp_tool_hook_gates_bash(make_agent: MakeAgent, project: Path) -> None:
    _mcp_json(project)
    turns = [_call("bash", command="rm -rf victim"), _call("bash", command="echo fine"), "ok"]
    (project / "victim").mkdir()
    h = await make_agent(turns, claude_settings=GATE)
    added = await h.agent.prompt("go")
    results = [m for m in added if m.get("role") == "tool"]
    assert results[0]["is_error"] and "gate says no to 'rm -rf victim'" in texts([results[0]])[0]
    assert (project / "victim").is_dir()
    assert not results[1]["is_error"] and texts([results[1]])[0].strip() == "fine"
    await h.agent.shutdown()


async def test_an_mcp_tool_gate_on_a_server_that_is_not_there_blocks(
    make_agent: MakeAgent, project: Path
) -> None:
    # the project's .mcp.json is not trusted, so its server never starts: the gate fails closed
    _mcp_json(project)
    home_settings = project.parent / "user-settings.json"
    home_settings.write_text(json.dumps(GATE))
    h = await make_agent(
        [_call("bash", command="echo hi"), "ok"],
        trust_project=False,
        settings_file=str(home_settings),
    )
    added = await h.agent.prompt("go")
    (result,) = [m for m in added if m.get("role") == "tool"]
    assert result["is_error"]
    assert "mcp_tool demo/gate: no MCP servers are connected" in texts([result])[0]
    await h.agent.shutdown()


@covers("mcp_notification")
async def test_server_notifications_reach_hooks_and_new_tools_are_callable(
    make_agent: MakeAgent, project: Path
) -> None:
    _mcp_json(project)
    turns = [_call("mcp__demo__grow"), _call("mcp__demo__late", x="y"), "done"]
    h = await make_agent(turns)
    assert "mcp__demo__late" not in h.agent.tools
    added = await h.agent.prompt("go")
    results = [m for m in added if m.get("role") == "tool"]
    assert texts(results) == ["grown", "late:y"]
    deadline = time.monotonic() + 30
    while len(h.events(McpNotificationEvent)) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)  # delivery runs beside the turn: wait for both to arrive
    logged, changed = h.events(McpNotificationEvent)
    assert (logged.server, logged.method) == ("demo", "notifications/message")
    assert logged.params is not None
    assert (logged.params["level"], logged.params["data"]) == ("info", "growing now")
    assert (changed.server, changed.method) == ("demo", "notifications/tools/list_changed")
    await h.agent.shutdown()
