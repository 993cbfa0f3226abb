"""Folder listings kept between calls: the sandbox looks for files matching its globs and
for hard links on every call, and must not pay for a full walk each time.

On Linux each listed folder is watched with inotify (the watch is added before the folder
is read, so no change slips between the two): a listing is reused until an event names
its folder, and :meth:`TreeIndex.refresh` drains the events before each plan — the kernel
queues an event when the change is made, so every change made before the plan is seen.
A folder that cannot be watched (the watch limit, another system) is checked instead by
its ``st_mtime_ns``, reused only while unchanged and already old when it was read (a
change within the timestamp's granularity is not missed). A lost event queue (overflow)
drops every listing. ``generation`` counts the changes, so a caller may keep a whole
search while it is unchanged. Entries carry their inode number (free from ``readdir``),
so a hard link is found without a ``stat`` per file.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

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
    #: the inotify watch that keeps it valid (None: checked by ``mtime_ns`` instead)
    wd: int | None = None


@dataclass(frozen=True, slots=True)
class TreeChanges:
    """What :meth:`TreeIndex.refresh` found: folders whose names changed, and folders
    added, removed or renamed (everything below them is new)."""

    changed: frozenset[str]
    subtrees: frozenset[str]


class _Watches:
    """inotify watches on listed folders; which folders changed since the last drain."""

    def __init__(self, inotify: Any, mask: int, overflow: int, is_dir: int) -> None:
        self._inotify = inotify
        self._mask = mask
        self._overflow = overflow
        self._is_dir = is_dir
        self._folders: dict[int, str] = {}

    @classmethod
    def open(cls) -> _Watches | None:
        try:
            from inotify_simple import INotify, flags
        except ImportError:  # not Linux, or not installed: folders are checked by mtime
            return None
        try:
            inotify = INotify(nonblocking=True)  # close-on-exec: never reaches a command
        except OSError:
            return None
        mask = (
            flags.CREATE
            | flags.DELETE
            | flags.MOVED_FROM
            | flags.MOVED_TO
            | flags.DELETE_SELF
            | flags.MOVE_SELF
            | flags.ONLYDIR
            | flags.DONT_FOLLOW
        )
        return cls(inotify, mask, flags.Q_OVERFLOW, flags.ISDIR)

    def add(self, folder: str) -> int | None:
        """Watch ``folder`` (before reading it); None when it cannot be watched."""
        try:
            wd: int = self._inotify.add_watch(folder, self._mask)
        except OSError:  # the watch limit, a folder gone, a file in the way
            return None
        self._folders[wd] = folder  # a folder moved and listed again: its new name
        return wd

    def watching(self, wd: int, folder: str) -> bool:
        return self._folders.get(wd) == folder

    def drain(self) -> tuple[set[str], set[str]] | None:
        """``(changed folders, changed sub-folders)`` since the last drain; None when the
        kernel's queue overflowed (anything may have changed)."""
        changed: set[str] = set()
        subtrees: set[str] = set()
        while True:
            try:
                events = self._inotify.read(timeout=0)
            except BlockingIOError:
                events = []
            if not events:
                return changed, subtrees
            for event in events:
                if event.mask & self._overflow:
                    self._folders.clear()
                    return None
                folder = self._folders.get(event.wd)
                if folder is None:
                    continue
                changed.add(folder)
                if event.name and event.mask & self._is_dir:
                    subtrees.add(f"{'' if folder == '/' else folder}/{event.name}")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._inotify.close()


class TreeIndex:
    """Walks folders, reusing unchanged listings; ``limit`` caps one walk's entries."""

    def __init__(self, limit: int = 50_000, *, watch: bool = True) -> None:
        self.limit = limit
        self._cache: dict[str, Listing] = {}
        #: a walk stopped at ``limit`` since the caller last reset this (results incomplete)
        self.truncated = False
        self._watches = _Watches.open() if watch else None
        #: bumped whenever a listing is read anew or dropped: equal means nothing changed
        self.generation = 0

    def refresh(self) -> TreeChanges | None:
        """Forget the listings of the folders that changed since the last refresh (and,
        for a folder added, removed or renamed, everything below it); say which. None:
        anything may have changed (no watches, or the kernel's queue overflowed)."""
        if self._watches is None:
            self.generation += 1  # listings are checked by mtime as they are read
            return None
        drained = self._watches.drain()
        if drained is None:
            self._cache.clear()
            self.generation += 1
            return None
        changed, subtrees = drained
        for folder in changed:
            self._cache.pop(folder, None)
        if subtrees:
            prefixes = tuple(f"{s}/" for s in subtrees)
            for folder in [f for f in self._cache if f in subtrees or f.startswith(prefixes)]:
                del self._cache[folder]
        if changed:
            self.generation += 1
        return TreeChanges(frozenset(changed), frozenset(subtrees))

    def listing(self, folder: str) -> Listing | None:
        """``folder``'s listing (None when it cannot be read)."""
        return self._listing(folder)

    def watched(self, folder: str) -> bool:
        """Whether a change in ``folder`` will show up in the next :meth:`refresh`."""
        cached = self._cache.get(folder)
        return (
            cached is not None
            and cached.wd is not None
            and self._watches is not None
            and self._watches.watching(cached.wd, folder)
        )

    def close(self) -> None:
        if self._watches is not None:
            self._watches.close()
            self._watches = None

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
        cached = self._cache.get(folder)
        watches = self._watches
        if (
            cached is not None
            and cached.wd is not None
            and watches is not None
            and watches.watching(cached.wd, folder)
        ):
            return cached  # no event named it since it was read
        wd = watches.add(folder) if watches is not None else None  # before it is read
        try:
            st = os.stat(folder, follow_symlinks=False)
        except OSError:
            self._cache.pop(folder, None)
            return None
        if (
            cached is not None
            and cached.mtime_ns == st.st_mtime_ns
            and cached.taken_ns - st.st_mtime_ns > _RACY_NS
        ):
            if wd is not None and cached.wd != wd:
                cached = self._cache[folder] = _rewatched(cached, wd)
            return cached
        taken = time.time_ns()
        try:
            with os.scandir(folder) as it:
                names = tuple((e.name, e.is_dir(follow_symlinks=False), e.inode()) for e in it)
        except OSError:
            return None
        index = {name: (is_dir, ino) for name, is_dir, ino in names}
        listing = Listing(st.st_mtime_ns, taken, st.st_dev, names, index, wd)
        self._cache[folder] = listing
        self.generation += 1
        return listing


def _rewatched(listing: Listing, wd: int) -> Listing:
    return Listing(
        listing.mtime_ns, listing.taken_ns, listing.dev, listing.names, listing.index, wd
    )
