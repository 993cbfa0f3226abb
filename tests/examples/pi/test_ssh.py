"""pi's ssh example in Python (``examples/pi/ssh.py``): with ``--ssh`` the built-in tools
run on the other host. A stand-in ``ssh`` on ``PATH`` runs each command in a second local
folder, so nothing goes over the network."""

from __future__ import annotations

import os
from pathlib import Path

from tests.modes.helpers import json_lines, run_cli, write_script

from ..harness import PI_EXAMPLES

FAKE_SSH = """#!/bin/sh
# ssh HOST COMMAND: the command runs here, as it would on HOST
echo "$1" >> "$(dirname "$0")/hosts"
exec bash -c "$2"
"""


def _fake_ssh(bin_dir: Path) -> dict[str, str]:
    bin_dir.mkdir()
    ssh = bin_dir / "ssh"
    ssh.write_text(FAKE_SSH)
    ssh.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def test_the_tools_run_on_the_remote(tmp_path: Path, project: Path) -> None:
    remote = tmp_path / "remote"
    remote.mkdir()
    (remote / "there.txt").write_text("remote content\n")
    env = _fake_ssh(tmp_path / "bin")
    turns = [
        {
            "text": "writing",
            "tool_calls": [{"name": "write", "arguments": {"path": "n/new.txt", "content": "a b"}}],
        },
        {
            "text": "editing",
            "tool_calls": [
                {"name": "edit", "arguments": {"path": "n/new.txt", "oldText": "b", "newText": "c"}}
            ],
        },
        {"text": "reading", "tool_calls": [{"name": "read", "arguments": {"path": "there.txt"}}]},
        {
            "text": "listing",
            "expect_tool_result_contains": "remote content",
            "tool_calls": [{"name": "bash", "arguments": {"command": "pwd; cat n/new.txt"}}],
        },
        {"text": "done", "expect_tool_result_contains": f"{remote}\na c"},
    ]
    done = run_cli(
        "-p", "go", "--mode", "json",
        "--model", write_script(tmp_path / "script.json", turns),
        "--hook", str(PI_EXAMPLES / "ssh.py"),
        "--ssh", f"box:{remote}",
        "--permission-mode", "bypassPermissions",
        cwd=project, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (remote / "n" / "new.txt").read_text() == "a c"
    assert not (project / "n").exists()
    assert set((tmp_path / "bin" / "hosts").read_text().split()) == {"box"}
    assert f"[info] SSH mode: box:{remote}" in done.stderr
    ends = [x for x in json_lines(done.stdout) if x["type"] == "tool_execution_end"]
    assert [x["is_error"] for x in ends] == [False] * 4


def test_without_the_flag_the_tools_stay_local(tmp_path: Path, project: Path) -> None:
    env = _fake_ssh(tmp_path / "bin")
    turns = [
        {
            "text": "writing",
            "tool_calls": [{"name": "write", "arguments": {"path": "here.txt", "content": "x"}}],
        },
        {"text": "done"},
    ]
    done = run_cli(
        "-p", "go",
        "--model", write_script(tmp_path / "script.json", turns),
        "--hook", str(PI_EXAMPLES / "ssh.py"),
        "--permission-mode", "bypassPermissions",
        cwd=project, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (project / "here.txt").read_text() == "x"
    assert not (tmp_path / "bin" / "hosts").exists()
