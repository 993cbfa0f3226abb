"""The Redis backend where the in-process one has no counterpart: a server that is down,
one that restarts, and several processes sharing it."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookline.core.redis_store import RedisBackend
from hookline.core.store import HookStore, StoreError
from tests.redis_server import RedisServer, _free_port

COUNTER = textwrap.dedent(
    """
    import sys
    from hookline.core.store import HookStore, process_backend

    session, times = sys.argv[1], int(sys.argv[2])
    sys.stdin.readline()  # started together: each waits for the go
    mine = HookStore(process_backend(), session, "/srv/project")
    for _ in range(times):
        mine.project.incr("calls")
        mine.session.incr("calls")
    print(mine.session.get("calls"), flush=True)
    """
)


def test_a_server_that_is_down_is_a_store_error_not_a_hang() -> None:
    backend = RedisBackend(f"redis://127.0.0.1:{_free_port()}/0", timeout=1)
    scope = HookStore(backend, "s1", "/p").session
    with pytest.raises(StoreError, match=r"did not answer \(ConnectionError"):
        scope.incr("n")
    with pytest.raises(StoreError, match="did not answer"):
        scope.get("n")


async def test_the_awaitable_forms_fail_the_same_way() -> None:
    backend = RedisBackend(f"redis://127.0.0.1:{_free_port()}/0", timeout=1)
    with pytest.raises(StoreError, match="did not answer"):
        await HookStore(backend, "s1", "/p").session.aincr("n")


def test_a_password_is_not_said_in_the_error() -> None:
    backend = RedisBackend(f"redis://u:hunter2@127.0.0.1:{_free_port()}/0", timeout=1)
    with pytest.raises(StoreError) as caught:
        HookStore(backend, "s1", "/p").session.get("n")
    assert "hunter2" not in str(caught.value) and "***" in str(caught.value)


def test_a_server_that_stops_midway_is_a_store_error(redis_server: RedisServer) -> None:
    scope = HookStore(RedisBackend(redis_server.url, timeout=1), "s1", "/p").session
    assert scope.incr("n") == 1
    redis_server.stop()
    with pytest.raises(StoreError, match="did not answer"):
        scope.incr("n")


def test_state_survives_a_restart(tmp_path: Path) -> None:
    server = RedisServer(tmp_path).start(persist=True)
    try:
        backend = RedisBackend(server.url)
        hooks = HookStore(backend, "s1", "/p")
        hooks.session.set("approved", ["git push"], ttl=3600)
        assert hooks.project.incr("bash") == 1
        server.restart()
        # The pooled connection the old server closed is redialled, once.
        assert hooks.session.get("approved") == ["git push"]
        assert hooks.project.incr("bash") == 2
        assert 0 < (backend.ttl("hookline:session:s1:approved") or 0) <= 3600
        fresh = HookStore(RedisBackend(server.url), "s1", "/p")  # a restarted hookline
        assert fresh.project.get("bash") == 2
    finally:
        server.stop()


def test_two_processes_share_counts_and_keep_sessions_apart(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    script = tmp_path / "count.py"
    script.write_text(COUNTER)
    env = {**os.environ, "HOOKLINE_STORE": redis_server.url}
    processes = [
        subprocess.Popen(
            [sys.executable, str(script), session, "300"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for session in ("one", "two")
    ]
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.close()
    said = []
    for process in processes:
        assert process.stdout is not None
        said.append(process.stdout.read().strip())
        process.stdout.close()
        process.wait(timeout=60)
    assert said == ["300", "300"]  # each session its own count
    shared = HookStore(RedisBackend(redis_server.url), "", "/srv/project")
    assert shared.project.get("calls") == 600  # the project's, from both, none lost


def test_the_store_does_not_load_redis_until_it_is_named() -> None:
    probe = (
        "import sys, hookline, hookline.core.store as s\n"
        "s.HookStore(s.process_backend({}), 's', '/p').session.incr('n')\n"
        "print('redis' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A port that accepts connections and never answers (a stuck Redis)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        yield f"redis://127.0.0.1:{sock.getsockname()[1]}/0"


def test_a_server_that_never_answers_is_a_store_error(silent_server: str) -> None:
    scope = HookStore(RedisBackend(silent_server, timeout=0.2), "s1", "/p").session
    with pytest.raises(StoreError, match="did not answer"):
        scope.get("k")


async def test_an_awaited_call_leaves_the_loop_free(silent_server: str) -> None:
    scope = HookStore(RedisBackend(silent_server, timeout=0.2), "s1", "/p").session
    waiting = asyncio.create_task(scope.aget("k"))
    other = asyncio.create_task(_done())
    finished, _ = await asyncio.wait({waiting, other}, return_when=asyncio.FIRST_COMPLETED)
    assert finished == {other}  # the loop ran another task while Redis kept silent
    with pytest.raises(StoreError, match="did not answer"):
        await waiting


async def _done() -> None:
    return None
