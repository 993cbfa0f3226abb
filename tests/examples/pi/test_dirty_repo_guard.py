"""pi's dirty-repo-guard example (``examples/pi/dirty_repo_guard.py``): with uncommitted
changes in a real git repository a new session is refused without a UI (``-p /new``) and
asked about over RPC; a clean tree is let through."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.examples.harness import PI_EXAMPLES
from tests.modes.helpers import RpcClient, run_cli, write_script
from tests.modes.tui.helpers import app
from tests.modes.tui.pane import needs_tmux

from .dialogs import answering, said

PORT = str(PI_EXAMPLES / "dirty_repo_guard.py")


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def _repo(path: Path) -> Path:
    path.mkdir()
    git(path, "init", "-q")
    git(path, "config", "user.email", "dev@example.invalid")
    git(path, "config", "user.name", "dev")
    (path / "a.txt").write_text("a\n")
    git(path, "add", "a.txt")
    git(path, "commit", "-qm", "initial")
    return path


def _new(tmp_path: Path, project: Path) -> str:
    model = write_script(tmp_path / "script.json", [])
    done = run_cli("-p", "/new", "--model", model, "--cwd", str(project), "--hook", PORT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_without_a_ui_a_dirty_tree_keeps_the_session(tmp_path: Path) -> None:
    project = _repo(tmp_path / "project")
    (project / "a.txt").write_text("changed\n")
    assert _new(tmp_path, project) == "a hook kept this session\n"
    git(project, "commit", "-qam", "saved")
    assert _new(tmp_path, project) != "a hook kept this session\n"


def test_outside_a_repository_nothing_is_guarded(tmp_path: Path) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    (project / "a.txt").write_text("a\n")
    assert _new(tmp_path, project) != "a hook kept this session\n"


async def test_the_user_chooses(tmp_path: Path) -> None:
    project = _repo(tmp_path / "project")
    (project / "a.txt").write_text("changed\n")
    (project / "b.txt").write_text("new\n")
    model = write_script(tmp_path / "script.json", ["Hi.", "Again."])
    async with RpcClient("--model", model, "--hook", PORT, cwd=project) as client:
        data, seen = await answering(client, {"type": "new_session"}, "No, let me commit first")
        assert data == {"cancelled": True}
        assert said(seen) == [
            "You have 2 uncommitted file(s). new session anyway?",
            "Commit your changes first",
        ]
        assert seen[0]["options"] == ["Yes, proceed anyway", "No, let me commit first"]
        data, _ = await answering(client, {"type": "new_session"}, "Yes, proceed anyway")
        assert data == {"cancelled": False}

        await client.prompt("hi")
        await client.prompt("hi again")
        forkable = await client.ok({"type": "get_fork_messages"})
        fork = {"type": "fork", "entryId": forkable["messages"][1]["entryId"]}
        data, seen = await answering(client, fork, "No, let me commit first")
        assert data["cancelled"] is True
        assert said(seen)[0] == "You have 2 uncommitted file(s). fork anyway?"
        assert await client.close_stdin() == 0


@needs_tmux
def test_the_select_dialog_in_the_terminal_app(tmp_path: Path) -> None:
    project = _repo(tmp_path / "project")
    (project / "a.txt").write_text("changed\n")
    with app(tmp_path, ["Kept."], None, "--hook", PORT) as pane:
        pane.ready()
        pane.type("remember me")
        pane.keys("Enter")
        pane.wait_for("Kept.")
        pane.type("/new")
        pane.keys("Enter")
        pane.wait_for(
            lambda s: (
                "You have 1 uncommitted file(s). new session anyway?" in s
                and "No, let me commit first" in s
            )
        )
        pane.keys("Down")
        pane.keys("Enter")
        screen = pane.wait_for(lambda s: "Commit your changes first" in s and "2 msgs" in s)
        assert "remember me" in screen  # the session was kept
        pane.type("/new")
        pane.keys("Enter")
        pane.wait_for("Yes, proceed anyway")
        pane.keys("Enter")
        pane.wait_for(lambda s: "new session started" in s and "0 msgs" in s)
