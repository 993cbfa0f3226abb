"""A run ends clean: no asyncio noise at exit, no child of a tool or a hook left running.

The real CLI runs a scripted model whose tool calls leave background children
behind (one holding the pipes past a timeout, one backgrounded by the command,
one from a settings hook); after the CLI exits every one of them is gone, except
the child that left its process group on purpose with ``setsid``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from .helpers import run_cli, write_script


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not _alive(pid)


_WAIT_SETSID = (
    'until read -r _ _ _ _ _ sid _ < /proc/$pid/stat && [ "$sid" = "$pid" ]; do :; done; '
)


def test_no_noise_and_no_leftover_children_after_a_run(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    pids = {name: tmp_path / f"{name}.pid" for name in ("setsid", "job", "hook")}
    # a settings hook that backgrounds a child still holding its stdout, then allows the call
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    hook = f"(sleep 30 & echo $! > {pids['hook']}); exit 0"
    settings.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": hook}]}]}})
    )
    setsid = "setsid sleep 30 & pid=$!; " + _WAIT_SETSID + f"echo $pid > {pids['setsid']}; sleep 30"
    job = f"sleep 30 & echo $! > {pids['job']}; echo started"
    script = write_script(
        tmp_path / "script.json",
        [
            {
                "text": "working",
                "tool_calls": [
                    # killed by its timeout while a setsid child still holds its pipes
                    {"name": "bash", "arguments": {"command": setsid, "timeout": 1}},
                    # returns at once; the backgrounded job runs until the agent ends
                    {"name": "bash", "arguments": {"command": job}},
                ],
            },
            {"text": "all done"},
        ],
    )
    try:
        done = run_cli(
            "-p",
            "go",
            "--model",
            script,
            "--cwd",
            str(project),
            "--permission-mode",
            "bypassPermissions",
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "all done"
        assert "Exception ignored" not in done.stderr, done.stderr
        assert "Event loop is closed" not in done.stderr, done.stderr
        for name in ("job", "hook"):
            pid = int(pids[name].read_text())
            assert _gone(pid), f"the {name}'s background child {pid} outlived the agent"
        assert _alive(int(pids["setsid"].read_text())), "a setsid child is left alone"
    finally:
        if pids["setsid"].exists():
            os.kill(int(pids["setsid"].read_text()), 9)


def test_a_flood_in_json_mode_sends_few_small_updates(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    flood = {"name": "bash", "arguments": {"command": "yes | head -c 20000000"}}
    script = write_script(
        tmp_path / "script.json", [{"text": "", "tool_calls": [flood]}, {"text": "ok"}]
    )
    started = time.monotonic()
    done = run_cli(
        "-p",
        "go",
        "--mode",
        "json",
        "--model",
        script,
        "--cwd",
        str(project),
        "--permission-mode",
        "bypassPermissions",
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    updates = [
        json.loads(line)
        for line in done.stdout.splitlines()
        if '"tool_execution_update"' in line[:40]
    ]
    assert updates, "the flood was streamed"
    # a rate bound, not a speed claim: at most ten a second however slow the machine is
    assert len(updates) <= 10 * elapsed + 2, (len(updates), elapsed)
    # each update carries only new output, at most 50 KB of it (re-sending the rolling tail
    # for every pipe read made this 15 MB)
    assert all(len(u["partial_result"]["content"][0]["text"]) <= 51 * 1024 for u in updates)
    assert len(done.stdout) < 1_000_000, len(done.stdout)


def test_a_closed_stdout_is_no_traceback_and_never_lands_in_the_session(tmp_path: Path) -> None:
    """``hookline -p x >&-``: fd 1 must not be reused for the event loop or a session file."""
    import subprocess

    from .helpers import CLI, TIMEOUT, read_jsonl, session_files

    model = write_script(
        tmp_path / "script.json",
        [
            {"tool_calls": [{"id": "b1", "name": "bash", "arguments": {"command": "echo LEAK"}}]},
            {"text": "answered"},
        ],
    )
    for mode in (["-p", "go"], ["--mode", "rpc"]):
        done = subprocess.run(
            ["sh", "-c", 'exec "$@" >&-', "sh", *CLI, *mode, "--model", model,
             "--cwd", str(tmp_path), "--permission-mode", "bypassPermissions"],
            input='{"type": "prompt", "message": "go"}\n', capture_output=True, text=True,
            env=os.environ.copy(), timeout=TIMEOUT, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    sessions = session_files(Path.home())
    assert len(sessions) == 2
    for session in sessions:
        entries = read_jsonl(session)  # every line is JSON: nothing else was written into it
        assert entries[0]["type"] == "session"
        results = [e["message"] for e in entries if e.get("message", {}).get("role") == "tool"]
        assert results[0]["content"][0]["text"] == "LEAK\n"
