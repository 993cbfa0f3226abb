"""`hookline claude-hook` never answers nothing: every way of failing is a deny where Claude
Code can block (judged by its contract: exit 2, or ``permissionDecision: deny`` at exit 0).

Real subprocesses with the input on stdin, as Claude Code starts the hook.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .helpers import HookAnswer, run_claude_hook
from .helpers import pre_tool_use as _pre

BLOCK_ALL = (
    "def register(pi):\n"
    "    pi.on('tool_call', lambda e, c: {'block': True, 'reason': 'project hook'})\n"
)


def _untrusted_project(root: Path) -> Path:
    hooks = root / ".hookline" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "deny.py").write_text(BLOCK_ALL)
    return root


def _blocks(answer: HookAnswer, event: str = "PreToolUse") -> bool:
    """Whether Claude Code blocks the call on this answer (hooks reference: exit 2 blocks
    with stderr; at exit 0 the JSON decision is read)."""
    if answer.code == 2:
        return True
    specific = answer.output.get("hookSpecificOutput", {})
    if answer.code != 0 or specific.get("hookEventName") != event:
        return False
    if event == "PermissionRequest":
        return bool(specific.get("decision", {}).get("behavior") == "deny")
    return bool(specific.get("permissionDecision") == "deny")


# -- a project whose hooks are not loaded -------------------------------------------------


def test_an_untrusted_project_denies_tool_calls_saying_what_to_run(tmp_path: Path) -> None:
    project = _untrusted_project(tmp_path)
    answer = run_claude_hook(_pre(project, "Bash", {"command": "ls"}), cwd=project)
    assert _blocks(answer)
    reason = answer.output["hookSpecificOutput"]["permissionDecisionReason"]
    assert f"hookline trust {project}" in reason
    assert "deny.py" in reason


def test_an_untrusted_project_denies_permission_requests(tmp_path: Path) -> None:
    project = _untrusted_project(tmp_path)
    payload = {**_pre(project, "Bash", {"command": "ls"}), "hook_event_name": "PermissionRequest"}
    answer = run_claude_hook(payload, cwd=project)
    assert _blocks(answer, "PermissionRequest")


def test_an_untrusted_project_says_so_on_other_events(tmp_path: Path) -> None:
    project = _untrusted_project(tmp_path)
    payload = {"hook_event_name": "SessionStart", "cwd": str(project), "source": "startup"}
    answer = run_claude_hook(payload, cwd=project)
    assert answer.code == 0
    assert f"hookline trust {project}" in answer.output["systemMessage"]


def test_allow_untrusted_skip_lets_the_call_through_and_says_so(tmp_path: Path) -> None:
    project = _untrusted_project(tmp_path)
    payload = _pre(project, "Bash", {"command": "ls"})
    answer = run_claude_hook(payload, "--allow-untrusted-skip", cwd=project)
    assert (answer.code, answer.output) == (0, {})
    assert "not trusted" in answer.stderr


def test_a_trusted_project_runs_its_hooks(tmp_path: Path) -> None:
    project = _untrusted_project(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "hookline.cli", "trust", str(project)], check=True, timeout=60
    )
    answer = run_claude_hook(_pre(project, "Bash", {"command": "ls"}), cwd=project)
    assert answer.output["hookSpecificOutput"]["permissionDecisionReason"] == "project hook"
    assert "systemMessage" not in answer.output


# -- input that cannot be read ------------------------------------------------------------


def _deep(cwd: Path, depth: int, event: str = "PreToolUse") -> str:
    """A hook input whose ``tool_input`` (chosen by the model) nests ``depth`` lists."""
    head = json.dumps({**_pre(cwd, "Bash", {}), "hook_event_name": event})[:-1]
    head = head.replace(
        '"tool_input": {}', '"tool_input": {"a": ' + "[" * depth + "]" * depth + "}"
    )
    return head + "}"


@pytest.mark.parametrize("depth", [2_000, 100_000])
def test_deeply_nested_input_denies(tmp_path: Path, depth: int) -> None:
    answer = run_claude_hook(_deep(tmp_path, depth), "--no-discovery", cwd=tmp_path)
    assert _blocks(answer), answer
    assert "nested too deeply" in answer.stderr
    assert "Traceback" not in answer.stderr


def test_deep_input_after_the_call_is_an_error_not_a_block(tmp_path: Path) -> None:
    """Known event that cannot block: exit 1, a non-blocking error Claude Code shows."""
    answer = run_claude_hook(_deep(tmp_path, 5_000, "PostToolUse"), "--no-discovery", cwd=tmp_path)
    assert answer.code == 1
    assert "nested too deeply" in answer.stderr


def test_a_model_chosen_event_name_inside_the_input_is_not_believed(tmp_path: Path) -> None:
    """The model may put ``"hook_event_name": "Stop"`` into tool_input: two names, so the
    answer is the form that blocks a PreToolUse (never Stop's exit 1)."""
    text = _deep(tmp_path, 3_000).replace('"a": [', '"hook_event_name": "Stop", "a": [', 1)
    answer = run_claude_hook(text, "--no-discovery", cwd=tmp_path)
    assert _blocks(answer)


@pytest.mark.parametrize(
    "bad",
    [
        b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"n": NaN}}',
        b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"c": "\\ud800"}}',
        b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"c": "\xff\xfe"}}',
        b'{"hook_event_name": "PreToolUse", "tool_name": ["Bash"], "tool_input": {}}',
        b'{"hook_event_name": 7, "tool_name": "Bash", "tool_input": {}}',
        b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"c": "'
        + b"x" * (9 * 1024 * 1024)
        + b'"}}',
    ],
    ids=["nan", "lone-surrogate", "invalid-utf8", "wrong-type", "event-not-text", "megabytes"],
)
def test_malformed_input_denies(tmp_path: Path, bad: bytes) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hookline.cli", "claude-hook", "--no-discovery"],
        input=bad,
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    stdout = proc.stdout.decode()
    answer = HookAnswer(proc.returncode, json.loads(stdout) if stdout.strip() else {}, "")
    assert _blocks(answer), (proc.returncode, stdout, proc.stderr[-500:])
    assert b"Traceback" not in proc.stderr


