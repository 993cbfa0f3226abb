"""`POST /pi`: pi's extension events over HTTP answer what `hookline serve --stdio` answers,
with the hooks the server loaded for Claude Code too (one state for both hosts)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from .server import SERVE, decision, pre, serving

RULES = """
calls = []

def register(pi):
    @pi.on("tool_call")
    async def block(event, ctx):
        calls.append(1)
        if "rm " in event.input.get("command", ""):
            return {"block": True, "reason": f"no rm here (call {len(calls)})"}
        if event.input.get("command") == "ls":
            return {"input": {"command": "ls -la"}}

    @pi.on("tool_result")
    async def redact(event, ctx):
        if "secret" in event.content[0]["text"]:
            return {"content": [{"type": "text", "text": "REDACTED"}]}
        if "odd" in event.content[0]["text"]:
            return {"details": {"seen": Ellipsis, "when": {1, 2}}}

    @pi.on("input")
    def quick(event, ctx):
        if event.text == "ping":
            return {"handled": True}
        if event.text.startswith("?quick "):
            return {"text": "Respond briefly: " + event.text[7:]}

    @pi.on("before_agent_start")
    async def system(event, ctx):
        ctx.set_system_prompt(event.system_prompt + " RULE")
"""


def _call(command: str) -> dict[str, Any]:
    return {"toolName": "bash", "toolCallId": "c1", "input": {"command": command}}


REQUESTS: list[Any] = [
    {"id": 1, "type": "session_start", "data": {"reason": "startup"}},
    {"id": 2, "type": "tool_call", "data": _call("rm -rf /")},
    {"id": 3, "type": "tool_call", "data": _call("ls")},
    {"id": 4, "type": "tool_call", "data": _call("pwd")},
    {
        "id": 5,
        "type": "tool_result",
        "data": {**_call("cat"), "content": [{"type": "text", "text": "a secret"}]},
    },
    {
        "id": 55,
        "type": "tool_result",
        "data": {**_call("cat"), "content": [{"type": "text", "text": "odd"}]},
    },
    {"id": 6, "type": "input", "data": {"text": "?quick hi", "source": "rpc"}},
    {"id": 7, "type": "input", "data": {"text": "ping", "source": "rpc"}},
    {"id": 8, "type": "before_agent_start", "data": {"prompt": "p", "systemPrompt": "S"}},
    {"id": 9, "type": "before_agent_start", "data": {"prompt": "p", "systemPrompt": "T"}},
    {"id": 10, "type": "tool_call", "data": {"input": {}}},
    {"id": 11, "type": "warp", "data": {}},
    "not json",
    [1, 2],
]


def _stdio(tmp_path: Path) -> list[dict[str, Any]]:
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in REQUESTS)
    done = subprocess.run(
        [*SERVE, "--stdio", "--no-session", "--no-discovery", "--hook", "rules.py"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_pi_events_over_http_answer_as_stdio_does(tmp_path: Path) -> None:
    (tmp_path / "rules.py").write_text(RULES)
    expected = _stdio(tmp_path)
    with serving(tmp_path, "--no-discovery", "--hook", "rules.py") as served:
        answers = []
        for request in REQUESTS:
            body = request.encode() if isinstance(request, str) else request
            answers.append(served.post("/pi", body))
    # stdio also refuses a line that is no pi event in Claude Code's shape: compare pi's.
    assert [{k: a.get(k) for k in ("id", "result")} for a in answers] == [
        {k: a.get(k) for k in ("id", "result")} for a in expected
    ]
    assert [("error" in a) for a in answers] == [("error" in a) for a in expected]
    results = {a["id"]: a.get("result") for a in answers}
    assert results[2] == {"block": True, "reason": "no rm here (call 1)"}
    assert set(results[55]["details"]) == {"seen", "when"}  # not JSON: shown, not fatal
    assert results[8] == {"systemPrompt": "S RULE"}
    assert results[9] == {"systemPrompt": "T RULE"}  # nothing of the last event's prompt
    assert "error" in answers[-2]  # not JSON: pi's bridge blocks a tool call on an error


def test_claude_and_pi_share_the_loaded_hooks(tmp_path: Path) -> None:
    (tmp_path / "rules.py").write_text(RULES)
    with serving(tmp_path, "--no-discovery", "--hook", "rules.py") as served:
        pi = served.post("/pi", {"id": 1, "type": "tool_call", "data": _call("rm a")})
        assert pi["result"]["reason"] == "no rm here (call 1)"
        assert decision(served.post("/", pre("rm b"))) == ("deny", "no rm here (call 2)")
        pi = served.post("/pi", {"id": 2, "type": "tool_call", "data": _call("rm c")})
        assert pi["result"]["reason"] == "no rm here (call 3)"


def test_pi_tool_calls_are_blocked_while_a_hook_module_is_broken(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def register(pi):\n    raise RuntimeError('no')\n")
    with serving(tmp_path, "--no-discovery", "--hook", "broken.py") as served:
        answer = served.post("/pi", {"id": 1, "type": "tool_call", "data": _call("ls")})
        assert answer["result"]["block"] is True
        assert "broken.py" in answer["result"]["reason"]


def test_a_pi_body_over_the_limit_is_a_block(tmp_path: Path) -> None:
    (tmp_path / "rules.py").write_text(RULES)
    with serving(tmp_path, "--no-discovery", "--hook", "rules.py") as served:
        huge = {"id": 1, "type": "tool_call", "data": _call("x" * (9 * 1024 * 1024))}
        answer = served.post("/pi", huge)
        assert answer["result"]["block"] is True and "larger than" in answer["error"]
        answer = served.post("/pi", {"id": 2, "type": "tool_call", "data": _call("rm x")})
        assert answer["result"]["reason"] == "no rm here (call 1)"


def test_a_reason_that_is_not_utf_8_text_still_blocks(tmp_path: Path) -> None:
    """A name read from the disk can hold an undecodable byte (``\\udcff`` by
    surrogateescape): the block must still reach pi, as JSON."""
    (tmp_path / "odd.py").write_text(
        "def register(pi):\n"
        "    @pi.on('tool_call')\n"
        "    def block(event, ctx):\n"
        "        name = b'f\\xff'.decode('utf-8', 'surrogateescape')\n"
        "        return {'block': True, 'reason': 'no rm of ' + name}\n"
    )
    with serving(tmp_path, "--no-discovery", "--hook", "odd.py") as served:
        answer = served.post("/pi", {"id": 1, "type": "tool_call", "data": _call("rm f")})
        assert answer["result"] == {"block": True, "reason": "no rm of f\udcff"}


async def test_a_pi_request_that_cannot_be_answered_is_answered_as_pi_reads_it() -> None:
    """Whatever fails on /pi, the answer is pi's shape with a block: a Claude Code deny
    there has no ``error`` or ``result`` and pi's bridge would run the tool."""
    from hookline.bridge.app import HookApp
    from hookline.bridge.guard import Guard

    class Failing:
        async def answer_pi(self, body: bytes) -> dict[str, Any]:
            raise RuntimeError("the hooks' thread is gone")

    app = HookApp(None, Guard([], remote=False))  # type: ignore[arg-type]
    app._service = Failing()  # type: ignore[assignment]
    body = json.dumps({"id": 1, "type": "tool_call", "data": _call("rm f")}).encode()
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/pi", "headers": [(b"host", b"127.0.0.1")]}
    await app(scope, receive, send)
    assert sent[0]["status"] == 200
    answer = json.loads(sent[1]["body"])
    assert answer["result"]["block"] is True and "the hooks' thread is gone" in answer["error"]
