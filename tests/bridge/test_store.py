"""``ctx.store`` behind the bridges: keyed by the hook input's ``session_id`` and ``cwd``, and
shared by ``claude-hook`` processes through Redis; a store that fails denies the call."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from hookline.bridge.engine import load_bridge
from hookline.core.redis_store import RedisBackend
from hookline.core.store import HookStore, process_backend
from tests.redis_server import RedisServer, _free_port

from .helpers import pre_tool_use, run_claude_hook

#: Allows three bash calls a session, then denies; says the count either way.
LIMIT = textwrap.dedent(
    """
    def register(pi):
        @pi.on("tool_call")
        def count(event, ctx):
            if event.tool_name != "bash":
                return None
            n = ctx.store.session.incr("bash", ttl=3600)
            ctx.store.project.incr("bash")
            if n > 3:
                return {"block": True, "reason": f"bash call {n}"}
            return {"permission": "allow", "reason": f"bash call {n}"}
    """
)
ASYNC_LIMIT = (
    LIMIT.replace("def count", "async def count")
    .replace("ctx.store.session.incr(", "await ctx.store.session.aincr(")
    .replace("ctx.store.project.incr(", "await ctx.store.project.aincr(")
)


def _bash(cwd: Path, session: str | None) -> dict[str, Any]:
    payload = pre_tool_use(cwd, "Bash", {"command": "ls"})
    if session is None:
        del payload["session_id"]
    else:
        payload["session_id"] = session
    return payload


def _decision(output: dict[str, Any]) -> tuple[str, str]:
    said = output["hookSpecificOutput"]
    return said["permissionDecision"], said.get("permissionDecisionReason", "")


@pytest.mark.parametrize("source", [LIMIT, ASYNC_LIMIT], ids=["def", "async def"])
async def test_each_session_counts_its_own_calls(tmp_path: Path, source: str) -> None:
    hook = tmp_path / "limit.py"
    hook.write_text(source)
    bridge = load_bridge([str(hook)], cwd=str(tmp_path), discover=False)
    said = []
    for session in "abaaba":  # session ids are the process's: made unique to this test
        answer = await bridge.answer(_bash(tmp_path, f"{tmp_path.name}-{session}"))
        said.append((session, *_decision(dict(answer.output))))
    assert said == [
        ("a", "allow", ""),
        ("b", "allow", ""),
        ("a", "allow", ""),
        ("a", "allow", ""),
        ("b", "allow", ""),
        ("a", "deny", "bash call 4"),
    ]
    counts = [HookStore(process_backend(), f"{tmp_path.name}-{s}", str(tmp_path)) for s in "ab"]
    assert [c.session.get("bash") for c in counts] == [4, 2]
    assert counts[0].project.get("bash") == 6


async def test_an_input_without_a_session_id_is_denied(tmp_path: Path) -> None:
    hook = tmp_path / "limit.py"
    hook.write_text(LIMIT)
    bridge = load_bridge([str(hook)], cwd=str(tmp_path), discover=False)
    answer = await bridge.answer(_bash(tmp_path, None))
    decision, reason = _decision(dict(answer.output))
    assert decision == "deny"
    assert "no session id" in reason


async def test_an_input_without_a_cwd_has_no_project_not_the_last_ones(tmp_path: Path) -> None:
    hook = tmp_path / "limit.py"
    hook.write_text(LIMIT)
    bridge = load_bridge([str(hook)], cwd=str(tmp_path), discover=False)
    first = await bridge.answer(_bash(tmp_path, f"{tmp_path.name}-a"))
    assert "hookSpecificOutput" in first.output
    no_cwd = {k: v for k, v in _bash(tmp_path, f"{tmp_path.name}-b").items() if k != "cwd"}
    decision, reason = _decision(dict((await bridge.answer(no_cwd)).output))
    assert decision == "deny"
    assert "no project folder" in reason


def _claude_hook(tmp_path: Path, hook: Path, session: str, store: str) -> tuple[str, str]:
    env = {**os.environ, "HOOKLINE_STORE": store}
    answer = run_claude_hook(
        _bash(tmp_path, session), "--no-discovery", "--hook", str(hook), cwd=tmp_path, env=env
    )
    return _decision(answer.output)


@pytest.mark.parametrize("source", [LIMIT, ASYNC_LIMIT], ids=["def", "async def"])
def test_claude_hook_processes_share_the_count_through_redis(
    tmp_path: Path, redis_server: RedisServer, source: str
) -> None:
    hook = tmp_path / "limit.py"
    hook.write_text(source)
    said = [_claude_hook(tmp_path, hook, s, redis_server.url)[0] for s in "aabaa"]
    assert said == ["allow", "allow", "allow", "allow", "deny"]
    counts = [HookStore(RedisBackend(redis_server.url), s, str(tmp_path)) for s in "ab"]
    assert [c.session.get("bash") for c in counts] == [4, 1]


@pytest.mark.parametrize(
    ("store", "error"),
    [
        (f"redis://127.0.0.1:{_free_port()}/0", "did not answer"),
        ("sqlite:///tmp/x", "HOOKLINE_STORE='sqlite:///tmp/x': expected memory"),
    ],
    ids=["down", "unknown"],
)
def test_a_store_that_fails_denies_the_call(tmp_path: Path, store: str, error: str) -> None:
    hook = tmp_path / "limit.py"
    hook.write_text(LIMIT)
    decision, reason = _claude_hook(tmp_path, hook, "a", store)
    assert decision == "deny"
    assert error in reason


def test_serve_refuses_to_start_with_an_unknown_store(tmp_path: Path) -> None:
    env = {**os.environ, "HOOKLINE_STORE": "redis:/no-host"}
    done = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "serve", "--http", "127.0.0.1:0", "--no-discovery"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert "HOOKLINE_STORE='redis:/no-host': expected memory" in done.stderr
