"""A session's sandboxed calls share one network namespace and one forwarder — and
nothing else: each call still ends its own processes, and without ``nsenter`` every call
gets a forwarder of its own. Judged by what a loopback server outside saw."""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hookline.core.tool import ToolError
from hookline.sandbox.launcher import Sandbox
from hookline.sandbox.network import DomainPolicy, NetworkProxy
from hookline.tools.bash import create_bash_tool
from hookline.tools.leftovers import ToolLeftovers
from tests.sandbox.helpers import BWRAP, config_for, needs_bwrap
from tests.sandbox.net_helpers import HttpServer, http_server

pytestmark = needs_bwrap


@pytest.fixture
async def server() -> AsyncIterator[HttpServer]:
    async with http_server() as state:
        yield state


async def _run(tool: object, command: str) -> str:
    try:
        result = await tool.execute("t", {"command": command})  # type: ignore[attr-defined]
    except ToolError as exc:
        return str(exc)
    return "".join(part["text"] for part in result.content)


def _sandbox(project: Path, *, shared: bool) -> tuple[Sandbox, NetworkProxy]:
    assert BWRAP is not None
    proxy = NetworkProxy(DomainPolicy(allowed=("127.0.0.1",)))
    sandbox = Sandbox(config_for(project), bwrap=BWRAP, proxy=proxy)
    if not shared:
        sandbox.shared = None  # as on a machine without nsenter
    return sandbox, proxy


@pytest.mark.parametrize("shared", [True, False], ids=["shared", "per-call"])
async def test_every_call_reaches_an_allowed_host_and_nothing_else(
    tmp_path: Path, server: HttpServer, shared: bool
) -> None:
    sandbox, proxy = _sandbox(tmp_path, shared=shared)
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(tmp_path), sandbox=sandbox, leftovers=leftovers)
    url = f"http://127.0.0.1:{server.port}"
    try:
        for i in range(3):
            text = await _run(tool, f"curl -s {url}/call{i}")
            assert f"ok /call{i}" in text
        assert (await _run(tool, "id -u; id -g")).split()[:2] == [
            str(os.getuid()),
            str(os.getgid()),
        ]  # the command keeps the user's ids, in both forms
        direct = await _run(tool, f"curl -s --noproxy '*' --max-time 3 {url}/direct; echo rc=$?")
        assert "rc=0" not in direct
        if shared:
            assert sandbox.shared is not None and sandbox.shared.running
    finally:
        leftovers.close()
        sandbox.close()
        await proxy.aclose()
    assert server.requests == ["GET /call0", "GET /call1", "GET /call2"]


async def test_a_call_ends_its_processes_and_the_session_ends_the_forwarder(
    tmp_path: Path, server: HttpServer
) -> None:
    sandbox, proxy = _sandbox(tmp_path, shared=True)
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(tmp_path), sandbox=sandbox, leftovers=leftovers)
    try:
        # a listener left by one call would be reachable from the next one
        started = await _run(
            tool,
            "python3 -m http.server 8123 >/dev/null 2>&1 & "
            "for i in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/8123) 2>/dev/null "
            "&& echo up && break; sleep 0.05; done",
        )
        assert "up" in started  # it listened in the shared namespace
        text = await _run(tool, "exec 3<>/dev/tcp/127.0.0.1/8123 && echo reached || echo gone")
        assert "gone" in text
        assert sandbox.shared is not None and sandbox.shared.running
        process = sandbox.shared._process
        assert process is not None
    finally:
        leftovers.close()
        sandbox.close()
        await proxy.aclose()
    assert process.returncode == -signal.SIGKILL  # ended and reaped with the session


async def test_a_refusal_is_reported_to_the_call_that_made_it(
    tmp_path: Path, server: HttpServer
) -> None:
    assert BWRAP is not None
    proxy = NetworkProxy(DomainPolicy())
    seen: list[object] = []
    sandbox = Sandbox(config_for(tmp_path), bwrap=BWRAP, proxy=proxy, on_violation=seen.append)
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(tmp_path), sandbox=sandbox, leftovers=leftovers)
    try:
        first = await _run(tool, f"curl -s http://127.0.0.1:{server.port}/no")
        second = await _run(tool, "true")
    finally:
        leftovers.close()
        sandbox.close()
        await proxy.aclose()
    assert "<sandbox_violations>" in first and "<sandbox_violations>" not in second
    assert len(seen) == 1 and server.requests == []
