"""Empty stand-ins for protected paths that do not exist yet, held while a call runs.

A sandboxed command must not *create* ``.claude/settings.local.json``, ``.git/hooks``
or a file an ``Edit`` deny rule names. bubblewrap can only mount over something that
exists, so hookline creates an empty file or folder there on the host, mounts an
unwritable one over it inside the sandbox, and removes it again when the last call
that needed it ends — only if it is still the empty thing hookline made (same inode,
nothing in it), so a file someone wrote there meanwhile is never removed.

Calls running at the same time share a stand-in (a count per path): removing it under
a running call would let the kernel detach that call's mount. A stand-in no call uses
any more goes at once (creating and removing a dozen costs about half a millisecond on
an idle ext4), so nothing is left in the project between calls for a person, a git
command or a built-in tool to see; ``linger`` (seconds) keeps idle ones a while on a
file system where that is slow. :meth:`Placeholders.sweep` removes every idle one (the
session's end, and interpreter exit).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(slots=True)
class _Held:
    ino: int
    is_dir: bool
    count: int
    #: when the last call using it ended (monotonic seconds)
    idle_since: float = 0.0


class Placeholders:
    """The stand-ins this process created, counted by the calls using them."""

    def __init__(self, linger: float = 0.0) -> None:
        self.linger = linger
        self._lock = threading.Lock()
        self._held: dict[str, _Held] = {}
        self._timer: threading.Timer | None = None

    @contextlib.contextmanager
    def held(self, wanted: Iterable[tuple[str, bool]]) -> Iterator[list[str]]:
        """Create the missing ``(path, is_dir)`` stand-ins; yield the paths now in place
        (a path that could not be made is left out: the caller must not mount on it)."""
        mine: list[str] = []
        with self._lock:
            for path, is_dir in wanted:
                if self._take(path, is_dir):
                    mine.append(path)
        try:
            yield mine
        finally:
            with self._lock:
                now = time.monotonic()
                for path in mine:
                    held = self._held[path]
                    held.count -= 1
                    held.idle_since = now
                if self.linger <= 0:
                    self._sweep_idle(now, 0.0)
                elif self._timer is None:
                    self._timer = threading.Timer(self.linger, self._on_timer)
                    self._timer.daemon = True
                    self._timer.start()

    def owned(self) -> dict[str, bool]:
        """The stand-ins in place now: path -> is a folder. A plan must treat them as
        missing (they may go before the call starts unless the call takes them)."""
        with self._lock:
            return {path: held.is_dir for path, held in self._held.items()}

    def sweep(self) -> None:
        """Remove every stand-in no call is using now."""
        with self._lock:
            self._sweep_idle(time.monotonic(), 0.0)

    def _on_timer(self) -> None:
        with self._lock:
            self._timer = None
            self._sweep_idle(time.monotonic(), self.linger)
            if any(h.count == 0 for h in self._held.values()):  # some went idle since
                self._timer = threading.Timer(self.linger, self._on_timer)
                self._timer.daemon = True
                self._timer.start()

    def _sweep_idle(self, now: float, age: float) -> None:
        for path in [p for p, h in self._held.items() if h.count == 0]:
            if now - self._held[path].idle_since >= age:
                self._remove(path)

    def _take(self, path: str, is_dir: bool) -> bool:
        held = self._held.get(path)
        if held is not None:
            held.count += 1
            return True
        try:
            if is_dir:
                os.mkdir(path, 0o700)
            else:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_CLOEXEC, 0o600))
            ino = os.stat(path, follow_symlinks=False).st_ino
        except OSError:
            return False
        self._held[path] = _Held(ino, is_dir, 1)
        return True

    def _remove(self, path: str) -> None:
        held = self._held.pop(path)
        with contextlib.suppress(OSError):
            st = os.stat(path, follow_symlinks=False)
            if st.st_ino != held.ino:
                return
            if held.is_dir:
                os.rmdir(path)  # fails when something was put inside: then it stays
            elif st.st_size == 0:
                os.unlink(path)


#: One registry per process: every sandbox of the process shares the stand-ins.
placeholders = Placeholders()
atexit.register(placeholders.sweep)
