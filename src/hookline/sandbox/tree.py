"""Folder listings cached by modification time: the sandbox looks for files matching its
globs and for hard links on every call, and must not pay for a full walk each time.

A listing is reused while its folder's ``st_mtime_ns`` is unchanged and was already old
when the listing was taken (a change within the timestamp's granularity is not missed).
Entries carry their inode number (free from ``readdir``), so a hard link is found without
a ``stat`` per file.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

#: A listing taken less than this after its folder changed is not trusted next time.
_RACY_NS = 50_000_000


@dataclass(frozen=True, slots=True)
class Entry:
    """One name in a folder."""

    path: str
    is_dir: bool
    dev: int
    ino: int


@dataclass(frozen=True, slots=True)
class _Listing:
    mtime_ns: int
    taken_ns: int
    dev: int
    names: tuple[tuple[str, bool, int], ...]  # (name, is a real folder, inode)


class TreeIndex:
    """Walks folders, reusing unchanged listings; ``limit`` caps one walk's entries."""

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self._cache: dict[str, _Listing] = {}
        #: the last walk stopped at ``limit`` (its results are incomplete)
        self.truncated = False

    def names(self, folder: str) -> dict[str, tuple[bool, int]] | None:
        """``name -> (is a folder, inode)`` of ``folder``, or None when it cannot be read."""
        listing = self._listing(folder)
        if listing is None:
            return None
        return {name: (is_dir, ino) for name, is_dir, ino in listing.names}

    def walk(self, root: str, *, max_depth: int | None = None) -> Iterator[Entry]:
        """Every entry below ``root`` (not through symlinks), parents before children."""
        self.truncated = False
        seen = 0
        stack = [(root, 0)]
        while stack:
            folder, depth = stack.pop()
            listing = self._listing(folder)
            if listing is None:
                continue
            for name, is_dir, ino in listing.names:
                seen += 1
                if seen > self.limit:
                    self.truncated = True
                    return
                path = os.path.join(folder, name)
                yield Entry(path, is_dir, listing.dev, ino)
                if is_dir and (max_depth is None or depth + 1 < max_depth):
                    stack.append((path, depth + 1))

    def _listing(self, folder: str) -> _Listing | None:
        try:
            st = os.stat(folder, follow_symlinks=False)
        except OSError:
            self._cache.pop(folder, None)
            return None
        cached = self._cache.get(folder)
        if (
            cached is not None
            and cached.mtime_ns == st.st_mtime_ns
            and cached.taken_ns - st.st_mtime_ns > _RACY_NS
        ):
            return cached
        taken = time.time_ns()
        try:
            with os.scandir(folder) as it:
                names = tuple((e.name, e.is_dir(follow_symlinks=False), e.inode()) for e in it)
        except OSError:
            return None
        listing = _Listing(st.st_mtime_ns, taken, st.st_dev, names)
        self._cache[folder] = listing
        return listing
