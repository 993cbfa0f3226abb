"""``hookline hooks replay`` finds the session itself: ``--last``, an id, a picker on a
terminal, the project's sessions listed without one; ``replay last`` points to ``--last``."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from hookline.session.storage import sessions_dir
from tests.modes.tui.pane import Pane

from .test_hooks_replay_new import hooks, record

ERROR = "hookline hooks replay: error: "


def _two_sessions(project: Path) -> tuple[Path, Path]:
    """Where the agent keeps them ($HOOKLINE_HOME/sessions/<project>): an older session
    whose call is now blocked, and a newer one whose call is not."""
    folder = sessions_dir(project, None)
    older = record(folder, project, [("bash", "old1", {"command": "rm -rf /"}, "gone")])
    newer = record(folder, project, [("bash", "new1", {"command": "ls"}, "a")])
    os.utime(older, (1_000_000_000, 1_000_000_000))  # written long before the newer one
    return older, newer


def test_last_replays_the_projects_newest_session(project: Path) -> None:
    older, newer = _two_sessions(project)
    done = hooks(project, "replay", "--last", "--json", "--trust-project")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["session"] == str(newer)
    assert [c["tool_call_id"] for c in out["calls"]] == ["new1"]
    os.utime(older)  # now the older file is the newest written: --last follows
    done = hooks(project, "replay", "--last", "--trust-project")
    assert done.returncode == 1  # its rm -rf would now be blocked
    assert done.stdout.splitlines()[-1] == (
        "1 recorded tool call: 1 would now be blocked (bash old1), 0 changed"
    )


def test_an_id_or_its_start_names_the_session(project: Path) -> None:
    older, _ = _two_sessions(project)
    session_id = older.stem.split("_", 1)[1]
    done = hooks(project, "replay", session_id[:8], "--json", "--trust-project")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["session"] == str(older)


def test_replay_last_as_a_path_points_to_the_flag(project: Path) -> None:
    _two_sessions(project)
    done = hooks(project, "replay", "last")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"{ERROR}no session named 'last': --last replays this project's newest session\n"
    )
    both = hooks(project, "replay", "x.jsonl", "--last")
    assert both.returncode == 2
    assert both.stderr == f"{ERROR}SESSION and --last each name a session: give one\n"


def test_without_a_terminal_the_sessions_are_listed_and_the_usage_names_last(
    project: Path,
) -> None:
    older, newer = _two_sessions(project)
    done = hooks(project, "replay")  # stdin and stdout are pipes here
    assert done.returncode == 2
    ids = [p.stem.split("_", 1)[1] for p in (newer, older)]
    when = r"\d{4}-\d\d-\d\d \d\d:\d\d"
    for row, session_id in zip(done.stdout.splitlines(), ids, strict=True):  # newest first
        assert re.fullmatch(rf"  {session_id}  {when}  2 msgs  \(no prompt\)", row), row
    assert done.stderr == (
        f"{ERROR}which session? give SESSION (a session file, an id or its start, from "
        "the list above) or --last for the newest\n"
    )


def test_a_project_without_sessions_says_where_they_would_be(project: Path) -> None:
    for args in ((), ("--last",)):
        done = hooks(project, "replay", *args)
        assert done.returncode == 2
        assert done.stderr == (
            f"{ERROR}no session of {project} to replay "
            f"(sessions are kept in {sessions_dir(project, None)})\n"
        )


def test_on_a_terminal_a_picker_chooses_the_session(tmp_path: Path, project: Path) -> None:
    _two_sessions(project)
    with Pane(tmp_path, "hooks", "replay", "--trust-project", cwd=project) as pane:
        pane.wait_all(["Replay a session of", "2 msgs"])  # the title wraps with a long path
        pane.keys("Down")  # the older one: its call would now be blocked
        pane.keys("Enter")
        assert pane.wait_exit() == 1
        screen = pane.wait_all(["1 recorded tool call: 1 would now be blocked (bash old1)"])
        assert "BLOCKED  bash old1" in screen


def test_leaving_the_picker_replays_nothing(tmp_path: Path, project: Path) -> None:
    _two_sessions(project)
    with Pane(tmp_path, "hooks", "replay", "--trust-project", cwd=project) as pane:
        pane.wait_all(["Replay a session of"])
        pane.keys("Escape")
        assert pane.wait_exit() == 0
        pane.wait_all(["No session replayed."])
