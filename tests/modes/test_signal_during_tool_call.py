"""SIGTERM or Ctrl+C while a ``tool_call`` handler runs: the tool never runs, and the
process ends within the shutdown grace (never the hard exit after it).

The handler says it started (a stderr line; a notify line over RPC) and the signal is sent
then; the bash command would create a file, which must not exist afterwards.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from hookline.modes.signals import HARD_EXIT_AFTER

from .helpers import CLI, TIMEOUT, RpcClient, write_hook, write_script

HOOKS = {
    "async": """
        import asyncio
        import sys

        def register(pi):
            @pi.on("tool_call")
            async def guard(event, ctx):
                ctx.ui.notify("handler started")
                print("handler started", file=sys.stderr, flush=True)
                await asyncio.sleep(30)
    """,
    "sync": """
        import os
        import sys
        import time

        def register(pi):
            @pi.on("tool_call")
            def guard(event, ctx):
                ctx.ui.notify("handler started")
                print("handler started", file=sys.stderr, flush=True)
                # sync code holds the loop until the test has sent its signal
                deadline = time.monotonic() + 10
                while not os.path.exists("signalled") and time.monotonic() < deadline:
                    time.sleep(0.01)
    """,
}
SIGNALS = {"SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT}


def _hook(tmp_path: Path, kind: str) -> Path:
    return write_hook(tmp_path / "guard.py", HOOKS[kind])


def _model(tmp_path: Path, created: Path) -> str:
    bash = {"name": "bash", "arguments": {"command": f"touch {created}"}}
    return write_script(tmp_path / "s.json", [{"tool_calls": [bash]}, "done"])


def _run(tmp_path: Path, kind: str, *mode: str) -> subprocess.Popen[bytes]:
    created = tmp_path / "created"
    return subprocess.Popen(
        [*CLI, *mode, "go", "--model", _model(tmp_path, created), "--hook",
         str(_hook(tmp_path, kind)), "--permission-mode", "bypassPermissions", "--no-session"],
        cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )  # fmt: skip


def _assert_stopped_in_time(tmp_path: Path, code: int, signum: int, err: str, took: float) -> None:
    assert not (tmp_path / "created").exists()  # the tool never ran
    assert code == 128 + signum, err
    assert "exiting at once" not in err, err  # no hard exit: the grace was enough
    assert took < HARD_EXIT_AFTER, err
    assert "Traceback" not in err, err


def test_without_a_signal_the_command_creates_its_file(tmp_path: Path) -> None:
    """The control: the command used below does create the file when it runs."""
    (tmp_path / "signalled").touch()
    proc = _run(tmp_path, "sync", "-p")
    _, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 0, err.decode()
    assert (tmp_path / "created").exists()


@pytest.mark.parametrize("name", sorted(SIGNALS))
@pytest.mark.parametrize("kind", sorted(HOOKS))
@pytest.mark.parametrize("mode", ["print", "json"])
def test_a_signal_during_a_tool_call_handler_stops_before_the_tool(
    tmp_path: Path, mode: str, kind: str, name: str
) -> None:
    signum = SIGNALS[name]
    proc = _run(tmp_path, kind, *(["-p"] if mode == "print" else ["--mode", "json", "-p"]))
    assert proc.stderr is not None
    try:
        while b"handler started" not in (line := proc.stderr.readline()):
            assert line, "the process ended before the handler started"
        proc.send_signal(signum)
        sent = time.monotonic()
        (tmp_path / "signalled").touch()  # a sync handler returns now
        _, rest = proc.communicate(timeout=TIMEOUT)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _assert_stopped_in_time(tmp_path, proc.returncode, signum, rest.decode(), took)


@pytest.mark.parametrize("name", sorted(SIGNALS))
@pytest.mark.parametrize("kind", sorted(HOOKS))
async def test_a_signal_during_a_tool_call_handler_in_rpc_mode(
    tmp_path: Path, kind: str, name: str
) -> None:
    signum = SIGNALS[name]
    model = _model(tmp_path, tmp_path / "created")
    hook = _hook(tmp_path, kind)
    async with RpcClient(
        "--model", model, "--hook", str(hook), "--permission-mode", "bypassPermissions",
        "--no-session", cwd=tmp_path,
    ) as client:  # fmt: skip
        await client.send({"type": "prompt", "message": "go", "id": "p"})
        await client.read_until(lambda m: m.get("message") == "handler started")
        client.process.send_signal(signum)
        sent = time.monotonic()
        (tmp_path / "signalled").touch()  # a sync handler returns now
        code = await asyncio.wait_for(client.process.wait(), TIMEOUT)
        took = time.monotonic() - sent
        err = await client.stderr()
    _assert_stopped_in_time(tmp_path, code, signum, err, took)
