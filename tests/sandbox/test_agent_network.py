"""The sandbox's network through the real agent: the proxy hookline runs for each session,
judged by what a loopback server outside the sandbox saw.

Print/JSON mode has no UI, so an unlisted host is refused; allowedDomains (or a
``WebFetch(domain:…)`` allow rule) lets it through; bypassPermissions lets an unlisted host
through but never a denied one. Under ``--mode rpc`` the host answers the question, and
"Always allow for this project" is written where the next run reads it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.modes.helpers import RpcClient, write_script
from tests.sandbox.helpers import needs_bwrap, write_settings
from tests.sandbox.test_agent import outcome, run

pytestmark = needs_bwrap


class _Seen(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.server.paths.append(self.path)  # type: ignore[attr-defined]
        body = b"reached\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    """A loopback HTTP server outside the sandbox; ``server.paths`` is what reached it."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Seen)
    httpd.paths = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _curl(server: ThreadingHTTPServer, path: str) -> str:
    port = server.server_address[1]
    return f"curl -s -o /dev/null -w '%{{http_code}}' http://127.0.0.1:{port}{path}"


def _seen(server: ThreadingHTTPServer) -> list[str]:
    return list(server.paths)  # type: ignore[attr-defined]


def test_an_unlisted_host_is_refused_without_a_ui(
    project: Path, server: ThreadingHTTPServer
) -> None:
    write_settings(project, {"sandbox": {"enabled": True}})
    code, events, err = run(project, [_curl(server, "/unlisted")], "--trust-project")
    assert code == 0, err
    status, text = outcome(events, "c0")
    assert status == "ran" and "403" in text
    assert "<sandbox_violations>" in text and "127.0.0.1" in text
    assert any(e["type"] == "sandbox_violation" for e in events)
    assert _seen(server) == []


def test_a_direct_connection_never_leaves_the_sandbox(
    project: Path, server: ThreadingHTTPServer
) -> None:
    write_settings(
        project, {"sandbox": {"enabled": True, "network": {"allowedDomains": ["127.0.0.1"]}}}
    )
    port = server.server_address[1]
    lines = [
        f"curl -s --noproxy '*' --max-time 5 http://127.0.0.1:{port}/direct; echo rc=$?",
        f"exec 3<>/dev/tcp/127.0.0.1/{port}; echo rc=$?",
    ]
    code, _events, err = run(project, lines, "--trust-project")
    assert code == 0, err
    assert _seen(server) == []


@pytest.mark.parametrize(
    "settings",
    [
        {"sandbox": {"enabled": True, "network": {"allowedDomains": ["127.0.0.1"]}}},
        {"sandbox": {"enabled": True}, "permissions": {"allow": ["WebFetch(domain:127.0.0.1)"]}},
    ],
    ids=["allowedDomains", "WebFetch-rule"],
)
def test_a_listed_host_is_reached_through_the_proxy(
    project: Path, server: ThreadingHTTPServer, settings: dict[str, Any]
) -> None:
    write_settings(project, settings)
    code, events, err = run(project, [_curl(server, "/listed")], "--trust-project")
    assert code == 0, err
    status, text = outcome(events, "c0")
    assert status == "ran" and "200" in text
    assert _seen(server) == ["/listed"]


def test_bypass_lets_an_unlisted_host_through_but_never_a_denied_one(
    project: Path, server: ThreadingHTTPServer
) -> None:
    write_settings(project, {"sandbox": {"enabled": True}})
    bypass = ("--permission-mode", "bypassPermissions", "--trust-project")
    code, events, err = run(project, [_curl(server, "/bypass")], *bypass)
    assert code == 0, err
    assert _seen(server) == ["/bypass"]
    write_settings(
        project, {"sandbox": {"enabled": True, "network": {"deniedDomains": ["127.0.0.1"]}}}
    )
    code, events, err = run(project, [_curl(server, "/denied")], *bypass)
    assert code == 0, err
    assert "403" in outcome(events, "c0")[1]
    assert _seen(server) == ["/bypass"]


async def test_always_allow_over_rpc_is_remembered_for_the_next_run(
    project: Path, server: ThreadingHTTPServer
) -> None:
    write_settings(project, {"sandbox": {"enabled": True}})
    calls = [{"id": "c0", "name": "bash", "arguments": {"command": _curl(server, "/asked")}}]
    model = write_script(
        project.parent / "script.json", [{"text": "", "tool_calls": calls}, {"text": "done"}]
    )
    args = ("--model", model, "--trust-project", "--no-session")
    async with RpcClient(*args, cwd=project) as client:
        await client.send({"type": "prompt", "message": "go", "id": "p"})
        lines = await client.read_until(
            lambda m: m.get("type") == "extension_ui_request" and m.get("method") == "select"
        )
        request = lines[-1]
        assert "127.0.0.1" in request["title"]
        await client.send(
            {
                "type": "extension_ui_response",
                "id": request["id"],
                "value": "Always allow for this project",
            }
        )
        await client.read_until(lambda m: m.get("type") == "agent_end")
        assert await client.close_stdin() == 0
    assert _seen(server) == ["/asked"]
    local = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert "WebFetch(domain:127.0.0.1)" in local["permissions"]["allow"]
    # the next run, with no UI to ask, reaches the host by that rule
    code, _events, err = run(project, [_curl(server, "/again")], "--trust-project")
    assert code == 0, err
    assert _seen(server) == ["/asked", "/again"]
