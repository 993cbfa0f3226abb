"""MCP servers as tools, against real SDK servers: stdio processes and loopback HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from hookline.core.messages import content_text
from hookline.core.tool import ToolError
from hookline.mcp import McpServerConfig, McpServers, load_servers, parse_server

SERVER = str(Path(__file__).with_name("mcp_server.py"))


def stdio(name: str = "demo", **env: str) -> McpServerConfig:
    return parse_server(name, {"command": sys.executable, "args": [SERVER], "env": env}, "test")


@pytest.fixture
async def demo() -> AsyncIterator[tuple[McpServers, list[str]]]:
    problems: list[str] = []
    servers = McpServers([stdio()], cwd=os.getcwd(), on_problem=problems.append)
    await servers.start()
    yield servers, problems
    await servers.close()


async def test_a_stdio_servers_tools_are_named_mcp_server_tool(
    demo: tuple[McpServers, list[str]],
) -> None:
    servers, problems = demo
    assert problems == []
    tools = {t.name: t for t in servers.tools()}
    names = ("add", "echo", "boom", "die", "secret_env", "gate", "note", "slow", "grow")
    names += ("deny_then_fail",)
    assert set(tools) == {f"mcp__demo__{n}" for n in names}
    add = tools["mcp__demo__add"]
    assert add.parameters["required"] == ["a", "b"]  # the server's schema, sent to the model
    result = await add.execute("c1", {"a": 2, "b": 40}, None, None)
    assert content_text(result.content) == "42"
    assert result.details["server"] == "demo" and result.details["tool"] == "add"
    assert servers.status()[0].state == "connected"


async def test_a_tool_error_reaches_the_model_as_a_tool_error(
    demo: tuple[McpServers, list[str]],
) -> None:
    servers, _ = demo
    boom = next(t for t in servers.tools() if t.name == "mcp__demo__boom")
    with pytest.raises(ToolError, match="boom"):
        await boom.execute("c1", {}, None, None)
    # the server is still fine afterwards
    echo = next(t for t in servers.tools() if t.name == "mcp__demo__echo")
    assert content_text((await echo.execute("c2", {"message": "hi"}, None, None)).content) == "hi"


async def test_a_server_that_dies_mid_session_is_reported_and_its_tools_removed() -> None:
    problems: list[str] = []
    changed = asyncio.Event()
    servers = McpServers(
        [stdio()], cwd=os.getcwd(), on_problem=problems.append, on_change=changed.set
    )
    await servers.start()
    die = next(t for t in servers.tools() if t.name == "mcp__demo__die")
    with pytest.raises(ToolError, match="mcp__demo__die"):
        await die.execute("c1", {}, None, None)
    await asyncio.wait_for(changed.wait(), 30)
    assert servers.tools() == []
    assert servers.status()[0].state == "failed"
    assert any("MCP server demo" in p and "stopped" in p for p in problems), problems
    assert any("server going down" in p for p in problems), problems  # stderr quoted
    with pytest.raises(ToolError, match="not running"):
        await die.execute("c2", {}, None, None)
    await servers.close()


async def test_a_server_that_cannot_start_is_reported_not_raised(tmp_path: Path) -> None:
    problems: list[str] = []
    bad = parse_server("ghost", {"command": str(tmp_path / "no-such-binary")}, "proj/.mcp.json")
    servers = McpServers([bad, stdio()], cwd=str(tmp_path), on_problem=problems.append)
    await servers.start()
    assert [t.name for t in servers.tools()][:1] == ["mcp__demo__add"]
    assert len(problems) == 1 and "MCP server ghost (proj/.mcp.json) failed to start" in problems[0]
    await servers.close()


async def test_a_server_that_never_answers_times_out(tmp_path: Path) -> None:
    problems: list[str] = []
    silent = parse_server("mute", {"command": "sleep", "args": ["60"]}, "test")
    servers = McpServers([silent], cwd=str(tmp_path), on_problem=problems.append, connect_timeout=1)
    await servers.start()
    assert servers.tools() == [] and "no answer within 1 s" in problems[0]
    await servers.close()


async def test_the_server_env_is_passed_and_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FROM_OUTSIDE", "s3cret")
    config = parse_server(
        "demo",
        {
            "command": sys.executable,
            "args": [SERVER],
            "env": {"MCP_TEST_SECRET": "${FROM_OUTSIDE}"},
        },
        "test",
    )
    servers = McpServers([config], cwd=os.getcwd())
    await servers.start()
    tool = next(t for t in servers.tools() if t.name.endswith("secret_env"))
    assert content_text((await tool.execute("c", {}, None, None)).content) == "s3cret"
    await servers.close()


async def test_an_abort_stops_waiting_for_a_call(demo: tuple[McpServers, list[str]]) -> None:
    servers, _ = demo
    aborted = asyncio.Event()
    aborted.set()
    echo = next(t for t in servers.tools() if t.name == "mcp__demo__echo")
    with pytest.raises(ToolError, match="aborted"):
        await echo.execute("c", {"message": "x"}, aborted, None)


# --- streamable HTTP on loopback -------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def http_server() -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, SERVER, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "MCP_TEST_NAME": "web"},
    )
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:  # the event we need: the server says it is listening
        seen.append(line)
        if "Uvicorn running on" in line:
            break
    else:
        proc.kill()
        pytest.fail("the MCP HTTP server did not start: " + "".join(seen[-5:]))
    # keep reading its log so the pipe never fills
    threading.Thread(target=proc.stderr.read, daemon=True).start()
    yield f"http://127.0.0.1:{port}/mcp"
    proc.kill()
    proc.wait()


async def test_an_http_server_works_the_same(http_server: str) -> None:
    config = parse_server("web", {"type": "http", "url": http_server}, "test")
    problems: list[str] = []
    servers = McpServers([config], cwd=os.getcwd(), on_problem=problems.append)
    await servers.start()
    add = next(t for t in servers.tools() if t.name == "mcp__web__add")
    assert content_text((await add.execute("c", {"a": 1, "b": 2}, None, None)).content) == "3"
    assert problems == []
    await servers.close()


async def test_an_unreachable_http_server_is_reported(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_free_port()}/mcp"
    problems: list[str] = []
    config = parse_server("down", {"type": "http", "url": url}, "test")
    servers = McpServers([config], cwd=str(tmp_path), on_problem=problems.append)
    await servers.start()
    assert servers.tools() == [] and "MCP server down (test) failed to start" in problems[0]
    await servers.close()


# --- configuration -----------------------------------------------------------------------


def test_project_servers_load_only_when_the_project_is_trusted(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"proj": {"command": "x"}, "off": {"command": "y"}}})
    )
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"user": {"command": "u"}}}))
    untrusted, _ = load_servers(str(tmp_path), project_trusted=False, home=str(home))
    assert [s.name for s in untrusted] == ["user"]
    trusted, problems = load_servers(
        str(tmp_path),
        project_trusted=True,
        home=str(home),
        settings_servers={"fromsettings": {"type": "http", "url": "http://127.0.0.1:1/mcp"}},
        disabled=frozenset({"off"}),
    )
    assert [s.name for s in trusted] == ["user", "fromsettings", "proj"] and problems == []


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"command": ""}, "mcpServers.s.command: a stdio server needs a command"),
        ({"command": "x", "args": "a b"}, "mcpServers.s.args: expected a list of strings"),
        ({"type": "http", "url": "ftp://x"}, "mcpServers.s.url: an http server needs"),
        ({"type": "sse", "url": "http://x"}, "the sse transport is not supported"),
        ({"type": "ws"}, "expected stdio or http, got 'ws'"),
        ({"command": "${NOPE_NOT_SET}"}, "${NOPE_NOT_SET} is not set"),
        ([], "mcpServers.s: expected an object"),
    ],
)
def test_a_bad_entry_names_its_file_and_key(entry: object, message: str) -> None:
    from hookline.mcp import parse_servers

    servers, problems = parse_servers({"s": entry, "ok": {"command": "x"}}, "a/.mcp.json", {})
    assert [s.name for s in servers] == ["ok"]  # the good one still loads
    assert len(problems) == 1 and problems[0].startswith("a/.mcp.json: ") and message in problems[0]


def test_names_are_sanitised_and_overlong_ones_left_out() -> None:
    from hookline.mcp import tool_name

    server = parse_server("my server.v2", {"command": "x"}, "t")
    assert tool_name(server, "get") == "mcp__my_server_v2__get"
    assert tool_name(server, "x" * 200) is None
    defaulted = parse_server("s", {"command": "${MISSING:-fallback}"}, "t", {})
    assert defaulted.command == "fallback"


def test_a_corrupt_mcp_json_is_reported_and_skipped(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text("{not json")
    servers, problems = load_servers(str(tmp_path), project_trusted=True, home=str(tmp_path))
    assert servers == [] and "cannot be read as JSON" in problems[0]


async def test_notifications_arrive_in_order_and_a_tools_change_is_in_before_the_reply() -> None:
    seen: list[tuple[str, str, object]] = []
    both = asyncio.Event()

    async def listener(server: str, method: str, params: dict[str, object] | None) -> None:
        seen.append((server, method, params))
        if len(seen) == 2:
            both.set()

    servers = McpServers([stdio()], cwd=os.getcwd(), on_notification=listener)
    await servers.start()
    grow = next(t for t in servers.tools() if t.name == "mcp__demo__grow")
    assert "mcp__demo__late" not in {t.name for t in servers.tools()}
    await grow.execute("c1", {}, None, None)
    # the reply comes once the new list is in: the next model turn is offered the tool
    late = next(t for t in servers.tools() if t.name == "mcp__demo__late")
    assert content_text((await late.execute("c2", {"x": "z"}, None, None)).content) == "late:z"
    await asyncio.wait_for(both.wait(), 30)
    assert [(s, m) for s, m, _ in seen] == [
        ("demo", "notifications/message"),
        ("demo", "notifications/tools/list_changed"),
    ]
    assert seen[0][2] == {"level": "info", "data": "growing now"}
    await servers.close()
