"""Many agents, one service: 200 Claude Code sessions' events, interleaved over the four
workers of one ``hookline serve --http`` and a second server, all sharing a Redis store.

Each session is what Claude Code sends over a session (SessionStart,
UserPromptSubmit, PreToolUse/PostToolUse per tool call, Stop). The hook counts
each session's bash calls in ``ctx.store`` and denies those past a limit, so
every answer depends on state another process may have written. At the end
each session's and each project's counts are exact, and no session saw another's.
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import random
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookline.core.redis_store import RedisBackend
from hookline.core.store import HookStore
from tests.redis_server import RedisServer

#: The services the events go to: the extra flags of each ``hookline serve --http``, requests
#: alternating between them: four workers of one server, and another machine's server.
SERVICES: list[list[str]] = [["--workers", "4"], []]
SESSIONS = 200
PROJECTS = 5
LIMIT = 4  # bash calls a session may make

HOOK = textwrap.dedent(
    f"""
    def register(pi):
        @pi.on("session_start")
        def start(event, ctx):
            ctx.store.session.set("owner", ctx.session_manager.get_session_id(), ttl=3600)

        @pi.on("input")
        def prompt(event, ctx):
            ctx.store.session.incr("prompts")

        @pi.on("tool_call")
        async def guard(event, ctx):
            me = ctx.session_manager.get_session_id()
            owner = await ctx.store.session.aget("owner")
            if owner != me:
                return {{"block": True, "reason": f"{{me}} saw {{owner}}'s state"}}
            if event.tool_name != "bash":
                return None
            n = await ctx.store.session.aincr("bash")
            await ctx.store.project.aincr("bash")
            if n > {LIMIT}:
                return {{"block": True, "reason": f"{{me}}: bash call {{n}} is over {LIMIT}"}}
            return None

        @pi.on("tool_result")
        def done(event, ctx):
            ctx.store.session.incr("results")

        @pi.on("stop")
        def stop(event, ctx):
            ctx.store.session.set("stopped", True)
    """
)


@dataclass
class Session:
    id: str
    cwd: str
    tools: list[str]  # "Bash" or "Read", in call order

    def events(self) -> Iterator[dict[str, Any]]:
        """Claude Code's hook inputs over the session; a PostToolUse follows an allowed call
        (``send`` skips it for a denied one)."""
        base = {
            "session_id": self.id,
            "transcript_path": f"{self.cwd}/.claude/{self.id}.jsonl",
            "cwd": self.cwd,
            "permission_mode": "default",
        }
        yield {**base, "hook_event_name": "SessionStart", "source": "startup"}
        yield {**base, "hook_event_name": "UserPromptSubmit", "prompt": "fix the build"}
        for i, tool in enumerate(self.tools):
            command = {"Bash": {"command": f"make step{i}"}, "Read": {"file_path": "/etc/os"}}
            call = {**base, "tool_name": tool, "tool_input": command[tool]}
            call["tool_use_id"] = f"toolu_{self.id}_{i}"
            yield {**call, "hook_event_name": "PreToolUse"}
            yield {**call, "hook_event_name": "PostToolUse", "tool_response": {"stdout": "ok"}}
        yield {**base, "hook_event_name": "Stop", "stop_hook_active": False}

    def expected(self, bash_so_far: int) -> tuple[str, str]:
        """The answer to this session's next bash PreToolUse after ``bash_so_far`` calls."""
        n = bash_so_far + 1
        return ("deny", f"{self.id}: bash call {n} is over {LIMIT}") if n > LIMIT else ("", "")


class Client:
    """Posts hook inputs, each to the next service in turn, on keep-alive connections of the
    calling thread's own."""

    def __init__(self, ports: list[int]) -> None:
        self._ports = ports
        self._turn = itertools.count()
        self._local = threading.local()

    def post(self, payload: dict[str, Any]) -> dict[str, Any]:
        port = self._ports[next(self._turn) % len(self._ports)]
        connections = self._local.__dict__.setdefault("connections", {})
        conn = connections.get(port) or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connections[port] = conn
        conn.request("POST", "/", json.dumps(payload), {"Content-Type": "application/json"})
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200, (response.status, body)
        return json.loads(body) if body else {}


def _run(session: Session, client: Client) -> list[str]:
    """Send the session's events in order; what went wrong (nothing, when all is well)."""
    wrong: list[str] = []
    bash = 0
    denied = False
    for event in session.events():
        name = event["hook_event_name"]
        if name == "PostToolUse" and denied:
            continue  # Claude Code runs no denied call, so no PostToolUse follows
        answer = client.post(event)
        if name != "PreToolUse":
            if answer.get("decision") == "block" or answer.get("continue") is False:
                wrong.append(f"{session.id}: {name} answered {answer}")
            continue
        said = answer.get("hookSpecificOutput", {})
        got = said.get("permissionDecision", ""), said.get("permissionDecisionReason", "")
        want = session.expected(bash) if event["tool_name"] == "Bash" else ("", "")
        if got != want:
            wrong.append(f"{session.id}: {event['tool_use_id']}: {got} != {want}")
        bash += event["tool_name"] == "Bash"
        denied = got[0] == "deny"
    return wrong


@contextmanager
def _serving(tmp_path: Path, flags: list[str], env: dict[str, str]) -> Iterator[int]:
    hook = tmp_path / "bash_budget.py"
    hook.write_text(HOOK)
    argv = [sys.executable, "-m", "hookline.cli", "serve", "--http", "127.0.0.1:0"]
    argv += ["--no-discovery", "--hook", str(hook), *flags]
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # the server says where it listens once it does
        assert "listening on http://127.0.0.1:" in line, line
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        yield int(line.rsplit(":", 1)[1])
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_200_sessions_over_several_servers_keep_exact_separate_counts(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    shuffle = random.Random(25)
    sessions = [
        Session(
            f"session-{i:03d}",
            f"/srv/project{i % PROJECTS}",
            shuffle.choices(["Bash", "Read"], weights=[3, 1], k=shuffle.randint(1, 8)),
        )
        for i in range(SESSIONS)
    ]
    env = {**os.environ, "HOOKLINE_STORE": redis_server.url}
    with ExitStack() as stack:
        ports = [stack.enter_context(_serving(tmp_path, flags, env)) for flags in SERVICES]
        client = Client(ports)
        with ThreadPoolExecutor(max_workers=32) as pool:  # 32 sessions talking at any time
            wrong = [w for found in pool.map(lambda s: _run(s, client), sessions) for w in found]
    assert wrong == []

    backend = RedisBackend(redis_server.url)
    per_project: dict[str, int] = {}
    for session in sessions:
        state = HookStore(backend, session.id, session.cwd).session
        bash = session.tools.count("Bash")
        allowed = session.tools.count("Read") + min(bash, LIMIT)
        assert state.get("owner") == session.id
        assert state.get("prompts") == 1
        assert (state.get("bash", 0), state.get("results")) == (bash, allowed), session.id
        assert state.get("stopped") is True
        per_project[session.cwd] = per_project.get(session.cwd, 0) + bash
    for cwd, bash in per_project.items():
        assert HookStore(backend, "", cwd).project.get("bash") == bash
