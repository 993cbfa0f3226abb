"""Real processes: a SIGKILLed writer loses nothing it acknowledged; one writer per file."""

from __future__ import annotations

import signal
import textwrap
import time
from pathlib import Path

import pytest

from hookline.core.messages import user_message
from hookline.session import SessionLockedError, SessionManager

from .helpers import spawn_python

_WRITER = textwrap.dedent(
    """
    import sys
    from hookline.core.messages import user_message
    from hookline.session import SessionManager
    s = SessionManager.create(sys.argv[1] if len(sys.argv) > 1 else {project!r})
    print(s.get_session_file(), flush=True)
    i = 0
    while True:
        entry_id = s.append_message(user_message("x" * 300 + str(i)))
        print(entry_id, flush=True)
        i += 1
    """
)


def test_killed_writer_never_loses_an_acknowledged_entry(project: Path) -> None:
    child = spawn_python(_WRITER.format(project=str(project)))
    assert child.stdout is not None
    path = child.stdout.readline().strip()
    printed: list[str] = []
    while len(printed) < 200:
        line = child.stdout.readline()
        assert line, child.stderr.read() if child.stderr else "writer died"
        printed.append(line.strip())
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    printed += [ln.strip() for ln in child.stdout.read().splitlines() if ln.strip()]
    child.stdout.close()
    assert child.stderr is not None
    child.stderr.close()

    # the dead process's lock is gone: a writer may open the file
    with SessionManager.open(path) as again:
        stored = [e["id"] for e in again.get_entries()]
        assert stored[: len(printed)] == printed
        assert len(stored) - len(printed) <= 1  # at most one written but not yet printed
        # whatever the kill left, the file is appendable on a fresh line
        new = again.append_message(user_message("after the crash"))
    with SessionManager.open(path, read_only=True) as reader:
        assert reader.get_entries()[-1]["id"] == new
        assert not any("corrupt" in w for w in reader.load_warnings)


def test_second_writer_in_the_same_process_is_refused(session: SessionManager) -> None:
    path = session.get_session_file()
    assert path is not None
    with pytest.raises(SessionLockedError) as info:
        SessionManager.open(path)
    assert info.value.path == path
    assert path in str(info.value) and "another hookline process" in str(info.value)
    SessionManager.open(path, read_only=True).close()  # readers are never refused
    session.close()
    SessionManager.open(path).close()  # released on close


def test_second_writer_in_another_process_is_refused(session: SessionManager) -> None:
    path = session.get_session_file()
    assert path is not None
    code = textwrap.dedent(
        f"""
        from hookline.session import SessionManager, SessionLockedError
        try:
            SessionManager.open({path!r})
        except SessionLockedError as exc:
            print("LOCKED", exc)
        else:
            print("OPENED")
        """
    )
    child = spawn_python(code)
    out, err = child.communicate(timeout=30)
    assert out.startswith("LOCKED"), err
    assert path in out


def test_lock_is_released_when_the_holder_exits(project: Path) -> None:
    code = textwrap.dedent(
        f"""
        import time
        from hookline.session import SessionManager
        s = SessionManager.create({str(project)!r})
        print(s.get_session_file(), flush=True)
        time.sleep(60)
        """
    )
    child = spawn_python(code)
    assert child.stdout is not None and child.stderr is not None
    path = child.stdout.readline().strip()
    with pytest.raises(SessionLockedError):
        SessionManager.open(path)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    child.stdout.close()
    child.stderr.close()
    deadline = time.monotonic() + 5
    while True:
        try:
            SessionManager.open(path).close()
            break
        except SessionLockedError:
            assert time.monotonic() < deadline
            time.sleep(0.05)
