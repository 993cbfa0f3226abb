"""SIGTERM: the run stops, ``session_shutdown`` hooks run, the session file is intact."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from .helpers import CLI, TIMEOUT, read_jsonl, session_files, write_hook, write_script

SIGTERM_EXIT = 128 + signal.SIGTERM

HOOK = """
    import asyncio
    import json

    def register(pi):
        @pi.on("turn_start")
        def started(event, ctx):
            ctx.ui.notify(f"ready: turn {event.turn_index} started")

        @pi.on("tool_call")
        def tool(event, ctx):
            if event.tool_name == "bash":
                ctx.ui.notify("ready: bash started")

        @pi.on("session_shutdown")
        async def bye(event, ctx):
            await asyncio.sleep(0.5)  # a slow hook is awaited, not cut short
            with open(MARKER, "w") as f:
                json.dump({"reason": event.reason, "session_file": ctx.session_file}, f)
"""


async def _sigterm_when(
    tmp_path: Path,
    ready: bytes,
    turns: list[Any],
    *args: str,
    stdin: bytes | None = None,
) -> tuple[int, dict[str, Any], list[dict[str, Any]], bytes]:
    """Run the CLI, send SIGTERM once ``ready`` is notified; exit code, marker, messages, stdout."""
    marker = tmp_path / "shutdown.json"
    hook = write_hook(tmp_path / "hook.py", HOOK.replace("MARKER", repr(str(marker))))
    model = write_script(tmp_path / "script.json", turns)
    proc = await asyncio.create_subprocess_exec(
        *CLI, *args, "--model", model, "--hook", str(hook), "--cwd", str(tmp_path),
        "--permission-mode", "bypassPermissions",
        stdin=asyncio.subprocess.DEVNULL if stdin is None else asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=os.environ.copy(),
    )  # fmt: skip
    seen = b""
    try:
        if stdin is not None:
            assert proc.stdin is not None
            proc.stdin.write(stdin)  # kept open: the RPC server must not see EOF
            await proc.stdin.drain()
        # notifications: stderr in print mode, extension_ui_request lines in RPC mode
        watched = proc.stderr if stdin is None else proc.stdout
        assert watched is not None
        while ready not in seen:
            line = await asyncio.wait_for(watched.readline(), TIMEOUT)
            assert line, f"the process ended before {ready!r}"
            seen += line
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode is not None
    (session,) = session_files(Path.home())
    lines = read_jsonl(session)  # every line valid JSON, none torn
    assert session.read_text().endswith("\n")
    assert lines[0]["type"] == "session"
    messages = [e["message"] for e in lines if e["type"] == "message"]
    shutdown = json.loads(marker.read_text())
    assert shutdown["session_file"] == str(session)
    return proc.returncode, shutdown, messages, out if stdin is None else seen + out


async def test_sigterm_during_a_long_model_call_in_print_mode(tmp_path: Path) -> None:
    code, shutdown, messages, stdout = await _sigterm_when(
        tmp_path,
        b"ready: turn 1 started",
        [
            {"text": "Looking.", "tool_calls": [{"name": "ls", "arguments": {}}]},
            {"text": "never finished", "delay_ms": 120_000},
        ],
        "-p",
        "list things",
    )

    assert code == SIGTERM_EXIT
    assert shutdown["reason"] == "sigterm"
    assert [m["role"] for m in messages] == ["user", "assistant", "tool"]
    assert messages[0]["content"][0]["text"] == "list things"
    assert b"never finished" not in stdout


async def test_sigterm_during_a_tool_stops_the_run_before_shutdown(tmp_path: Path) -> None:
    # The tool would finish while the (slow) shutdown hook runs: the run must not go on.
    code, shutdown, messages, stdout = await _sigterm_when(
        tmp_path,
        b"ready: bash started",
        [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "sleep 0.3; echo slept"}}]},
            "should never be reached",
        ],
        "-p",
        "run it",
    )

    assert code == SIGTERM_EXIT
    assert shutdown["reason"] == "sigterm"
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert stdout == b""


async def test_sigterm_in_rpc_mode(tmp_path: Path) -> None:
    prompt = json.dumps({"type": "prompt", "message": "list things"}).encode() + b"\n"
    code, shutdown, messages, stdout = await _sigterm_when(
        tmp_path,
        b"ready: turn 1 started",
        [
            {"text": "Looking.", "tool_calls": [{"name": "ls", "arguments": {}}]},
            {"text": "never finished", "delay_ms": 120_000},
        ],
        "--mode",
        "rpc",
        "--rpc-events",
        "all",  # hookline's own lines too: session_shutdown is the last
        stdin=prompt,
    )

    assert code == SIGTERM_EXIT
    assert shutdown["reason"] == "sigterm"
    assert [m["role"] for m in messages] == ["user", "assistant", "tool"]
    events = [json.loads(line) for line in stdout.splitlines()]
    assert (events[-1]["type"], events[-1]["reason"]) == ("session_shutdown", "sigterm")


# -- whatever a hook is doing, SIGTERM ends the process ------------------------------------

STUCK_HOOK = """
    import asyncio
    import pathlib
    import re
    import time

    def register(pi):
        @pi.on("tool_call")
        def guard(event, ctx):
            if KIND == "async-swallows":
                return swallow()
            pathlib.Path(MARKER).write_text("started")
            if KIND == "spin":
                while True:
                    pass
            if KIND == "sleep":
                time.sleep(1000)
            if KIND == "regex":
                re.match(r"(a+)+$", "a" * 64 + "!")

    async def swallow():
        pathlib.Path(MARKER).write_text("started")
        while True:
            try:
                await asyncio.sleep(1000)
            except asyncio.CancelledError:
                pass
