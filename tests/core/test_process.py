"""``run_process``: group kill on timeout and abort, bounded output, decoding, errors, stdin."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookline.core.process import run_process


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


async def _gone_within(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        await asyncio.sleep(0.02)
    return not _alive(pid)


async def test_success_captures_stdout_stderr_code() -> None:
    res = await run_process(["sh", "-c", "echo out; echo err >&2; exit 4"])
    assert (res.stdout, res.stderr, res.code) == ("out\n", "err\n", 4)
    assert res.killed is False and res.timed_out is False and res.error is None
    assert (res.stdout_bytes, res.stderr_bytes) == (4, 4)


async def test_timeout_kills_the_whole_group() -> None:
    start = time.monotonic()
    res = await run_process(["sh", "-c", "sleep 30 & echo $!; sleep 30"], timeout=0.3)
    elapsed = time.monotonic() - start
    assert res.killed is True
    assert res.timed_out is True
    bg_pid = int(res.stdout.split()[0])
    assert await _gone_within(bg_pid, 5.0), f"background sleep {bg_pid} survived the timeout"
    assert elapsed < 10  # loose: the 30 s sleeps were not waited for


async def test_timeout_with_grandchild_holding_pipes() -> None:
    res = await run_process(["sh", "-c", "sleep 30 | cat"], timeout=0.2)
    assert res.killed is True and res.timed_out is True


async def test_signal_aborts() -> None:
    abort = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.call_later(0.2, abort.set)
    res = await run_process(["sh", "-c", "sleep 30 & echo $!; sleep 30"], signal=abort)
    assert res.killed is True
    assert res.timed_out is False
    assert await _gone_within(int(res.stdout.split()[0]), 5.0)


async def test_signal_unset_lets_process_finish() -> None:
    res = await run_process(["sh", "-c", "echo done"], signal=asyncio.Event(), timeout=30)
    assert res.stdout == "done\n"
    assert res.killed is False


async def test_cancellation_kills_the_group() -> None:
    marker: list[int] = []

    def on_stdout(data: bytes) -> None:
        marker.extend(int(x) for x in data.split())

    task = asyncio.ensure_future(
        run_process(["sh", "-c", "sleep 30 & echo $!; sleep 30"], on_stdout=on_stdout)
    )
    for _ in range(500):
        if marker:
            break
        await asyncio.sleep(0.01)
    assert marker, "the child never printed its background pid"
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _gone_within(marker[0], 5.0)


async def test_output_is_bounded_but_counted() -> None:
    script = "import sys; sys.stdout.write('x' * 5000); sys.stderr.write('y' * 3000)"
    res = await run_process([sys.executable, "-c", script], max_output=1000)
    assert res.stdout == "x" * 1000
    assert res.stderr == "y" * 1000
    assert res.stdout_bytes == 5000 and res.stderr_bytes == 3000
    assert res.stdout_truncated is True and res.stderr_truncated is True


async def test_output_under_limit_not_truncated() -> None:
    res = await run_process(["printf", "abc"], max_output=3)
    assert res.stdout == "abc"
    assert res.stdout_truncated is False
    assert res.stdout_bytes == 3


async def test_non_utf8_is_replaced() -> None:
    res = await run_process(["printf", "a\\377b"])
    assert res.stdout == "a\ufffdb"
    assert res.stdout_bytes == 3


async def test_missing_program_gives_error_not_exception(tmp_path: Path) -> None:
    res = await run_process([str(tmp_path / "no-such-program")])
    assert res.error is not None
    assert res.code is None
    res = await run_process(["true"], cwd=tmp_path / "missing-dir")
    assert res.error is not None


async def test_stdin_input_delivered() -> None:
    res = await run_process(["cat"], input=b"hello\nworld")
    assert res.stdout == "hello\nworld"
    res = await run_process(["sh", "-c", "read x; echo got:$x"], input=b"line\n")
    assert res.stdout == "got:line\n"


async def test_stdin_ignored_by_child_does_not_hang() -> None:
    res = await run_process(["true"], input=b"z" * (1024 * 1024), timeout=30)
    assert res.code == 0
    assert res.killed is False


async def test_merge_stderr_and_env(tmp_path: Path) -> None:
    res = await run_process(
        ["sh", "-c", "echo $FOO; echo e >&2; pwd"],
        env={"FOO": "bar", "PATH": os.environ["PATH"]},
        merge_stderr=True,
        cwd=tmp_path,
    )
    lines = res.stdout.splitlines()
    assert lines[:2] == ["bar", "e"]
    assert Path(lines[2]).resolve() == tmp_path.resolve()
    assert res.stderr == ""


async def test_runs_in_its_own_session() -> None:
    res = await run_process([sys.executable, "-c", "import os; print(os.getsid(0), os.getpgid(0))"])
    sid, pgid = (int(x) for x in res.stdout.split())
    assert sid != os.getsid(0)
    assert pgid == sid


# --- judged by its own exit: background children holding the pipes -------------------


def _setsid_script(pidfile: Path) -> str:
    """Start ``sleep 30`` in a session of its own, wait until it is there, record its pid."""
    return (
        "setsid sleep 30 & pid=$!\n"
        'until read -r _ _ _ _ _ sid _ < /proc/$pid/stat && [ "$sid" = "$pid" ]; do :; done\n'
        f"echo $pid > {pidfile}\n"
        "echo verdict; exit 5\n"
    )


async def test_exit_stands_while_a_background_child_holds_the_pipes() -> None:
    # the child inherits stdout/stderr and would keep them open for 30 s; the timeout is
    # far away, so a result that waited for the pipes would come back timed out instead
    res = await run_process(["sh", "-c", "sleep 30 & echo $!; echo bye >&2; exit 3"], timeout=25)
    assert (res.code, res.killed, res.timed_out) == (3, False, False)
    assert res.pipes_held is True
    assert res.stderr == "bye\n"
    assert await _gone_within(int(res.stdout.split()[0]), 5.0), "background child survived"


async def test_a_background_child_that_closed_the_pipes_is_killed_too() -> None:
    res = await run_process(["sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!"], timeout=25)
    assert res.code == 0 and res.pipes_held is False
    assert await _gone_within(int(res.stdout.split()[0]), 5.0)


async def test_keep_group_leaves_background_children_to_the_caller() -> None:
    res = await run_process(["sh", "-c", "sleep 30 & echo $!"], timeout=25, keep_group=True)
    child = int(res.stdout.split()[0])
    try:
        assert res.code == 0 and res.pid is not None
        assert _alive(child)
        assert os.getpgid(child) == res.pid
    finally:
        os.killpg(res.pid or child, 9)
    assert await _gone_within(child, 5.0)


async def test_a_setsid_child_survives_and_does_not_hold_up_the_result(tmp_path: Path) -> None:
    pidfile = tmp_path / "setsid.pid"
    res = await run_process(["bash", "-c", _setsid_script(pidfile)], timeout=25)
    child = int(pidfile.read_text())
    try:
        assert (res.code, res.stdout, res.timed_out) == (5, "verdict\n", False)
        assert res.pipes_held is True
        assert _alive(child), "a child that left the group on purpose must not be killed"
    finally:
        os.kill(child, 9)


async def test_a_raising_stdout_listener_does_not_break_reading() -> None:
    def boom(data: bytes) -> None:
        raise RuntimeError("listener bug")

    res = await run_process(["sh", "-c", "echo a; echo b"], on_stdout=boom)
    assert (res.code, res.stdout) == (0, "a\nb\n")


def test_no_transport_noise_at_interpreter_exit(tmp_path: Path) -> None:
    # killed by its timeout while a child that left the group still holds the pipes: the
    # transport must be closed by run_process, not by the garbage collector after the loop
    pidfile = tmp_path / "setsid.pid"
    child = (
        "import asyncio, sys\n"
        "from hookline.core.process import run_process\n"
        "script = sys.argv[1]\n"
        "res = asyncio.run(run_process(['bash', '-c', script], timeout=0.5))\n"
        "print(res.timed_out)\n"
    )
    script = _setsid_script(pidfile).replace("echo verdict; exit 5", "sleep 30")
    done = subprocess.run(
        [sys.executable, "-c", child, script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    try:
        assert (done.returncode, done.stdout) == (0, "True\n")
        assert "Exception ignored" not in done.stderr, done.stderr
        assert done.stderr == ""
    finally:
        os.kill(int(pidfile.read_text()), 9)
