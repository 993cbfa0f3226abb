"""pi's git-checkpoint example (``examples/pi/git_checkpoint.py``) in a real git repository,
through the pytest plugin: a checkpoint per turn under the entry whose tools ran, restored on
a fork at that entry when the user says yes. (Its end-to-end runs with a real agent forking
its session are in tests/agent/test_examples.py.)"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hookline.authoring import HookHarness
from hookline.core.host import EmptySession
from tests.examples.harness import Example

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

RESTORE = "Yes, restore code to that point"
KEEP = "No, keep current code"


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.txt").write_text("committed\n")
    git(root, "add", "a.txt")
    git(root, "-c", "user.email=t@x.invalid", "-c", "user.name=t", "commit", "-q", "-m", "a")
    return root


class _AtEntry(EmptySession):
    """A session whose leaf is the entry a tool call just ran in."""

    def __init__(self) -> None:
        self.leaf = "entry-1"

    def get_leaf_id(self) -> str | None:
        return self.leaf


async def _turns(example: Example, repo: Path, answers: dict[str, object] | None) -> HookHarness:
    harness = example("git_checkpoint", cwd=repo, answers=answers)
    harness.host.session_manager = session = _AtEntry()
    (repo / "a.txt").write_text("after entry-1\n")
    await harness.tool_result("write", {"path": "a.txt"})
    (await harness.emit("turn_start", turn_index=1)).assert_allowed()  # the checkpoint
    session.leaf = "entry-2"
    (repo / "a.txt").write_text("after entry-2\n")
    await harness.tool_result("write", {"path": "a.txt"})
    return harness


async def test_a_fork_at_the_entry_restores_its_code_when_asked(
    example: Example, repo: Path
) -> None:
    harness = await _turns(example, repo, {"select": RESTORE})
    emitted = await harness.emit("session_before_fork", entry_id="entry-1")
    emitted.assert_allowed()  # the fork goes ahead either way
    assert (repo / "a.txt").read_text() == "after entry-1\n"
    assert harness.ui.asked[0].detail == [RESTORE, KEEP]
    assert ("info", "Code restored to checkpoint") in harness.ui.notifications


async def test_no_keeps_the_code(example: Example, repo: Path) -> None:
    harness = await _turns(example, repo, {"select": KEEP})
    await harness.emit("session_before_fork", entry_id="entry-1")
    assert (repo / "a.txt").read_text() == "after entry-2\n"


async def test_nothing_is_asked_without_a_checkpoint_or_a_ui(example: Example, repo: Path) -> None:
    harness = await _turns(example, repo, {})
    await harness.emit("session_before_fork", entry_id="entry-2")
    assert harness.ui.asked == []
    harness = await _turns(example, repo, None)  # no UI
    await harness.emit("session_before_fork", entry_id="entry-1")
    assert harness.ui.asked == []
    assert (repo / "a.txt").read_text() == "after entry-2\n"
