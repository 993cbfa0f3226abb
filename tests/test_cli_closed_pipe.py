"""``hookline … | head``: when the reader of its output goes away the command ends quietly
(no traceback, no "Exception ignored"): with the status a shell gives SIGPIPE, or 0 where
the output was help text argparse gives up on by itself."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.modes.helpers import CLI, TIMEOUT

HOOK = "def register(pi):\n    @pi.on('tool_call')\n    def h(event, ctx):\n        return None\n"


@pytest.mark.parametrize(
    "args",
    [
        ["hooks", "list"],
        ["trust", "--list"],
        ["settings", "schema"],
        ["--help"],
        ["hooks", "--help"],
        ["--version"],
    ],
    ids=" ".join,
)
def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path, args: list[str]) -> None:
    hooks = []
    for i in range(20):  # enough lines that `hooks list` writes more than once
        (tmp_path / f"hook{i}.py").write_text(HOOK)
        hooks += ["--hook", str(tmp_path / f"hook{i}.py")]
    extra = hooks if args == ["hooks", "list"] else []
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte: every write fails
    try:
        done = subprocess.run(
            [*CLI, *args, *extra],
            stdout=write,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            cwd=tmp_path,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr, done.stderr
    assert "BrokenPipe" not in done.stderr and "Exception ignored" not in done.stderr
    assert done.returncode == (0 if "--help" in args else 141), done.stderr
