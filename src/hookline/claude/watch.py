"""Polling watch of a few files, checked between turns: ConfigChange and FileChanged.

hookline has no background file watcher; the agent checks these stamps when a
turn starts (a handful of ``stat`` calls), so a change made while the model
was idle is reported before its next request. A file that appears is
``add``, one that disappears ``unlink``, any other change ``change``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

ChangeKind = Literal["add", "change", "unlink"]
_Stamp = tuple[int, int, int] | None  # (mtime_ns, size, inode), None when missing


@dataclass(frozen=True, slots=True)
class Change:
    path: str
    kind: ChangeKind


def _stamp(path: str) -> _Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class FileWatch:
    """The last seen stamp of each path; ``changes()`` reports and remembers new ones."""

    def __init__(self, paths: Iterable[str] = ()) -> None:
        self._seen: dict[str, _Stamp] = {}
        for p in paths:
            self.add(p)

    def add(self, path: str) -> None:
        self._seen.setdefault(path, _stamp(path))

    @property
    def paths(self) -> list[str]:
        return list(self._seen)

    def changes(self) -> list[Change]:
        out: list[Change] = []
        for path, before in self._seen.items():
            now = _stamp(path)
            if now == before:
                continue
            self._seen[path] = now
            kind: ChangeKind = "add" if before is None else "unlink" if now is None else "change"
            out.append(Change(path, kind))
        return out
