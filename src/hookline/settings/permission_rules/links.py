"""Hard links: another name for a file a Read or Edit rule protects.

A path rule compares names, and ``ln .env notes.txt`` gives the protected
inode a name no rule mentions. So a file with more than one name (``st_nlink
> 1``: a hard link somewhere, rare outside package stores) is compared by
``(st_dev, st_ino)`` with the files the rule's pattern covers. Those are
found by walking the pattern's folder (the part of the pattern before its
first wildcard, from its anchor) only when such a file is touched; the walk
is kept, keyed by pattern and anchor, and used again only while every folder
it saw is unchanged (same ``st_mtime_ns``: a file created, renamed or linked
in a folder changes it) and every protected file still has its inode.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookline.settings.permission_rules.paths import PathPattern

Inode = tuple[int, int]

#: A walk stops after this many entries: past it, files further on are not compared.
MAX_ENTRIES = 200_000
#: Wildcards of a gitignore pattern: the folder to walk ends before the first.
_WILDCARDS = frozenset("*?[\\")


def linked_inode(path: str) -> Inode | None:
    """``(st_dev, st_ino)`` of a regular file with more than one name, else ``None``."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_nlink < 2:
        return None
    return (info.st_dev, info.st_ino)


@dataclass(frozen=True, slots=True)
class _Walk:
    """What one walk found: the protected files' inodes, and the folders it read."""

    files: dict[str, Inode]
    folders: dict[str, int]

    def current(self) -> bool:
        """Whether nothing the walk saw has changed since."""
        try:
            for folder, mtime in self.folders.items():
                if os.stat(folder).st_mtime_ns != mtime:
                    return False
            for path, inode in self.files.items():
                info = os.stat(path)
                if (info.st_dev, info.st_ino) != inode:
                    return False
        except OSError:
            return False
        return True


_WALKS: dict[tuple[PathPattern, str], _Walk] = {}
_LOCK = threading.Lock()


def protected_inodes(pattern: PathPattern, anchor: str) -> frozenset[Inode]:
    """The inodes of the regular files under ``anchor`` that ``pattern`` covers."""
    key = (pattern, anchor)
    with _LOCK:
        walk = _WALKS.get(key)
    if walk is None or not walk.current():
        walk = _walk(pattern, anchor)
        with _LOCK:
            _WALKS[key] = walk
    return frozenset(walk.files.values())


def _start(pattern: str) -> str:
    """The literal folder a pattern starts with (``/secrets/**`` → ``secrets``); ``""`` for
    a pattern that matches at any depth or starts with a wildcard."""
    if not pattern.startswith("/"):
        return ""
    parts = pattern.strip("/").split("/")
    literal: list[str] = []
    for part in parts[:-1]:
        if _WILDCARDS & set(part):
            break
        literal.append(part)
    return "/".join(literal)


def _walk(pattern: PathPattern, anchor: str) -> _Walk:
    files: dict[str, Inode] = {}
    folders: dict[str, int] = {}
    start = os.path.join(anchor, _start(pattern.pattern)) if _start(pattern.pattern) else anchor
    # A folder changed within the last second may change again within the same clock tick,
    # unseen: it is recorded with a time that never matches, so the walk is not reused.
    recent = time.time_ns() - 1_000_000_000
    stack = [start]
    seen = 0
    while stack and seen < MAX_ENTRIES:
        folder = stack.pop()
        try:
            info = os.stat(folder)
            entries = list(os.scandir(folder))
        except OSError:
            continue
        folders[folder] = info.st_mtime_ns if info.st_mtime_ns < recent else -1
        for entry in entries:
            seen += 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    rel = os.path.relpath(entry.path, anchor)
                    if pattern.covers(rel):
                        files[entry.path] = (info.st_dev, entry.inode())
            except OSError:
                continue
    return _Walk(files, folders)
