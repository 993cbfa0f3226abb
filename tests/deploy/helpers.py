"""What the deployment files are checked against: the flags ``hookline serve`` really
takes, and the service itself, started from ``deploy/hooks`` as the image runs it."""

from __future__ import annotations

import functools
import os
import re
import shlex
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SERVE = [sys.executable, "-m", "hookline.cli", "serve"]
TOKEN = "deploy-test-token"


@functools.cache
def serve_flags() -> frozenset[str]:
    """Every option ``hookline serve --help`` lists, as the code of this checkout says it."""
    done = subprocess.run(
        [*SERVE, "--help"], capture_output=True, text=True, check=True, timeout=60
    )
    return frozenset(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", done.stdout))


def require_asgi_serve() -> None:
    """Skip where ``serve`` predates the ASGI server: no ``--workers`` flag to check against."""
    if "--workers" not in serve_flags():
        pytest.skip("hookline serve has no --workers here: the ASGI server is not in this tree")


def unknown_flags(argv: list[str]) -> list[str]:
    """The ``--flags`` of a ``serve`` command line that ``hookline serve`` does not take."""
    flags = [word.partition("=")[0] for word in argv if word.startswith("--")]
    return [flag for flag in flags if flag not in serve_flags()]


def serve_argv(command: str | list[str]) -> list[str]:
    """The words after ``serve`` of a command line (a string is split as a shell would)."""
    words = shlex.split(command) if isinstance(command, str) else list(command)
    assert "serve" in words, words
    program = words[words.index("serve") - 1]
    assert Path(program).name == "hookline", words
    return words[words.index("serve") + 1 :]


def option(argv: list[str], flag: str) -> str | None:
    """The value of ``flag`` in ``argv`` (``--flag VALUE`` or ``--flag=VALUE``)."""
    for i, word in enumerate(argv):
        if word == flag and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith(flag + "="):
            return word.partition("=")[2]
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving_policy(cwd: Path, *extra: str) -> Iterator[int]:
    """``hookline serve --http`` on loopback with ``deploy/hooks`` and ``TOKEN``; its port.

    Ready when it prints a line naming its address (today's server and uvicorn
    both do), read from its stderr; the rest of stderr is drained so it never blocks.
    """
    port = _free_port()
    argv = [*SERVE, "--http", f"127.0.0.1:{port}", "--no-discovery"]
    argv += ["--hook", str(DEPLOY / "hooks"), *extra]
    if "--workers" in serve_flags():
        argv += ["--workers", "1"]
    env: dict[str, Any] = {**os.environ, "HOOKLINE_SERVE_TOKEN": TOKEN}
    env["HOOKLINE_HOME"] = str(cwd / ".hookline-home")
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, cwd=cwd, env=env)
    assert proc.stderr is not None
    seen: list[str] = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if f"127.0.0.1:{port}" in line:
                break
        else:
            raise AssertionError(f"serve exited {proc.wait()}:\n{''.join(seen)}")
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def pre_tool_use(command: str, cwd: Path) -> dict[str, Any]:
    """A PreToolUse hook input for Bash, as Claude Code posts it."""
    return {
        "session_id": "deploy-test",
        "transcript_path": str(cwd / "t.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    }


def denied(answer: dict[str, Any]) -> bool:
    """A PreToolUse answer that denies the call."""
    specific = answer.get("hookSpecificOutput") or {}
    return specific.get("permissionDecision") == "deny" or answer.get("decision") == "block"
