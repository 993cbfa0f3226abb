"""How the process ends on SIGTERM and SIGINT, whatever a hook is doing.

Used by the CLI around a run. The handlers are ``signal.signal`` ones, not the
event loop's: Python runs them between bytecodes, in ``time.sleep`` and in
blocking I/O, so they work while sync hook code holds the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any, NoReturn

#: Seconds the graceful stop after SIGTERM/SIGINT may take before the process exits hard.
HARD_EXIT_AFTER = 3.0
#: Seconds after which the reaper process kills us when even the hard exit could not run.
REAPER_AFTER = HARD_EXIT_AFTER + 2.0

_REAPER = """
while :; do
  b=$(dd bs=1 count=1 2>/dev/null | od -An -tu1 | tr -d ' \\n')
  [ -n "$b" ] || exit 0
  case "$b" in {signals}) sleep {after}; kill -KILL {pid} 2>/dev/null; exit 0;; esac
done
"""


class ExitSignals:
    """SIGTERM and SIGINT end the process, whatever a hook is doing.

    The first signal stops the run gracefully on the loop (``on_first``: the
    agent aborts, the main task is cancelled, ``session_shutdown`` runs) and
    starts a thread that exits hard (``os._exit(128 + signal)``) if the process
    is still alive ``HARD_EXIT_AFTER`` seconds later, e.g. because sync hook
    code holds the event loop. A second signal exits hard at once. Python runs
    these handlers between bytecodes, in ``time.sleep`` and in blocking I/O,
    without the event loop.

    C code that never returns to the interpreter (a catastrophic ``re``
    pattern) holds the GIL, so no Python code runs at all: for that, a small
    reaper process learns of the signal through the wakeup fd (written by the
    C-level handler itself) and sends SIGKILL ``REAPER_AFTER`` seconds later.
    Nothing is lost by either: each session entry is fsynced as it is appended.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, on_first: Callable[[int], None]) -> None:
        self._loop = loop
        self._on_first = on_first
        self._previous: dict[int, Any] = {}
        self._wakeup: int | None = None
        self._previous_wakeup = -1
        self._reaper: subprocess.Popen[bytes] | None = None
        self.received: int | None = None

    def install(self) -> None:
        for signum in (signal.SIGTERM, signal.SIGINT):
            self._previous[signum] = signal.signal(signum, self._handle)
        self._start_reaper()

    def restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        if self._wakeup is not None:
            signal.set_wakeup_fd(self._previous_wakeup)
            os.close(self._wakeup)  # the reaper reads EOF and leaves
            self._wakeup = None

    def _start_reaper(self) -> None:
        read, write = os.pipe()
        try:
            script = _REAPER.format(
                signals="|".join(str(int(s)) for s in self._previous),
                after=f"{REAPER_AFTER:g}",
                pid=os.getpid(),
            )
            self._reaper = subprocess.Popen(
                ["sh", "-c", script],
                stdin=read,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a terminal's Ctrl+C is not for it
            )
        except OSError:
            os.close(write)
            return
        finally:
            os.close(read)
        os.set_blocking(write, False)
        self._previous_wakeup = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        self._wakeup = write

    def _handle(self, signum: int, frame: object) -> None:
        if self.received is not None:
            _hard_exit(128 + signum, "second signal")
        self.received = signum
        with contextlib.suppress(OSError):
            name = signal.Signals(signum).name
            os.write(2, f"hookline: {name} received, stopping (again to exit at once)\n".encode())
        threading.Thread(
            target=_hard_exit_later, args=(128 + signum,), name="hookline-exit", daemon=True
        ).start()
        try:
            self._loop.call_soon_threadsafe(self._on_first, signum)
        except RuntimeError:  # the loop is already closed: nothing left to stop gracefully
            _hard_exit(128 + signum, "loop closed")


def _hard_exit_later(code: int) -> None:
    time.sleep(HARD_EXIT_AFTER)
    _hard_exit(code, f"shutdown did not finish within {HARD_EXIT_AFTER:g} s")


def _hard_exit(code: int, why: str) -> NoReturn:
    """Leave now: no loop, no locks (a stuck thread may hold sys.stderr's)."""
    with contextlib.suppress(OSError):
        os.write(2, f"hookline: exiting at once ({why})\n".encode())
    os._exit(code)
