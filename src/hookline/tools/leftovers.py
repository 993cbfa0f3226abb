"""What tool calls leave behind for the end of the session, and the clean-up that ends it.

A ``bash`` call returns when its shell exits, but a job it backgrounded
(``npm run dev &``) keeps running in the call's process group, as in Claude
Code; a call whose output was cut leaves a spill file. Both are tracked here
and ended by ``close()``: the agent calls it at session end, and the
process-wide ``default_leftovers`` also closes at interpreter exit (``atexit``)
as a fallback, so no tool's child outlives the agent. A process that left its
group on purpose (``setsid``, ``nohup setsid …``) is not tracked and is not
killed: that is the way to start something meant to outlive the session.

Process groups are tracked by id; one that has ended is forgotten the next time
a group is added, so a recycled id is not likely to be hit (a group id stays
reserved while any member of the group lives).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
from collections.abc import Callable

from hookline.core.process import group_alive, kill_group


class ToolLeftovers:
    """Process groups of finished ``bash`` calls that still run, and spill files to delete."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: set[int] = set()
        self._files: set[str] = set()
        self._closers: list[Callable[[], None]] = []

    def add_group(self, pgid: int) -> None:
        """Track ``pgid`` (a group whose leader exited while others in it run on)."""
        with self._lock:
            self._groups = {g for g in self._groups if group_alive(g)}
            self._groups.add(pgid)

    def add_file(self, path: str) -> None:
        with self._lock:
            self._files.add(path)

    def add_closer(self, close: Callable[[], None]) -> None:
        """Call ``close`` when the session ends (the sandbox's private folder goes then)."""
        with self._lock:
            self._closers.append(close)

    def discard_file(self, path: str) -> None:
        """Delete ``path`` now and stop tracking it."""
        with self._lock:
            self._files.discard(path)
        with contextlib.suppress(OSError):
            os.unlink(path)

    @property
    def groups(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._groups)

    @property
    def files(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._files)

    def close(self) -> None:
        """Kill every tracked process group and delete every spill file (idempotent)."""
        with self._lock:
            groups, self._groups = self._groups, set()
            files, self._files = self._files, set()
            closers, self._closers = self._closers, []
        for pgid in groups:
            kill_group(pgid)
        for path in files:
            with contextlib.suppress(OSError):
                os.unlink(path)
        for close in closers:
            with contextlib.suppress(Exception):
                close()


#: Used by tools created without a ``leftovers`` of their own; closed at interpreter exit.
default_leftovers = ToolLeftovers()
atexit.register(default_leftovers.close)


def cleanup_leftovers() -> None:
    """End what tool calls left (background jobs of ``bash`` calls, spill files): the
    agent calls this when its session ends."""
    default_leftovers.close()
