"""``hookline -r``: pick one of this directory's sessions, filter by typing, resume it."""

from __future__ import annotations

from pathlib import Path

from hookline.session.storage import sessions_dir
from tests.modes.helpers import run_cli, write_script

from .pane import Pane


def _sessions(tmp_path: Path, project: Path, prompts: list[str]) -> str:
    """One print-mode session per prompt (the last is the newest); the model spec."""
    model = write_script(tmp_path / "script.json", ["noted"])
    for prompt in prompts:
        done = run_cli("-p", prompt, "--model", model, "--cwd", str(project))
        assert done.returncode == 0, done.stderr
    return model


def test_the_picker_lists_filters_and_resumes(tmp_path: Path, project: Path) -> None:
    model = _sessions(tmp_path, project, ["remember the apple", "remember the banana"])
    folder = sessions_dir(project, None)
    (folder / "junk.jsonl").write_bytes(b"\x00not a session\n{")  # skipped, never a crash
    with Pane(tmp_path, "--model", model, "-r", cwd=project) as pane:
        screen = pane.wait_all(["Resume a session of", "remember the banana", "remember the apple"])
        assert "just now · 2 msgs" in screen
        assert screen.index("remember the banana") < screen.index("remember the apple")
        pane.type("APPLE")
        pane.wait_for(lambda s: "1 of 2" in s and "remember the banana" not in s)
        pane.keys("Enter")
        pane.ready()
        screen = pane.wait_all(["remember the apple", "noted", "2 msgs"])
        assert "remember the banana" not in screen  # that session's conversation is elsewhere
        pane.keys("C-d")
        assert pane.wait_exit() == 0
        pane.wait_all(["Resume with: hookline --resume"])


def test_arrows_choose_and_enter_resumes_that_one(tmp_path: Path, project: Path) -> None:
    model = _sessions(tmp_path, project, ["first task", "second task"])
    with Pane(tmp_path, "--model", model, "--resume", cwd=project) as pane:
        pane.wait_all(["❯ second task"])
        pane.keys("Down")
        pane.wait_for("❯ first task")
        pane.keys("Enter")
        pane.ready()
        pane.wait_all(["first task", "noted"])


def test_a_named_session_shows_its_name_and_is_found_by_it(tmp_path: Path, project: Path) -> None:
    from hookline.session import SessionManager

    model = _sessions(tmp_path, project, ["first task", "second task"])
    oldest = SessionManager.list_sessions(project)[-1]
    session = SessionManager.open(oldest.path)
    session.append_session_info("fruit basket")
    session.close()
    with Pane(tmp_path, "--model", model, "-r", cwd=project) as pane:
        pane.wait_for("fruit basket · first task")
        pane.type("basket")
        pane.wait_for(lambda s: "❯ fruit basket" in s and "second task" not in s)


def test_esc_leaves_without_starting_anything(tmp_path: Path, project: Path) -> None:
    model = _sessions(tmp_path, project, ["only task"])
    with Pane(tmp_path, "--model", model, "-r", cwd=project) as pane:
        pane.wait_for("only task")
        pane.keys("Escape")
        assert pane.wait_exit() == 0
        screen = pane.wait_all(["No session resumed."])
        assert "msgs · ctx" not in screen
    assert len(list((Path.home() / ".hookline" / "sessions").rglob("*.jsonl"))) == 1


def test_a_directory_without_sessions_says_so(tmp_path: Path, project: Path) -> None:
    with Pane(tmp_path, "-r", cwd=project) as pane:
        assert pane.wait_exit() == 1
        assert "no sessions here to resume" in pane.stderr()


def test_how_long_ago() -> None:
    from hookline.modes.tui.picker import ago

    assert [ago(s) for s in (5, 180, 3600, 7200, 86400 * 3, 86400 * 15, 86400 * 400)] == [
        "just now", "3 min ago", "1 hour ago", "2 hours ago", "3 days ago", "2 weeks ago",
        "1 year ago",
    ]  # fmt: skip
