"""Group commit: appends write at once, a background thread fsyncs them in batches.

``write`` puts an entry in the page cache before it returns, so killing the
process loses nothing written. The disk has it once an fsync that started
after the write returned: the committer thread runs one fsync for every write
made while the previous one ran, so the event loop never waits on the disk
and a burst of appends costs one fsync. ``wait``/``wait_async`` say when a
write is on disk; that is when an entry may be acknowledged to the outside.

A failed fsync leaves the disk's content unknown, so the file is cut back to
its last size known on disk and every later ``write`` raises the same
``SessionWriteError``: the caller keeps those entries in memory, unsaved.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from hookline.session.errors import SessionWriteError
from hookline.session.storage import LockedFile


class Committer:
    """The fsync thread of one ``LockedFile``; ``close`` before closing the file."""

    def __init__(self, file: LockedFile) -> None:
        self._file = file
        self._cond = threading.Condition()
        self._written = 0  # writes made (their sequence numbers are 1, 2, ...)
        self._durable = 0  # writes on disk
        self._size = 0  # file size after the last write
        self._durable_size = 0  # file size known on disk
        self._error: SessionWriteError | None = None
        self._waiters: list[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[bool]]] = []
        self._thread: threading.Thread | None = None
        self._closing = False
        self._stopped = False  # the thread has ended
        #: fsync calls made (a test checks that a burst of writes shares them).
        self.syncs = 0

    @property
    def durable(self) -> int:
        """The sequence number of the last write known to be on disk."""
        return self._durable

    @property
    def error(self) -> SessionWriteError | None:
        """Why an fsync failed (``None`` while none did); writes fail from then on."""
        return self._error

    def write(self, data: bytes) -> int:
        """Write ``data`` now (page cache); returns its sequence number for ``wait``.

        Raises ``SessionWriteError``: this write failed (the file is cut back,
        see ``LockedFile.write``), or an earlier fsync did.
        """
        with self._cond:
            if self._error is not None:
                raise self._error
            if self._closing:
                raise ValueError(f"session file {self._file.path} is closed")
            end = self._file.write(data)
            if self._durable == self._written:
                self._durable_size = end - len(data)  # all before it was synced
            self._size = end
            self._written += 1
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name=f"hookline-commit {self._file.path.name}", daemon=True
                )
                self._thread.start()
            self._cond.notify_all()
            return self._written

    def wait(self, seq: int) -> bool:
        """Block until write ``seq`` is on disk (True) or an fsync failed (False)."""
        with self._cond:
            while self._durable < seq and self._error is None and self._running():
                self._cond.wait()
            return self._durable >= seq

    async def wait_async(self, seq: int) -> bool:
        """``wait`` without blocking the event loop."""
        with self._cond:
            if self._durable >= seq or self._error is not None or not self._running():
                return self._durable >= seq
            loop = asyncio.get_running_loop()
            future: asyncio.Future[bool] = loop.create_future()
            self._waiters.append((seq, loop, future))
        return await future

    def close(self) -> None:
        """Sync what is pending, then stop the thread. Idempotent."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _running(self) -> bool:
        return self._thread is not None and not self._stopped

    def _run(self) -> None:
        try:
            self._commit_until_closed()
        finally:
            with self._cond:  # nobody may wait for a thread that is gone
                self._stopped = True
                self._settle(self._waiters, False)
                self._waiters = []
                self._cond.notify_all()

    def _commit_until_closed(self) -> None:
        while True:
            with self._cond:
                while self._durable == self._written and not self._closing:
                    self._cond.wait()
                if self._durable == self._written:
                    return
                target, size = self._written, self._size
            try:
                self.syncs += 1
                self._file.sync()
            except ValueError:  # the file was closed under us (a finalizer ran here)
                return
            except OSError as exc:
                with self._cond:
                    truncated = self._file.cut(self._durable_size)
                    self._error = SessionWriteError(str(self._file.path), exc, truncated=truncated)
                    self._settle(self._waiters, False)
                    self._waiters = []
                    self._cond.notify_all()
                return
            with self._cond:
                self._durable, self._durable_size = target, size
                done = [w for w in self._waiters if w[0] <= target]
                self._waiters = [w for w in self._waiters if w[0] > target]
                self._settle(done, True)
                self._cond.notify_all()

    @staticmethod
    def _settle(
        waiters: list[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[bool]]], value: bool
    ) -> None:
        for _, loop, future in waiters:
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_resolve, future, value)


def _resolve(future: asyncio.Future[bool], value: bool) -> None:
    if not future.done():  # the waiting task may have been cancelled
        future.set_result(value)
