"""Message builders and a subprocess runner shared by the session tests."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from hookline.core.messages import AssistantContent, AssistantMessage, ToolResultMessage


def assistant(text: str, *calls: tuple[str, str, dict[str, Any]]) -> AssistantMessage:
    """An assistant message with text and tool calls ``(id, name, arguments)``."""
    content: list[AssistantContent] = [{"type": "text", "text": text}]
    for call_id, name, args in calls:
        content.append({"type": "tool_call", "id": call_id, "name": name, "arguments": args})
    return {"role": "assistant", "content": content}


def tool_result(call_id: str, name: str, text: str) -> ToolResultMessage:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "tool_name": name,
        "content": [{"type": "text", "text": text}],
        "is_error": False,
    }


def spawn_python(code: str) -> subprocess.Popen[str]:
    """A real ``python -c`` child with this environment (HOME/HOOKLINE_HOME included)."""
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )


HOOKLINE = [sys.executable, "-m", "hookline.cli"]


def run_hookline(
    *args: str,
    prefix: Sequence[str] = (),
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The real ``hookline`` CLI to the end (``prefix``: a wrapper command such as setpriv)."""
    return subprocess.run(
        [*prefix, *HOOKLINE, *args],
        input="",
        capture_output=True,
        text=True,
        env=dict(os.environ),
        preexec_fn=preexec_fn,
        timeout=60,
        check=False,
    )


def file_size_limit(limit: int) -> Callable[[], None]:
    """A ``preexec_fn``: the child may write files up to ``limit`` bytes; beyond, EFBIG.

    SIGXFSZ is ignored (Python ignores it too) so a write past the limit fails
    with ``EFBIG`` instead of killing the process: the disk-full path, for real.
    """

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))

    return apply


def without_root_override() -> list[str]:
    """A command prefix that makes file permissions bind even when the tests run as root."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and setpriv is missing: permissions cannot be enforced")
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}"]


def jsonl_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of a session file parsed; the file must end with a newline (no torn tail)."""
    data = path.read_bytes()
    assert data.endswith(b"\n"), f"{path} does not end with a newline: {data[-80:]!r}"
    return [json.loads(line) for line in data.decode().splitlines()]
