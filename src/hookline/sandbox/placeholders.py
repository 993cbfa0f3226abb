"""Empty stand-ins for protected paths that do not exist yet, held while a call runs.

A sandboxed command must not *create* ``.claude/settings.local.json``, ``.git/hooks``
or a file an ``Edit`` deny rule names. bubblewrap can only mount over something that
exists, so hookline creates an empty file or folder there on the host, mounts an
unwritable one over it inside the sandbox, and removes it again when the last call
that needed it ends — only if it is still the empty thing hookline made (same inode,
nothing in it), so a file someone wrote there meanwhile is never removed.

Calls running at the same time share a stand-in (a count per path): removing it under
a running call would let the kernel detach that call's mount.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(slots=True)
class _Held:
    ino: int
    is_dir: bool
    count: int


class Placeholders:
    """The stand-ins this process created, counted by the calls using them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, _Held] = {}

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
                for path in mine:
                    self._give_back(path)

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

    def _give_back(self, path: str) -> None:
        held = self._held[path]
        held.count -= 1
        if held.count:
            return
        del self._held[path]
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
