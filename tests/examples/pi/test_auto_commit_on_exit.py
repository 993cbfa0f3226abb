"""pi's auto-commit-on-exit example (``examples/pi/auto_commit_on_exit.py``): a real ``-p``
run in a git repository writes a file; when the agent exits the work is committed under the
first line of the last answer."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookline.core.host import EmptySession
from tests.examples.harness import PI_EXAMPLES, Example
from tests.modes.helpers import run_cli, write_script

PORT = str(PI_EXAMPLES / "auto_commit_on_exit.py")
LONG = "Added the parser module with a tokenizer and the grammar rules for it"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def _repo(path: Path) -> Path:
    path.mkdir()
    git(path, "init", "-q")
    git(path, "config", "user.email", "dev@example.invalid")
    git(path, "config", "user.name", "dev")
    (path / "README").write_text("hi\n")
    git(path, "add", "README")
    git(path, "commit", "-qm", "initial")
    return path


def _run(tmp_path: Path, project: Path, answer: str) -> None:
    write = {"name": "write", "arguments": {"path": "parser.py", "content": "TOKENS = []\n"}}
    model = write_script(
        tmp_path / "script.json", [{"tool_calls": [write]}, {"text": f"{answer}\nDetails."}]
    )
    done = run_cli(
        *("-p", "write a parser", "--model", model, "--no-session", "--cwd", str(project)),
        *("--hook", PORT, "--permission-mode", "bypassPermissions"),
    )
    assert done.returncode == 0, done.stderr


def test_the_work_is_committed_on_exit(tmp_path: Path) -> None:
    project = _repo(tmp_path / "project")
    _run(tmp_path, project, LONG)
    subject = git(project, "log", "-1", "--format=%s").strip()
    assert subject == f"[pi] {LONG[:50]}..."
    assert git(project, "show", "HEAD:parser.py") == "TOKENS = []\n"
    assert git(project, "status", "--porcelain") == ""


def test_a_short_answer_is_the_whole_subject(tmp_path: Path) -> None:
    project = _repo(tmp_path / "project")
    _run(tmp_path, project, "Parser added")
    assert git(project, "log", "-1", "--format=%s").strip() == "[pi] Parser added"


def test_outside_a_repository_nothing_happens(tmp_path: Path) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    _run(tmp_path, project, "Parser added")
    assert (project / "parser.py").is_file()
    assert not (project / ".git").exists()


def test_nothing_changed_nothing_committed(tmp_path: Path) -> None:
    project = _repo(tmp_path / "project")
    model = write_script(tmp_path / "script.json", ["Nothing to do."])
    done = run_cli(
        "-p", "hi", "--model", model, "--no-session", "--cwd", str(project), "--hook", PORT
    )
    assert done.returncode == 0, done.stderr
    assert git(project, "log", "--format=%s").splitlines() == ["initial"]


class _Answered(EmptySession):
    def get_entries(self) -> Sequence[Mapping[str, Any]]:
        text = {"type": "text", "text": "Fixed the bug"}
        return [{"type": "message", "message": {"role": "assistant", "content": [text]}}]


async def test_with_a_ui_it_says_what_it_committed(tmp_path: Path, example: Example) -> None:
    project = _repo(tmp_path / "project")
    (project / "README").write_text("changed\n")
    harness = example("auto_commit_on_exit", cwd=project, answers={})
    harness.host.session_manager = _Answered()
    await harness.emit("session_shutdown", reason="quit")
    assert harness.ui.notifications == [("info", "Auto-committed: [pi] Fixed the bug")]
    assert git(project, "log", "-1", "--format=%s").strip() == "[pi] Fixed the bug"
