"""The bash tool under abuse: timeouts, background jobs, floods, spill files, escape codes."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookline.core.messages import content_text
from hookline.core.tool import ToolError, ToolResult
from hookline.tools.bash import BashSpawnContext, BashSpawnHook, bash_timeouts, create_bash_tool
from hookline.tools.leftovers import ToolLeftovers
from hookline.tools.terminal import clean_terminal_output
from hookline.tools.truncation import DEFAULT_MAX_BYTES


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


async def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        await asyncio.sleep(0.02)
    return False


def _with_env(**env: str) -> BashSpawnHook:
    """A spawn hook that sets ``env`` for the command (and so for the timeouts)."""

    def hook(ctx: BashSpawnContext) -> BashSpawnContext:
        return BashSpawnContext(ctx.command, ctx.cwd, {**ctx.env, **env})

    return hook


# --- timeouts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, (120.0, 600.0)),
        ({"BASH_DEFAULT_TIMEOUT_MS": "300000"}, (300.0, 600.0)),
        ({"BASH_DEFAULT_TIMEOUT_MS": "900000"}, (900.0, 900.0)),  # max is never below default
        ({"BASH_MAX_TIMEOUT_MS": "1800000"}, (120.0, 1800.0)),
        ({"BASH_MAX_TIMEOUT_MS": "1000"}, (120.0, 120.0)),
        ({"BASH_DEFAULT_TIMEOUT_MS": " 5000ms"}, (5.0, 600.0)),  # parseInt: the number prefix
        ({"BASH_DEFAULT_TIMEOUT_MS": "abc", "BASH_MAX_TIMEOUT_MS": "-5"}, (120.0, 600.0)),
        ({"BASH_DEFAULT_TIMEOUT_MS": "0"}, (120.0, 600.0)),
    ],
)
def test_timeouts_are_read_as_claude_code_reads_them(
    env: dict[str, str], expected: tuple[float, float]
) -> None:
    assert bash_timeouts(env) == expected


async def test_the_default_timeout_applies_without_a_timeout_parameter(project: Path) -> None:
    tool = create_bash_tool(str(project), _with_env(BASH_DEFAULT_TIMEOUT_MS="300"))
    with pytest.raises(ToolError) as info:
        await tool.execute("c", {"command": "echo begun; sleep 30"}, None, None)
    assert str(info.value) == "begun\n\nCommand timed out after 0.3 seconds"
    assert info.value.details == {"exit_code": None, "timed_out": True}


async def test_a_timeout_above_the_maximum_is_clamped_and_said(project: Path) -> None:
    hook = _with_env(BASH_DEFAULT_TIMEOUT_MS="100", BASH_MAX_TIMEOUT_MS="300")
    tool = create_bash_tool(str(project), hook)
    with pytest.raises(ToolError) as info:
        await tool.execute("c", {"command": "sleep 30", "timeout": 60}, None, None)
    assert str(info.value) == (
        "[timeout 60s is above the maximum of 0.3s (BASH_MAX_TIMEOUT_MS); the command ran "
        "with 0.3s]\n\nCommand timed out after 0.3 seconds"
    )


async def test_a_timeout_within_the_maximum_is_used(project: Path) -> None:
    tool = create_bash_tool(str(project), _with_env(BASH_DEFAULT_TIMEOUT_MS="100"))
    result = await tool.execute("c", {"command": "sleep 0.3; echo ok", "timeout": 30}, None, None)
    assert content_text(result.content) == "ok\n"


# --- background jobs -----------------------------------------------------------------


async def test_returns_when_the_shell_exits_though_a_job_holds_the_pipes(
    project: Path,
) -> None:
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(project), leftovers=leftovers)
    # the job outlives the timeout: a call that waited for the pipes would time out
    result = await tool.execute(
        "c", {"command": "sleep 20 & echo $! > job.pid; echo started", "timeout": 15}, None, None
    )
    job = int((project / "job.pid").read_text())
    try:
        text = content_text(result.content)
        assert text.startswith("started\n\n[Background processes are still running;")
        assert result.details == {"exit_code": 0}
        assert _alive(job), "a backgrounded job keeps running until the session ends"
        assert leftovers.groups == {os.getpgid(job)}
    finally:
        leftovers.close()
    assert await _gone(job), "closing the leftovers must end the job"


async def test_a_job_with_its_output_redirected_is_ended_at_close_too(project: Path) -> None:
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(project), leftovers=leftovers)
    await tool.execute("c", {"command": "sleep 20 >/dev/null 2>&1 & echo $! > job.pid"}, None, None)
    job = int((project / "job.pid").read_text())
    leftovers.close()
    assert await _gone(job)


async def test_a_setsid_job_is_left_alone(project: Path) -> None:
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(project), leftovers=leftovers)
    command = (
        "setsid sleep 20 >/dev/null 2>&1 & pid=$!\n"
        'until read -r _ _ _ _ _ sid _ < /proc/$pid/stat && [ "$sid" = "$pid" ]; do :; done\n'
        "echo $pid > job.pid"
    )
    await tool.execute("c", {"command": command}, None, None)
    job = int((project / "job.pid").read_text())
    try:
        leftovers.close()
        assert _alive(job), "a job that left the process group on purpose is not killed"
    finally:
        os.kill(job, 9)


async def test_a_timeout_kills_background_jobs_at_once(project: Path) -> None:
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(project), leftovers=leftovers)
    with pytest.raises(ToolError, match="timed out"):
        await tool.execute(
            "c", {"command": "sleep 20 & echo $! > job.pid; sleep 20", "timeout": 0.3}, None, None
        )
    assert await _gone(int((project / "job.pid").read_text()))
    assert leftovers.groups == frozenset()


# --- spill files -------------------------------------------------------------------------


async def test_the_spill_file_keeps_head_and_tail_within_its_cap(project: Path) -> None:
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(project), spill_bytes=200_000, leftovers=leftovers)
    result = await tool.execute("c", {"command": "seq 1 300000"}, None, None)
    expected = "".join(f"{i}\n" for i in range(1, 300001)).encode()
    details = result.details
    path = Path(details["full_output_path"])
    data = path.read_bytes()
    head, _, rest = data.partition(b"\n\n[... ")
    marker, _, tail = rest.partition(b" ...]\n\n")
    assert head == expected[:100_000] and tail == expected[-100_000:]
    assert details["full_output_cut_bytes"] == len(expected) - 200_000
    assert marker.startswith(b"1.7MB of output cut here")
    assert f"Output (its middle 1.7MB cut): {path}" in content_text(result.content)
    assert leftovers.files == {str(path)}
    leftovers.close()
    assert not path.exists(), "spill files are deleted when the session ends"


async def test_yes_fills_neither_tmp_nor_memory(project: Path) -> None:
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(project), spill_bytes=1_000_000, leftovers=leftovers)
    with pytest.raises(ToolError) as info:
        await tool.execute("c", {"command": "yes", "timeout": 1}, None, None)
    details = info.value.details
    assert details is not None and details["timed_out"] is True
    path = Path(details["full_output_path"])
    assert path.stat().st_size <= 1_000_000 + 200
    assert details["full_output_cut_bytes"] > 0
    leftovers.close()
    assert not path.exists()


async def test_a_cancelled_call_leaves_no_spill_file(project: Path) -> None:
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(project), leftovers=leftovers)
    seen = asyncio.Event()

    def on_update(partial: ToolResult) -> None:
        seen.set()

    task = asyncio.ensure_future(
        tool.execute("c", {"command": "seq 1 100000; sleep 30"}, None, on_update)
    )
    await asyncio.wait_for(seen.wait(), 30)
    while not leftovers.files:  # the spill file exists once more than 50 KB came
        await asyncio.sleep(0.01)
    (path,) = leftovers.files
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not Path(path).exists() and leftovers.files == frozenset()


# --- updates -----------------------------------------------------------------------------


async def test_a_flood_is_coalesced_into_few_updates_of_new_output(project: Path) -> None:
    updates: list[str] = []
    tool = create_bash_tool(str(project), leftovers=ToolLeftovers())
    started = time.monotonic()
    await tool.execute(
        "c",
        {"command": "yes | head -c 20000000"},
        None,
        lambda partial: updates.append(content_text(partial.content)),
    )
    elapsed = time.monotonic() - started
    # a rate bound, not a speed claim: however slow the machine, at most 10 a second
    assert 1 <= len(updates) <= 10 * elapsed + 2, (len(updates), elapsed)
    for update in updates:
        body = update.split("...]\n", 1)[-1] if update.startswith("[... ") else update
        assert len(body.encode()) <= DEFAULT_MAX_BYTES
    assert sum(len(u) for u in updates) < 20_000_000 // 10


async def test_updates_together_are_the_output_when_it_is_slow(project: Path) -> None:
    updates: list[str] = []
    tool = create_bash_tool(str(project))
    command = "for i in 1 2 3 4 5; do echo line$i; sleep 0.05; done"
    result = await tool.execute(
        "c", {"command": command}, None, lambda p: updates.append(content_text(p.content))
    )
    assert (
        "".join(updates)
        == content_text(result.content)
        == "".join(f"line{i}\n" for i in range(1, 6))
    )


# --- what the model reads ----------------------------------------------------------------


async def test_escape_codes_and_overdraws_do_not_reach_the_model(project: Path) -> None:
    tool = create_bash_tool(str(project))
    command = r"printf '\033[1;31merror\033[0m: bad\r\n10%%\r50%%\r100%%\n\033]0;title\007done\n'"
    result = await tool.execute("c", {"command": command}, None, None)
    assert content_text(result.content) == "error: bad\n100%\ndone\n"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("plain\ttext  \n", "plain\ttext  \n"),
        ("\x1b[31mred\x1b[0m", "red"),
        ("a\r\nb\r\n", "a\nb\n"),
        ("10%\r50%\r100%", "100%"),
        ("Downloading 50%\rDone\x1b[K", "Done"),
        ("Downloading 50%\rDone", "Doneloading 50%"),  # what a terminal shows
        ("abc\x1b[2K\rxy", "xy"),
        ("x\x1b[1Ky", " y"),
        ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("\x1b(Bok\x1b=\x07", "ok"),
        ("one\x1b[2A\x1b[10Ctwo", "onetwo"),  # moves across lines are dropped
        ("unterminated \x1b]0;title", "unterminated "),
        ("lone \x1b", "lone "),
    ],
)
def test_clean_terminal_output(raw: str, clean: str) -> None:
    assert clean_terminal_output(raw) == clean


async def test_the_spill_file_starts_at_the_first_byte_whatever_the_read_size(
    project: Path,
) -> None:
    # a small first read, then one far over the model's limit: both must be in the file
    leftovers = ToolLeftovers()
    tool = create_bash_tool(str(project), max_bytes=1000, leftovers=leftovers)
    command = "echo first; sleep 0.2; printf '%060000d\\n' 0; echo last"
    result = await tool.execute("c", {"command": command}, None, None)
    expected = "first\n" + "0" * 60000 + "\nlast\n"
    assert Path(result.details["full_output_path"]).read_text() == expected
    leftovers.close()


_FULL_DISK_CHILD = """
import asyncio, json, resource, signal, sys
from hookline.core.messages import content_text
from hookline.tools import ToolLeftovers, create_bash_tool

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))  # the "disk" holds 100 KB

async def main():
    tool = create_bash_tool(sys.argv[1], leftovers=ToolLeftovers())
    res = await tool.execute("c", {"command": "seq 1 300000"}, None, None)
    print(json.dumps({"text": content_text(res.content), "details": res.details}))

asyncio.run(main())
"""


def test_a_full_disk_loses_the_spill_file_not_the_output(project: Path, tmp_path: Path) -> None:
    spill_dir = tmp_path / "spill"
    spill_dir.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", _FULL_DISK_CHILD, str(project)],
        env={**os.environ, "TMPDIR": str(spill_dir)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["text"].endswith(
        "299999\n300000\n\n[Showing lines 298001-300000 of 300000. "
        "Full output not saved (File too large)]"
    )
    assert "full_output_path" not in out["details"]
    assert list(spill_dir.iterdir()) == [], "a partial spill file was left behind"
