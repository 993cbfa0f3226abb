"""`hookline serve` never fails open: every request gets an answer Claude Code blocks on
(a PreToolUse deny) however bad its input or however stuck a hook, and the server keeps
answering. Real sockets for --http, real pipes for --stdio.
"""

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

SERVE = [sys.executable, "-m", "hookline.cli", "serve"]

HOOK = """
import time

def register(pi):
    @pi.on("tool_call")
    def guard(event, ctx):
        command = event.input.get("command", "")
        if command == "spin":
            while True:
                pass
        if command == "swallow":
            while True:
                try:
                    time.sleep(10**6)
                except BaseException:
                    pass
        if command.startswith("rm "):
            return {"block": True, "reason": "no rm"}
"""


def _pre(command: Any, cwd: str = "/tmp", event: str = "PreToolUse") -> dict[str, Any]:
    return {
        "session_id": "s",
        "cwd": cwd,
        "hook_event_name": event,
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "t",
    }


def _deep(depth: int) -> bytes:
    text = json.dumps(_pre("x")).replace('"command": "x"', '"a": ' + "[" * depth + "]" * depth)
    return text.encode()


def _denied(answer: dict[str, Any]) -> bool:
    """A PreToolUse deny as Claude Code reads an http hook's body (a JSON decision)."""
    specific = answer.get("hookSpecificOutput", {})
    return specific.get("hookEventName") == "PreToolUse" and specific.get("permissionDecision") == (
        "deny"
    )


@contextmanager
def serving(cwd: Path, *extra: str) -> Iterator[tuple[int, list[str]]]:
    """``hookline serve --http 127.0.0.1:0 EXTRA``: its port and its stderr lines so far."""
    proc = subprocess.Popen(
        [*SERVE, "--http", "127.0.0.1:0", *extra], stderr=subprocess.PIPE, text=True, cwd=cwd
    )
    said: list[str] = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            said.append(line)
            if "listening on" in line:
                break
        stderr = proc.stderr
        threading.Thread(target=lambda: said.extend(stderr), daemon=True).start()
        yield int(said[-1].rsplit(":", 1)[1]), said
    finally:
        proc.kill()
        proc.wait(timeout=30)


def _post(conn: http.client.HTTPConnection, body: bytes | dict[str, Any]) -> dict[str, Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn.request("POST", "/hook", data, {"Content-Type": "application/json"})
    response = conn.getresponse()
    text = response.read().decode()
    assert response.status == 200, (response.status, text)
    return json.loads(text) if text else {}


def _connect(port: int) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=60)


BAD_BODIES = [
    _deep(2_000),
    _deep(100_000),
    b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"n": NaN}}',
    b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"c": "\\udc00"}}',
    b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"c": "\xff"}}',
    b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": []}',
    b"[[[[",
]


def test_http_denies_every_bad_input_and_keeps_serving(tmp_path: Path) -> None:
    (tmp_path / "guard.py").write_text(HOOK)
    with serving(tmp_path, "--no-discovery", "--hook", "guard.py") as (port, _):
        conn = _connect(port)
        for body in BAD_BODIES:
            assert _denied(_post(conn, body)), body[:80]
        # Same connection, then a new one: still serving, the hook still deciding.
        assert _post(conn, _pre("rm -rf /"))["hookSpecificOutput"]["permissionDecision"] == ("deny")
        assert _post(_connect(port), _pre("ls")) == {}


def test_http_denies_a_body_of_megabytes_it_reads_and_drops(tmp_path: Path) -> None:
    (tmp_path / "guard.py").write_text(HOOK)
    with serving(tmp_path, "--no-discovery", "--hook", "guard.py") as (port, _):
        big = json.dumps(_pre("x" * (9 * 1024 * 1024))).encode()
        assert _denied(_post(_connect(port), big))
        assert _post(_connect(port), _pre("rm x"))["hookSpecificOutput"]["permissionDecision"] == (
            "deny"
        )


@pytest.mark.parametrize("how", ["spin", "swallow"])
def test_http_denies_a_stuck_handler_and_answers_the_next_requests(
    tmp_path: Path, how: str
) -> None:
    (tmp_path / "guard.py").write_text(HOOK)
    # 3 s, not less: the abandoned handler keeps spinning and shares the GIL with the
    # requests after it, on a machine that may be busy.
    extra = ("--no-discovery", "--hook", "guard.py", "--timeout", "3")
    with serving(tmp_path, *extra) as (port, said):
        answer = _post(_connect(port), _pre(how))
        assert _denied(answer)
        assert "no answer within 3 s" in answer["hookSpecificOutput"]["permissionDecisionReason"]
        # While that handler still runs, later requests are answered by the hooks.
        rm = _post(_connect(port), _pre("rm x"))
        assert rm["hookSpecificOutput"]["permissionDecisionReason"] == "no rm"
        assert _post(_connect(port), _pre("ls")) == {}
    assert any("abandoned" in line for line in said)