# -- hooks that never answer --------------------------------------------------------------

STUCK = """
import itertools, os, re, subprocess, time

def register(pi):
    @pi.on("tool_call")
    def stuck(event, ctx):
        how = event.input["command"]
        with open("pids", "w") as f:
            f.write(f"{os.getpid()} {subprocess.Popen(['sleep', '1000']).pid}")
        if how == "spin":
            while True:
                pass
        if how == "sleep":
            time.sleep(10**6)
        if how == "regex":  # holds the GIL: no signal or thread gets in
            re.match(r"(a+)+$", "a" * 64 + "b")
        if how == "c-loop":  # C code that never looks at signals
            sum(itertools.repeat(1, 10**15))
        if how == "swallow":
            while True:
                try:
                    time.sleep(10**6)
                except BaseException:
                    pass
"""


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.parametrize("how", ["spin", "sleep", "regex", "swallow", "c-loop"])
def test_a_stuck_plain_handler_is_denied_at_the_deadline(
    tmp_path: Path, hook_file: Any, how: str
) -> None:
    hook = hook_file(STUCK)
    started = time.monotonic()
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": how}),
        *("--no-discovery", "--hook", str(hook), "--timeout", "1"),
        cwd=tmp_path,
    )
    assert _blocks(answer)
    assert "no answer within 1 s" in answer.stderr
    assert time.monotonic() - started < 20
    # The stuck process and what the hook started are gone, not left spinning.
    worker, program = (int(p) for p in (tmp_path / "pids").read_text().split())
    deadline = time.monotonic() + 10
    while (_running(worker) or _running(program)) and time.monotonic() < deadline:
        time.sleep(0.05)  # waiting for init to reap the killed program, not for an event
    assert not _running(worker)
    assert not _running(program)


def test_a_hook_module_stuck_at_import_is_denied(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file("while True:\n    pass\n")
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": "ls"}),
        *("--no-discovery", "--hook", str(hook), "--timeout", "1"),
        cwd=tmp_path,
    )
    assert _blocks(answer)
    assert "no answer within 1 s" in answer.stderr


def test_a_stuck_hook_on_stop_is_an_error_not_a_block(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(
        "import time\ndef register(pi):\n    pi.on('stop', lambda e, c: time.sleep(10**6))\n"
    )
    payload = {"hook_event_name": "Stop", "cwd": str(tmp_path), "stop_hook_active": False}
    answer = run_claude_hook(
        payload, "--no-discovery", "--hook", str(hook), "--timeout", "1", cwd=tmp_path
    )
    assert (answer.code, answer.output) == (1, {})


def test_the_timeout_must_be_a_positive_number(tmp_path: Path) -> None:
    for bad in ("0", "-1", "nan", "soon"):
        answer = run_claude_hook("{}", "--timeout", bad, cwd=tmp_path)
        assert answer.code == 2 and "positive number of seconds" in answer.stderr


def test_a_hook_that_kills_its_process_is_denied(tmp_path: Path, hook_file: Any) -> None:
    hook = hook_file(
        "import os, signal\ndef register(pi):\n"
        "    pi.on('tool_call', lambda e, c: os.kill(os.getpid(), signal.SIGKILL))\n"
    )
    answer = run_claude_hook(
        _pre(tmp_path, "Bash", {"command": "ls"}), "--no-discovery", "--hook", str(hook),
        cwd=tmp_path,
    )  # fmt: skip
    assert _blocks(answer)
    assert "ended without an answer (killed by signal 9)" in answer.stderr


def test_stopping_claude_hook_stops_its_stuck_hook(tmp_path: Path, hook_file: Any) -> None:
    """Claude Code cancelling the hook (SIGTERM) must not leave the hook spinning."""
    import signal

    hook = hook_file(STUCK)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hookline.cli", "claude-hook", "--no-discovery", "--hook",
         str(hook)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
    )  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(_pre(tmp_path, "Bash", {"command": "spin"})).encode())
    proc.stdin.close()
    pids = tmp_path / "pids"
    deadline = time.monotonic() + 30
    while not (pids.exists() and len(pids.read_text().split()) == 2):
        assert time.monotonic() < deadline, "the hook never started"
        time.sleep(0.02)  # polling for the hook's file: there is no event to wait on
    worker, program = (int(p) for p in pids.read_text().split())
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    deadline = time.monotonic() + 10
    while (_running(worker) or _running(program)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(worker)
    assert not _running(program)


def test_the_default_deadline_is_the_hook_timeout() -> None:
    """Two names for one number: the watchdog may not import the runner before it forks."""
    from hookline.bridge.watchdog import DEFAULT_DEADLINE
    from hookline.core.runner import DEFAULT_HOOK_TIMEOUT

    assert DEFAULT_DEADLINE == DEFAULT_HOOK_TIMEOUT
