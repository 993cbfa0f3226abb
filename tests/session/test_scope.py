"""A project resumes only its own sessions; a bad ``--session`` path is a clear error.

``/x/a/b`` and ``/x/a-b`` share the folder name ``--x-a-b--``: without the
header's ``cwd`` check, one project's conversation (and its secrets) would be
resumed in the other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookline.core.messages import content_text, user_message
from hookline.session import SessionAccessError, SessionManager, project_slug

from .helpers import jsonl_lines, run_hookline, without_root_override


def _twins(tmp_path: Path) -> tuple[Path, Path]:
    nested = tmp_path / "x" / "a" / "b"
    dashed = tmp_path / "x" / "a-b"
    nested.mkdir(parents=True)
    dashed.mkdir(parents=True)
    assert project_slug(nested) == project_slug(dashed)  # the collision this guards against
    return nested, dashed


def test_continue_recent_never_picks_another_projects_session(tmp_path: Path) -> None:
    nested, dashed = _twins(tmp_path)
    with SessionManager.create(dashed) as other:
        other.append_message(user_message("the deploy key is hunter2"))
        other_file = other.get_session_file()

    assert SessionManager.list_sessions(nested) == []
    with SessionManager.continue_recent(nested) as resumed:
        assert resumed.get_session_file() != other_file
        assert resumed.get_cwd() == str(nested.resolve())
        assert resumed.get_entries() == []
    # and the other way round: each project sees exactly its own session
    assert [i.path for i in SessionManager.list_sessions(dashed)] == [other_file]
    with SessionManager.continue_recent(dashed) as again:
        assert again.get_session_file() == other_file


def test_continue_in_a_twin_folder_starts_fresh(tmp_path: Path, isolated_home: Path) -> None:
    nested, dashed = _twins(tmp_path)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": ["noted", "hello"]}))
    model = f"scripted:{script}"
    first = run_hookline("-p", "the deploy key is hunter2", "--model", model, "--cwd", str(dashed))
    assert first.returncode == 0, first.stderr
    second = run_hookline("-p", "hi", "--continue", "--model", model, "--cwd", str(nested))
    assert second.returncode == 0, second.stderr

    files = sorted((isolated_home / ".hookline" / "sessions").rglob("*.jsonl"))
    assert len(files) == 2  # the --continue run did not append to the other project's file
    by_cwd = {jsonl_lines(f)[0]["cwd"]: jsonl_lines(f) for f in files}
    texts = {
        cwd: [content_text(e["message"]["content"]) for e in lines if e["type"] == "message"]
        for cwd, lines in by_cwd.items()
    }
    assert texts[str(dashed.resolve())] == ["the deploy key is hunter2", "noted"]
    assert texts[str(nested.resolve())][0] == "hi"
    assert not any("hunter2" in t for t in texts[str(nested.resolve())])


def test_session_flag_on_an_unreadable_or_unwritable_file_is_a_clear_error(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    with SessionManager.create(project) as s:
        s.append_message(user_message("hi"))
        path = Path(s.get_session_file() or "")
    prefix = without_root_override()
    for mode, action in ((0o000, "open"), (0o444, "open")):
        path.chmod(mode)
        done = run_hookline(
            "-p", "again", "--session", str(path), "--cwd", str(project), prefix=prefix
        )
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert done.stderr.startswith(f"hookline: error: cannot {action} session file {path}")
        assert "Permission denied [EACCES]" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    path.chmod(0o600)


def test_an_unwritable_sessions_folder_is_a_clear_error(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the sessions folder should be")
    try:
        SessionManager.create(project, session_dir=blocker / "sessions")
    except SessionAccessError as exc:
        assert str(exc).startswith(f"cannot create session file {blocker / 'sessions'}/")
        assert "[ENOTDIR]" in str(exc) and "--no-session" in str(exc)
    else:  # pragma: no cover - the failure being tested
        raise AssertionError("a session was created under a regular file")


def test_cli_with_a_home_that_cannot_hold_sessions_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    blocker = tmp_path / "home-file"
    blocker.write_text("")
    monkeypatch.setenv("HOOKLINE_HOME", str(blocker / ".hookline"))
    done = run_hookline("-p", "hi", "--cwd", str(project))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"hookline: error: cannot create session file {blocker}/"), last
    assert "[ENOTDIR]" in last


@pytest.mark.parametrize("kind", ["fifo", "dev_zero"])
def test_a_fifo_or_device_among_the_sessions_is_skipped_never_read(
    tmp_path: Path, isolated_home: Path, kind: str
) -> None:
    """The newest "session" being a FIFO (blocks forever) or a link to /dev/zero (never
    ends) must not hang ``--continue`` (nor the picker, which lists the same way)."""
    import os

    project = tmp_path / "project"
    project.mkdir()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": ["first", "second"]}))
    model = f"scripted:{script}"
    first = run_hookline("-p", "remember me", "--model", model, "--cwd", str(project))
    assert first.returncode == 0, first.stderr
    (real,) = (isolated_home / ".hookline" / "sessions").rglob("*.jsonl")
    trap = real.with_name("9999-newest.jsonl")  # sorts and dates after the real one
    if kind == "fifo":
        os.mkfifo(trap)
    else:
        trap.symlink_to("/dev/zero")
    for flag in ("--continue", "-c"):
        again = run_hookline("-p", "again", flag, "--model", model, "--cwd", str(project))
        assert again.returncode == 0, again.stderr
        assert "Traceback" not in again.stderr
    with pytest.raises(SessionAccessError, match="not a regular file"):
        SessionManager.open(trap)
    texts = [content_text(e["message"]["content"]) for e in jsonl_lines(real) if "message" in e]
    assert texts[:2] == ["remember me", "first"] and "again" in texts
