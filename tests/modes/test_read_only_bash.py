"""``hookline -p`` with no UI: a read-only line such as ``git status`` runs unasked, a
line that writes is still denied."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from .helpers import run_cli, write_script


@pytest.fixture
def repo(project: Path) -> Path:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    for args in (["init", "-q"], ["config", "user.email", "t@example.com"]):
        subprocess.run(["git", *args], cwd=project, env=env, check=True)
    (project / "notes.txt").write_text("hello\n")
    return project


def bash_turns(command: str, expect: str) -> list[dict[str, object]]:
    return [
        {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]},
        {"text": "done", "expect_tool_result_contains": expect},
    ]


@pytest.mark.parametrize("mode", ["default", "plan"])
def test_git_status_runs_without_asking(repo: Path, tmp_path: Path, mode: str) -> None:
    model = write_script(tmp_path / "script.json", bash_turns("git status", "notes.txt"))
    done = run_cli("-p", "go", "--model", model, "--cwd", str(repo), "--permission-mode", mode)
    assert done.returncode == 0, done.stderr
    assert "Permission denied" not in done.stdout + done.stderr


def test_touch_is_still_denied_with_no_ui(repo: Path, tmp_path: Path) -> None:
    model = write_script(tmp_path / "script.json", bash_turns("touch x", "Permission denied"))
    done = run_cli("-p", "go", "--model", model, "--cwd", str(repo))
    assert done.returncode == 0, done.stderr
    assert not (repo / "x").exists()
