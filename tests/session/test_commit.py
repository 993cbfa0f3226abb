"""Group commit: appends never wait for fsync, ``flushed`` says when entries are on disk.

Real files and a real FIFO (where ``fsync`` fails with EINVAL, as a broken
disk would fail it with EIO); real processes for the SIGKILL checks.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from hookline.core.messages import user_message
from hookline.session import SessionManager, SessionWriteError
from hookline.session.committer import Committer
from hookline.session.entries import SessionHeader
from hookline.session.storage import LockedFile

from .helpers import jsonl_lines


def _committer(session: SessionManager) -> Committer:
    committer = session._committer  # white box: the counters live there
    assert committer is not None
    return committer


async def test_appends_made_while_an_fsync_cannot_start_share_one(
    session: SessionManager,
) -> None:
    """Hold the committer's lock: appends still return (they never wait for an fsync),
    and the one fsync that runs afterwards covers all of them."""
    committer = _committer(session)
    with committer._cond:  # re-entrant: this thread's appends may take it, the committer not
        ids = [session.append_message(user_message(f"m{i}")) for i in range(50)]
        assert committer.durable == 0 and committer.syncs == 0
    assert await session.flushed() is True
    assert committer.syncs == 1 and committer.durable == 50
    path = session.get_session_file()
    assert path is not None
    assert [e["id"] for e in jsonl_lines(Path(path))[1:]] == ids


async def test_flushed_waits_for_the_fsync_of_every_earlier_append(
    session: SessionManager,
) -> None:
    for i in range(5):
        session.append_message(user_message(f"m{i}"))
        assert await session.flushed() is True
        assert _committer(session).durable == i + 1  # on disk when flushed returned
    assert session.flush() is True  # nothing pending: returns at once
    assert await session.flushed() is True


async def test_in_memory_sessions_have_nothing_to_flush(project: Path) -> None:
    session = SessionManager.in_memory(project)
    session.append_message(user_message("hi"))
    assert await session.flushed() is True and session.flush() is True


def test_close_waits_for_the_committer(session: SessionManager) -> None:
    committer = _committer(session)
    with committer._cond:
        session.append_message(user_message("last words"))
    session.close()
    assert committer.durable == 1
    assert committer._thread is not None and not committer._thread.is_alive()
    assert not any(t.name.startswith("hookline-commit") for t in threading.enumerate())


def _fifo_session(tmp_path: Path) -> tuple[SessionManager, int]:
    """A session whose file is a FIFO: writes work, fsync fails (EINVAL), truncate too."""
    fifo = tmp_path / "session.jsonl"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    header: SessionHeader = {
        "type": "session",
        "version": 1,
        "id": "fifo",
        "cwd": str(tmp_path),
        "timestamp": "2025-01-01T00:00:00.000Z",
    }
    # the internal constructor: SessionManager.open would read the FIFO to its end first
    return SessionManager(header, [], {}, LockedFile(fifo, create=False), fifo), reader


async def test_a_failed_fsync_leaves_the_entries_unsaved_and_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    session, reader = _fifo_session(tmp_path)
    try:
        first = session.append_message(user_message("one"))
        assert await session.flushed() is False  # never acknowledged as saved
        error = session.save_error
        assert isinstance(error, SessionWriteError)
        assert error.errno == errno.EINVAL and error.truncated is False
        assert session.unsaved_entry_ids == [first]
        second = session.append_message(user_message("two"))  # the run goes on in memory
        assert session.unsaved_entry_ids == [first, second]
        assert len(session.build_context_messages()) == 2
        written = os.read(reader, 1 << 16)
        assert written.count(b"\n") == 1 and first.encode() in written  # "two" never written
        assert f"entry {first} and every later entry of this run" in caplog.text
        with caplog.at_level(logging.WARNING, logger="hookline.session"):
            session.close()
        assert "2 entries of this run were not saved" in caplog.text
        assert f"{first}, {second}" in caplog.text
        assert session.flush() is False
    finally:
        session.close()
        os.close(reader)


def test_a_failed_fsync_seen_by_a_blocking_flush(tmp_path: Path) -> None:
    session, reader = _fifo_session(tmp_path)
    try:
        ids = [session.append_message(user_message(f"m{i}")) for i in range(3)]
        assert session.flush() is False
        # no fsync ever succeeds on a FIFO: every entry is unsaved, in order, none lost
        assert session.unsaved_entry_ids == ids
        assert [e["id"] for e in session.get_entries()] == ids
    finally:
        session.close()
        os.close(reader)


def test_a_committer_after_a_failure_refuses_writes(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    file = LockedFile(fifo, create=False)
    committer = Committer(file)
    try:
        seq = committer.write(b'{"a":1}\n')
        assert committer.wait(seq) is False
        with pytest.raises(SessionWriteError) as info:
            committer.write(b'{"b":2}\n')
        assert info.value is committer.error
        assert os.read(reader, 1 << 16) == b'{"a":1}\n'
    finally:
        committer.close()
        file.close()
        os.close(reader)


_ACK_WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from hookline.core.messages import user_message
    from hookline.session import SessionManager

    async def main():
        s = SessionManager.create(sys.argv[1])
        print(s.get_session_file(), flush=True)
        for i in range(int(sys.argv[2])):
            entry_id = s.append_message(user_message("x" * 300 + str(i)))
            assert await s.flushed()
            print(entry_id, flush=True)  # the acknowledgement
        sys.stdin.readline()  # wait to be killed

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("count", [1, 40])
def test_killed_right_after_an_acknowledged_append_keeps_it(project: Path, count: int) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", _ACK_WRITER, str(project), str(count)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    assert writer.stdout is not None and writer.stderr is not None and writer.stdin is not None
    path = writer.stdout.readline().strip()
    acked = [writer.stdout.readline().strip() for _ in range(count)]
    assert all(acked), writer.stderr.read()
    writer.send_signal(signal.SIGKILL)  # at once: no close, no exit handlers
    writer.wait(timeout=30)
    for stream in (writer.stdin, writer.stdout, writer.stderr):
        stream.close()
    assert writer.returncode == -signal.SIGKILL
    stored = [e["id"] for e in jsonl_lines(Path(path))[1:]]
    assert stored == acked
    with SessionManager.open(path) as again:
        assert again.load_warnings == []


async def test_a_committer_whose_file_was_closed_under_it_never_hangs_a_waiter(
    tmp_path: Path,
) -> None:
    file = LockedFile(tmp_path / "s.jsonl", create=True)
    committer = Committer(file)
    with committer._cond:  # the thread cannot start its fsync yet
        seq = committer.write(b'{"a":1}\n')
        file.close()  # as a finalizer running at the wrong moment would
    assert committer.wait(seq) is False  # returns: the thread ended, the write is not synced
    assert await committer.wait_async(seq) is False
    committer.close()
