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
class Listing:
    """One folder's names as read at ``taken_ns``."""

    mtime_ns: int
    taken_ns: int
    dev: int
    names: tuple[tuple[str, bool, int], ...]  # (name, is a real folder, inode)
    index: dict[str, tuple[bool, int]]  # the same by name


class TreeIndex:
    """Walks folders, reusing unchanged listings; ``limit`` caps one walk's entries."""

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self._cache: dict[str, Listing] = {}
        #: a walk stopped at ``limit`` since the caller last reset this (results incomplete)
        self.truncated = False

    def names(self, folder: str) -> dict[str, tuple[bool, int]] | None:
        """``name -> (is a folder, inode)`` of ``folder``, or None when it cannot be read."""
        listing = self._listing(folder)
        if listing is None:
            return None
        return listing.index

    def walk(self, root: str, *, max_depth: int | None = None) -> Iterator[Entry]:
        """Every entry below ``root`` (not through symlinks), parents before children."""
        for folder, listing in self.folders(root, max_depth=max_depth):
            for name, is_dir, ino in listing.names:
                yield Entry(f"{folder}/{name}", is_dir, listing.dev, ino)

    def folders(self, root: str, *, max_depth: int | None = None) -> Iterator[tuple[str, Listing]]:
        """Each folder from ``root`` down (not through symlinks) with its listing; a caller
        may key its own cache on the listing object, which changes only with the folder."""
        seen = 0
        stack = [(root.rstrip("/") or "/", 0)]
        while stack:
            folder, depth = stack.pop()
            listing = self._listing(folder)
            if listing is None:
                continue
            seen += len(listing.names)
            if seen > self.limit:
                self.truncated = True
                return
            yield folder, listing
            if max_depth is None or depth + 1 < max_depth:
                base = "" if folder == "/" else folder
                stack.extend((f"{base}/{n}", depth + 1) for n, d, _ in listing.names if d)

    def _listing(self, folder: str) -> Listing | None:
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
        index = {name: (is_dir, ino) for name, is_dir, ino in names}
        listing = Listing(st.st_mtime_ns, taken, st.st_dev, names, index)
        self._cache[folder] = listing
        return listing