"""


def _wait_for_file(path: Path, proc: subprocess.Popen[bytes]) -> None:
    """Poll until the hook wrote its marker (or the process died)."""
    deadline = time.monotonic() + TIMEOUT
    while not path.exists():
        assert proc.poll() is None, f"hookline exited early: {proc.communicate()}"
        assert time.monotonic() < deadline, "the hook never started"
        time.sleep(0.01)


def _start_stuck(
    tmp_path: Path, kind: str, *args: str, settings: dict[str, Any] | None = None
) -> tuple[subprocess.Popen[bytes], Path]:
    marker = tmp_path / "started"
    hook = write_hook(
        tmp_path / "stuck.py",
        STUCK_HOOK.replace("MARKER", repr(str(marker))).replace("KIND", repr(kind)),
    )
    model = write_script(
        tmp_path / "script.json",
        [{"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]}, "done"],
    )
    extra: list[str] = []
    if settings is not None:
        (tmp_path / "settings.json").write_text(json.dumps(settings))
        extra = ["--settings", str(tmp_path / "settings.json")]
    proc = subprocess.Popen(
        [*CLI, "-p", "go", "--model", model, "--hook", str(hook), "--cwd", str(tmp_path), *extra],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    return proc, marker


def _assert_session_intact() -> list[dict[str, Any]]:
    (session,) = session_files(Path.home())
    lines = read_jsonl(session)  # every line valid JSON, none torn
    assert session.read_text().endswith("\n")
    assert lines[0]["type"] == "session"
    return lines


@pytest.mark.parametrize("kind", ["spin", "sleep", "async-swallows"])
def test_sigterm_ends_the_process_whatever_a_tool_call_hook_does(tmp_path: Path, kind: str) -> None:
    proc, marker = _start_stuck(tmp_path, kind)
    try:
        _wait_for_file(marker, proc)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)  # liveness: before the fix it never returned
    finally:
        if proc.poll() is None:
            proc.kill()
        _, err = proc.communicate()
    assert proc.returncode == SIGTERM_EXIT, err.decode()
    assert b"Traceback" not in err, err.decode()
    lines = _assert_session_intact()
    roles = [e["message"]["role"] for e in lines if e["type"] == "message"]
    assert roles == ["user", "assistant"]  # the user's prompt and the call, nothing torn


def test_sigterm_ends_a_process_stuck_in_c_code_holding_the_gil(tmp_path: Path) -> None:
    # A catastrophic ``re`` pattern never returns to the interpreter: no Python code runs,
    # so only the reaper process can end it (SIGKILL, after the hard-exit delay).
    proc, marker = _start_stuck(tmp_path, "regex")
    try:
        _wait_for_file(marker, proc)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    _assert_session_intact()


def test_second_sigint_ends_a_run_stuck_in_sync_hook_code(tmp_path: Path) -> None:
    proc, marker = _start_stuck(tmp_path, "spin")
    assert proc.stderr is not None
    try:
        _wait_for_file(marker, proc)
        proc.send_signal(signal.SIGINT)
        first = proc.stderr.readline()  # the first one was handled
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        _, err = proc.communicate()
    assert first == b"hookline: SIGINT received, stopping (again to exit at once)\n"
    assert proc.returncode == 128 + signal.SIGINT, err.decode()
    assert err == b"hookline: exiting at once (second signal)\n"
    _assert_session_intact()


def test_sync_code_holding_the_loop_is_reported_while_it_runs(tmp_path: Path) -> None:
    proc, marker = _start_stuck(tmp_path, "sleep", settings={"hookTimeout": 200})
    assert proc.stderr is not None
    try:
        _wait_for_file(marker, proc)
        line = proc.stderr.readline()  # blocks until the watchdog speaks
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
    text = line.decode()
    assert "stuck.py is blocking the event loop (sync code in guard, line" in text
    assert proc.returncode == SIGTERM_EXIT
