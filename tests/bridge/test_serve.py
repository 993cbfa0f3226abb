"""`hookline serve`: hooks stay loaded; HTTP (real sockets) and JSON lines, as claude-hook."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from hookline.bridge.serve import parse_address

COUNTER = """
calls = []

def register(pi):
    @pi.on("tool_call")
    def count(event, ctx):
        calls.append(event.input.get("command"))
        if event.input.get("command", "").startswith("rm "):
            return {"block": True, "reason": f"no rm (call {len(calls)})"}
        if event.input.get("command") == "npm test":
            return {"input": {**event.input, "command": "pnpm test"}}
        return {"block": False, "reason": f"seen {len(calls)}"}

    @pi.on("stop")
    def fail(event, ctx):
        raise RuntimeError("stop hook broke")

    @pi.on("input")
    def where(event, ctx):
        if event.text == "where?":
            return {"handled": True} if ctx.cwd == "/srv/elsewhere" else None
"""


SERVE = [sys.executable, "-m", "hookline.cli", "serve"]


def _pre(command: str) -> dict[str, Any]:
    return {
        "session_id": "s",
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "t",
    }


@contextmanager
def serving(
    tmp_path: Path, *extra: str, env: dict[str, str] | None = None, address: str = "127.0.0.1:0"
) -> Iterator[int]:
    """Start `hookline serve --http ADDRESS`, yield its port, stop it."""
    hook = tmp_path / "counter.py"
    hook.write_text(COUNTER)
    proc = subprocess.Popen(
        [*SERVE, "--http", address, "--no-discovery", "--hook", str(hook), *extra],
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # blocks until the server says where it listens
        assert "listening on http://127.0.0.1:" in line, line
        # Keep reading stderr so the server never blocks on a full pipe.
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        yield int(line.rsplit(":", 1)[1])
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _post(port: int, body: Any, headers: dict[str, str] | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn.request("POST", "/hook", data, {"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    return response.status, text


def test_http_answers_like_claude_hook_and_keeps_state(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        status, body = _post(port, _pre("ls"))
        assert (status, json.loads(body)) == (200, {})
        status, body = _post(port, _pre("rm -rf /"))
        decision = json.loads(body)["hookSpecificOutput"]
        assert decision["permissionDecision"] == "deny"
        # The module stayed loaded: its list saw the first call too.
        assert decision["permissionDecisionReason"] == "no rm (call 2)"
        status, body = _post(port, _pre("npm test"))
        assert json.loads(body)["hookSpecificOutput"]["updatedInput"] == {"command": "pnpm test"}


def test_http_keep_alive_serves_many_requests_on_one_connection(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for n in range(1, 4):
            conn.request("POST", "/", json.dumps(_pre(f"rm {n}")))
            response = conn.getresponse()
            reason = json.loads(response.read())["hookSpecificOutput"]["permissionDecisionReason"]
            assert reason == f"no rm (call {n})"
        conn.close()


def test_ctx_cwd_follows_each_hook_input(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "where?"}
        assert json.loads(_post(port, {**prompt, "cwd": "/tmp"})[1]) == {}
        answer = json.loads(_post(port, {**prompt, "cwd": "/srv/elsewhere"})[1])
        assert answer["decision"] == "block"


def test_a_failing_hook_is_a_500_claude_shows_as_non_blocking(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        status, body = _post(port, {"hook_event_name": "Stop", "cwd": "/tmp"})
        assert status == 500
        assert "stop hook broke" in body


def test_bad_input_is_denied_not_allowed(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        for bad in (b"not json", b"[]", b'{"tool_name": "Bash"}'):
            status, body = _post(port, bad)
            assert status == 200
            assert json.loads(body)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_other_methods_are_refused_and_oversized_bodies_denied(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/hook")
        assert conn.getresponse().status == 405
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.putrequest("POST", "/hook")
        conn.putheader("Content-Length", str(64 * 1024 * 1024))
        conn.endheaders()
        response = conn.getresponse()  # a deny Claude Code reads (a 413 would let it run)
        assert response.status == 200
        decision = json.loads(response.read())["hookSpecificOutput"]
        assert decision["permissionDecision"] == "deny"
        conn.close()


def test_a_configured_token_is_required(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "HOOKLINE_SERVE_TOKEN": "s3cret"}
    with serving(tmp_path, env=env) as port:
        assert _post(port, _pre("rm x"))[0] == 401
        assert _post(port, _pre("rm x"), {"Authorization": "Bearer wrong"})[0] == 401
        assert _post(port, _pre("rm x"), {"Authorization": "Bearer s3cret0"})[0] == 401
        status, body = _post(port, _pre("rm x"), {"Authorization": "Bearer s3cret"})
        assert status == 200
        # Refused requests never reached the hook: this is its first call.
        assert (
            json.loads(body)["hookSpecificOutput"]["permissionDecisionReason"] == "no rm (call 1)"
        )
    with serving(tmp_path, "--token", "t0k") as port:
        assert _post(port, _pre("rm x"))[0] == 401
        assert _post(port, _pre("rm x"), {"Authorization": "Bearer t0k"})[0] == 200


@pytest.mark.parametrize(
    ("address", "extra", "message"),
    [
        ("0.0.0.0:0", [], "not a loopback address"),
        ("10.1.2.3:0", [], "not a loopback address"),
        ("example.com:0", [], "not a loopback address"),
        ("0.0.0.0:0", ["--allow-remote"], "needs a token"),
        ("127.0.0.1", [], "expected HOST:PORT"),
        ("127.0.0.1:99999", [], "expected HOST:PORT"),
        ("[::1:0", [], "expected HOST:PORT"),
        ("localhost:port", [], "expected HOST:PORT"),
    ],
)
def test_non_loopback_binds_are_refused(
    tmp_path: Path, address: str, extra: list[str], message: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "serve", "--http", address, *extra],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 2
    assert message in proc.stderr


def test_stdio_answers_json_lines_in_order(tmp_path: Path) -> None:
    hook = tmp_path / "counter.py"
    hook.write_text(COUNTER)
    requests = [
        {"id": 1, "input": _pre("ls")},
        {"id": "b", "input": _pre("rm -rf /")},
        "not json",
        {"id": 3, "input": {"hook_event_name": "Stop", "cwd": "/tmp"}},
    ]
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookline.cli",
            "serve",
            "--stdio",
            "--no-discovery",
            "--hook",
            str(hook),
        ],
        input=lines,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, "b", None, 3]
    assert replies[0]["output"] == {} and replies[0]["exit_code"] == 0
    assert (
        replies[1]["output"]["hookSpecificOutput"]["permissionDecisionReason"] == "no rm (call 2)"
    )
    assert replies[2]["output"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert replies[3]["exit_code"] == 1 and "stop hook broke" in replies[3]["stderr"]


def _raw(port: int, headers: dict[str, str], body: bytes) -> int:
    """POST with exactly ``headers`` (``Host`` too: http.client would add its own)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("POST", "/hook", skip_host=True, skip_accept_encoding=True)
    for name, value in {**headers, "Content-Length": str(len(body))}.items():
        conn.putheader(name, value)
    conn.endheaders(body)
    status = conn.getresponse().status
    conn.close()
    return status


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "127.0.0.1", "Origin": "https://evil.example"},
        {"Host": "127.0.0.1", "Origin": "null"},  # a sandboxed page or a file: URL
        {"Host": "evil.example:8377"},  # DNS rebinding: the name points at 127.0.0.1
        {"Host": "127.0.0.1.evil.example"},
        {"Host": "localhost.evil.example:1"},
        {"Host": "127.0.0.1:80@evil.example"},  # no name a browser sends: not read leniently
        {"Host": "[::1]evil.example"},
        {"Host": "[::1"},
        {},  # no Host at all
    ],
)
def test_requests_a_web_page_could_send_are_refused(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    with serving(tmp_path) as port:
        assert _raw(port, headers, json.dumps(_pre("rm x")).encode()) == 403
        status, body = _post(port, _pre("rm x"))
        assert status == 200
        # The refused request never reached the hook: this is its first call.
        reason = json.loads(body)["hookSpecificOutput"]["permissionDecisionReason"]
        assert reason == "no rm (call 1)"


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LocalHost:80", "[::1]:9", "127.9.9.9"])
def test_loopback_host_names_are_accepted(tmp_path: Path, host: str) -> None:
    with serving(tmp_path) as port:
        assert _raw(port, {"Host": host}, json.dumps(_pre("ls")).encode()) == 200


@pytest.mark.parametrize("address", ["0", ":0"])
def test_a_port_alone_listens_on_loopback(tmp_path: Path, address: str) -> None:
    with serving(tmp_path, address=address) as port:  # asserts "listening on 127.0.0.1"
        assert _post(port, _pre("ls")) == (200, "{}")


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("127.0.0.1:8377", ("127.0.0.1", 8377)),
        ("[::1]:9", ("::1", 9)),
        ("8377", ("127.0.0.1", 8377)),
        (":8377", ("127.0.0.1", 8377)),
        ("0.0.0.0:1", ("0.0.0.0", 1)),
    ],
)
def test_parse_address(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text) == address