def test_http_in_an_untrusted_project_denies_and_tells_once(tmp_path: Path) -> None:
    hooks = tmp_path / ".hookline" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "guard.py").write_text(HOOK)
    with serving(tmp_path) as (port, _):
        conn = _connect(port)
        answer = _post(conn, _pre("ls", str(tmp_path)))
        assert _denied(answer)
        reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
        assert f"hookline trust {tmp_path}" in reason
        start = {"hook_event_name": "SessionStart", "cwd": str(tmp_path), "source": "startup"}
        assert f"hookline trust {tmp_path}" in _post(conn, start)["systemMessage"]
        assert "systemMessage" not in _post(conn, start)  # once per server run
        assert _denied(_post(conn, _pre("ls", str(tmp_path))))  # but every call denied


def test_http_allow_untrusted_skip_lets_calls_through(tmp_path: Path) -> None:
    hooks = tmp_path / ".hookline" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "guard.py").write_text(HOOK)
    with serving(tmp_path, "--allow-untrusted-skip") as (port, said):
        assert _post(_connect(port), _pre("rm -rf /", str(tmp_path))) == {}
    assert any("skipped" in line and "let through" in line for line in said)


# -- stdio ------------------------------------------------------------------------------


def _stdio(cwd: Path, lines: list[bytes], *extra: str) -> tuple[list[dict[str, Any]], str]:
    proc = subprocess.run(
        [*SERVE, "--stdio", "--no-session", "--no-discovery", *extra],
        input=b"".join(line + b"\n" for line in lines),
        capture_output=True,
        cwd=cwd,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    return [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr.decode()


def test_stdio_answers_every_line_after_bad_ones(tmp_path: Path) -> None:
    (tmp_path / "guard.py").write_text(HOOK)
    bad = [b'{"id": %d, "input": %s}' % (i, body) for i, body in enumerate(BAD_BODIES)]
    good = json.dumps({"id": "last", "input": _pre("rm x")}).encode()
    replies, stderr = _stdio(tmp_path, [*bad, _deep(100_000), good], "--hook", "guard.py")
    assert len(replies) == len(bad) + 2
    for reply in replies[:-1]:
        assert _denied(reply["output"]) or reply["result"]["block"], reply
    assert replies[-1]["id"] == "last"
    assert replies[-1]["output"]["hookSpecificOutput"]["permissionDecisionReason"] == "no rm"
    assert "Traceback" not in stderr


def test_stdio_denies_a_stuck_handler_and_answers_later_lines(tmp_path: Path) -> None:
    (tmp_path / "guard.py").write_text(HOOK)
    (tmp_path / "settings.json").write_text(json.dumps({"hookTimeout": 3000}))
    lines = [
        json.dumps({"id": i, "input": _pre(c)}).encode()
        for i, c in enumerate(["spin", "rm x", "ls"])
    ]
    replies, stderr = _stdio(tmp_path, lines, "--hook", "guard.py", "--settings", "settings.json")
    assert [r["id"] for r in replies] == [0, 1, 2]
    assert _denied(replies[0]["output"])
    assert replies[1]["output"]["hookSpecificOutput"]["permissionDecisionReason"] == "no rm"
    assert replies[2]["output"] == {}
    assert "abandoned" in stderr


@pytest.mark.parametrize("allow", [False, True])
def test_stdio_in_an_untrusted_project_blocks_both_hosts_tool_calls(
    tmp_path: Path, allow: bool
) -> None:
    hooks = tmp_path / ".hookline" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "guard.py").write_text(HOOK)
    pi_call = {"toolName": "bash", "toolCallId": "c1", "input": {"command": "ls"}}
    lines = [
        json.dumps({"id": 1, "type": "tool_call", "data": pi_call}).encode(),
        json.dumps({"id": 2, "input": _pre("ls", str(tmp_path))}).encode(),
    ]
    extra = ["--allow-untrusted-skip"] if allow else []
    proc = subprocess.run(
        [*SERVE, "--stdio", "--no-session", "--cwd", str(tmp_path), *extra],
        input=b"".join(line + b"\n" for line in lines),
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    pi, claude = (json.loads(line) for line in proc.stdout.splitlines())
    if allow:
        assert pi["result"] is None
        assert claude["output"] == {}
    else:
        assert pi["result"]["block"] is True
        assert f"hookline trust {tmp_path}" in pi["result"]["reason"]
        assert _denied(claude["output"])


def test_stdio_refuses_a_line_over_its_limit_in_both_shapes(tmp_path: Path) -> None:
    """A line too long to read (64 MiB) is dropped unread: still a deny for a Claude
    PreToolUse and a block for a pi tool_call, and the next line is answered."""
    (tmp_path / "guard.py").write_text(HOOK)
    huge = json.dumps({"id": 1, "input": _pre("x" * (65 * 1024 * 1024))}).encode()
    good = json.dumps({"id": 2, "input": _pre("rm x")}).encode()
    replies, _ = _stdio(tmp_path, [huge, good], "--hook", "guard.py")
    assert _denied(replies[0]["output"])
    assert replies[0]["result"]["block"] is True
    assert replies[1]["output"]["hookSpecificOutput"]["permissionDecisionReason"] == "no rm"
