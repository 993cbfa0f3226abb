"""git_checkpoint and handoff through the pytest plugin (their end-to-end runs with a real agent
are in tests/agent/test_examples.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .harness import Example

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    git(
        root,
        "-c",
        "user.email=t@x.invalid",
        "-c",
        "user.name=t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "0",
    )
    (root / "a.txt").write_text("committed\n")
    git(root, "add", "a.txt")
    git(root, "-c", "user.email=t@x.invalid", "-c", "user.name=t", "commit", "-q", "-m", "a")
    return root


RESTORE = "Yes, restore code to that point"


async def test_git_checkpoint_restores_the_turns_code_when_asked(
    example: Example, repo: Path
) -> None:
    harness = example("git_checkpoint", cwd=repo, answers={"select": RESTORE})
    (repo / "a.txt").write_text("turn 0\n")
    (await harness.emit("turn_start", turn_index=0)).assert_allowed()
    (repo / "a.txt").write_text("turn 1\n")
    (await harness.emit("session_before_branch", target_turn_index=0)).assert_allowed()
    assert (repo / "a.txt").read_text() == "turn 0\n"
    assert harness.ui.asked[0].detail == [RESTORE, "No, keep current code"]
    assert ("info", "Code restored to checkpoint") in harness.ui.notifications


async def test_git_checkpoint_keeps_the_code_on_no(example: Example, repo: Path) -> None:
    harness = example("git_checkpoint", cwd=repo, answers={"select": "No, keep current code"})
    (repo / "a.txt").write_text("turn 0\n")
    await harness.emit("turn_start", turn_index=0)
    (repo / "a.txt").write_text("turn 1\n")
    await harness.emit("session_before_branch", target_turn_index=0)
    assert (repo / "a.txt").read_text() == "turn 1\n"


async def test_git_checkpoint_asks_nothing_without_a_checkpoint(
    example: Example, repo: Path
) -> None:
    harness = example("git_checkpoint", cwd=repo, answers={})
    await harness.emit("turn_start", turn_index=0)  # a clean tree: nothing to capture
    await harness.emit("session_before_branch", target_turn_index=0)
    assert harness.ui.asked == []


class _Session:
    def __init__(self) -> None:
        self.messages: list[Any] = []

    def append_message(self, message: Any) -> None:
        self.messages.append(message)

    def get_session_file(self) -> str:
        return "/sessions/current.jsonl"


async def test_handoff_opens_a_child_session_seeded_with_a_message(example: Example) -> None:
    harness = example("handoff")
    harness.host.session_manager = _Session()
    assert await harness.command("handoff") == []
    [(parent, setup)] = harness.host.new_sessions
    assert parent == "/sessions/current.jsonl"
    child = _Session()
    setup(child)
    [message] = child.messages
    assert message["role"] == "user"
    assert message["content"] == [{"type": "text", "text": "Continue from prior session summary."}]


async def test_an_unknown_command_is_an_error(example: Example) -> None:
    with pytest.raises(LookupError, match="/nope"):
        await example("handoff").command("nope")
