"""Session files on disk: where they live, the locked append-only writer, the loader.

Durability contract: ``LockedFile.write`` returns once the line is in the
page cache, so a killed process never loses an entry whose write returned;
the ``Committer`` (``committer.py``) fsyncs those writes in the background and
says when each is on disk. A crash mid-write can leave a torn last line;
the loader drops it with a warning and, when opened for writing, truncates
it so the next append starts on a fresh line.

A failed or short append (disk full, ``RLIMIT_FSIZE``, an I/O error) is cut
back to where the entry began before ``SessionWriteError`` is raised, so the
file never holds half an entry that a later append would be glued onto.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from hookline.core.gc_pause import gc_paused
from hookline.core.paths import hookline_home
from hookline.session.errors import (
    SessionAccessError,
    SessionFormatError,
    SessionLockedError,
    SessionWriteError,
)

_PREVIEW = 60
#: Bytes read and parsed at a time.
_BLOCK = 1 << 20


def project_slug(cwd: str | os.PathLike[str]) -> str:
    """``/work/main`` → ``--work-main--``: one flat folder name per project."""
    resolved = str(Path(cwd).resolve())
    inner = resolved.lstrip("/\\").replace("/", "-").replace("\\", "-").replace(":", "-")
    return f"--{inner}--"


def sessions_dir(cwd: str | os.PathLike[str], session_dir: str | os.PathLike[str] | None) -> Path:
    """The folder of a project's sessions (``session_dir`` given: used as is)."""
    if session_dir is not None:
        return Path(session_dir).expanduser()
    return hookline_home() / "sessions" / project_slug(cwd)


def session_file_name(timestamp: str, session_id: str) -> str:
    """``<timestamp>_<id>.jsonl`` with ``:`` and ``.`` made filename-safe; sorts by time."""
    return f"{timestamp.replace(':', '-').replace('.', '-')}_{session_id}.jsonl"


def encode_line(obj: Any) -> bytes:
    """One JSON line; compact separators keep 100k-entry files small."""
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _fsync_dir(path: Path) -> None:
    """Make a new file's directory entry durable too (best effort)."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class LockedFile:
    """An append-only file descriptor holding an exclusive ``flock``.

    The lock is on the session file itself; the kernel drops it when the
    descriptor closes, including when the process dies.
    """

    def __init__(self, path: Path, *, create: bool) -> None:
        self.path = path
        flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC
        try:
            if create:
                path.parent.mkdir(parents=True, exist_ok=True)
                flags |= os.O_CREAT | os.O_EXCL
            self.fd: int | None = os.open(path, flags, 0o600)
        except OSError as exc:
            raise SessionAccessError(str(path), "create" if create else "open", exc) from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            self.fd = None
            raise SessionLockedError(str(path)) from None
        if create:
            _fsync_dir(path.parent)

    def append(self, data: bytes) -> None:
        """``write`` then fsync: on disk when it returns (headers, forks, repairs)."""
        end = self.write(data)
        fd = self._require_fd()
        try:
            os.fsync(fd)
        except OSError as exc:
            truncated = self._cut(fd, end - len(data))
            raise SessionWriteError(str(self.path), exc, truncated=truncated) from exc

    def write(self, data: bytes) -> int:
        """Write all of ``data`` at the end of the file; returns the file's new size.

        The data is in the page cache when this returns (a killed process loses
        none of it); ``sync`` or a ``Committer`` puts it on disk. On any failure
        the file is cut back to its size before the call, then
        ``SessionWriteError`` (or the interrupting exception) is raised.
        """
        fd = self._require_fd()
        start = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                if written <= 0:  # never for regular files; do not spin if it happens
                    raise OSError(errno.EIO, "write wrote nothing")
                view = view[written:]
        except OSError as exc:
            raise SessionWriteError(str(self.path), exc, truncated=self._cut(fd, start)) from exc
        except BaseException:
            self._cut(fd, start)  # Ctrl-C between two writes: no half entry either
            raise
        return start + len(data)

    def sync(self) -> None:
        """fsync: what was written is on disk when this returns (``OSError`` if not)."""
        os.fsync(self._require_fd())

    def cut(self, size: int) -> bool:
        """Truncate back to ``size``; False when that failed too (a torn tail remains)."""
        return self._cut(self._require_fd(), size)

    @staticmethod
    def _cut(fd: int, size: int) -> bool:
        """Truncate back to ``size``; False when that failed too (a torn tail remains)."""
        try:
            os.ftruncate(fd, size)
            os.fsync(fd)
        except OSError:
            return False
        return True

    def truncate(self, size: int) -> None:
        """Cut a torn tail off (we hold the lock, so nobody else is writing)."""
        fd = self._require_fd()
        os.ftruncate(fd, size)
        os.fsync(fd)

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)  # releases the flock

    def _require_fd(self) -> int:
        if self.fd is None:
            raise ValueError(f"session file {self.path} is closed")
        return self.fd


@dataclass
class ParsedFile:
    """What the loader found: the header, entries in file order, the id index, what it skipped."""

    header: dict[str, Any]
    entries: list[dict[str, Any]]
    index: dict[str, dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    #: Byte length of the good part; ``< size`` means a torn tail to truncate.
    good_size: int = 0
    #: The last line is complete but lacks its ``\\n`` (write one before appending).
    missing_newline: bool = False
    #: Each entry is the child of the one before: the file is one path, no branches.
    linear: bool = True


def _preview(raw: bytes) -> str:
    text = raw[:_PREVIEW].decode("utf-8", errors="replace")
    return repr(text + ("…" if len(raw) > _PREVIEW else ""))


def parse_session_bytes(data: bytes, path: str) -> ParsedFile:
    """Parse a whole session file held in memory (see ``parse_session_blocks``)."""
    return parse_session_blocks([data], path)


def parse_session_blocks(blocks: Iterable[bytes], path: str) -> ParsedFile:
    """Parse a session file read in blocks, with the cyclic GC paused."""
    # json.loads makes no cycles, but its millions of new dicts and lists trigger
    # collections that double load time; frozen, they are never walked again.
    with gc_paused():
        parser = _Parser(path)
        for block in blocks:
            parser.feed(block)
        return parser.finish()


def read_session_file(path: Path) -> ParsedFile:
    """Read and parse ``path`` (no lock: readers never block writers).

    The file is read in blocks, so a 300 MB session never sits in memory
    twice (as bytes and as the parsed entries).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO never blocks
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OSError(errno.EINVAL, "not a regular file (a FIFO, a device or a socket)")
        with os.fdopen(fd, "rb") as f:
            return parse_session_blocks(iter(partial(f.read, _BLOCK), b""), str(path))
    except OSError as exc:
        raise SessionAccessError(str(path), "read", exc) from None


class _Parser:
    """The loader's state across blocks: the header, entries, index, line numbers."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.header: dict[str, Any] | None = None
        self.entries: list[dict[str, Any]] = []
        self.index: dict[str, dict[str, Any]] = {}
        self.warnings: list[str] = []
        self._previous: str | None = None
        self.linear = True
        self._words: dict[str, str] = {}
        self._rest = b""  # the unfinished line at the end of the last block
        self._line = 0  # lines handled so far
        self._size = 0  # bytes of those lines

    def feed(self, block: bytes) -> None:
        data = self._rest + block if self._rest else block
        end = data.rfind(b"\n") + 1
        self._rest = data[end:]
        if not end:
            return
        lines = data[:end]
        count = lines.count(b"\n")
        # One json.loads for the whole block, as one array: about twice as fast as one
        # call per line, and the keys of all its entries are shared (one memo per call).
        # A blank or corrupt line breaks the array: then each line on its own.
        try:
            objs = json.loads(b"[" + lines[:-1].replace(b"\n", b",") + b"]")
        except ValueError:
            objs = None
        if type(objs) is list and len(objs) == count:
            self._take_all(objs)
        else:
            for raw in lines[:-1].split(b"\n"):
                self._line += 1
                self._take_raw(raw)
        self._size += end

    def finish(self) -> ParsedFile:
        tail = self._rest
        good_size = self._size
        missing_newline = False
        if tail.strip():
            try:
                obj = json.loads(tail)
            except ValueError:
                obj = None
            if isinstance(obj, dict):
                self._line += 1
                self._take(obj)
                good_size += len(tail)
                missing_newline = True
            else:
                self.warnings.append(
                    f"{self.path}: line {self._line + 1}: torn last line ignored "
                    f"(crash mid-write?): {_preview(tail)}"
                )
        if self.header is None:
            raise SessionFormatError(f"{self.path}: empty session file (no header line)")
        return ParsedFile(
            self.header,
            self.entries,
            self.index,
            self.warnings,
            good_size,
            missing_newline,
            self.linear,
        )

    def _take_all(self, objs: list[Any]) -> None:
        """``_take`` each of ``objs``, inlined for the usual well-formed entry."""
        index, append, take = self.index, self.entries.append, self._take
        word = self._words.setdefault
        line, previous = self._line, self._previous
        for obj in objs:
            line += 1
            if (
                type(obj) is dict
                and type(entry_id := obj.get("id")) is str
                and "type" in obj
                and entry_id not in index
                and self.header is not None
            ):
                # One string for each of the few words every entry repeats: a
                # million-entry session holds millions of them otherwise.
                if type(kind := obj["type"]) is str:
                    obj["type"] = word(kind, kind)
                message = obj.get("message")
                if type(message) is dict:
                    if type(kind := message.get("role")) is str:
                        message["role"] = word(kind, kind)
                    if type(kind := message.get("tool_name")) is str:
                        message["tool_name"] = word(kind, kind)
                    content = message.get("content")
                    if type(content) is list:
                        message["content"] = content = content[:]  # exact size: json over-allocates
                        for block in content:
                            if type(block) is dict and type(kind := block.get("type")) is str:
                                block["type"] = word(kind, kind)
                                if type(kind := block.get("name")) is str:
                                    block["name"] = word(kind, kind)
                parent = obj.get("parent_id")
                if parent is None:
                    if previous is not None:
                        self.linear = False
                    index[entry_id] = obj
                    append(obj)
                    previous = entry_id
                    continue
                found = index.get(parent)
                if found is not None:
                    if parent != previous:
                        self.linear = False
                    obj["parent_id"] = found["id"]  # one string per id, not two
                    index[entry_id] = obj
                    append(obj)
                    previous = entry_id
                    continue
            self._line, self._previous = line, previous
            take(obj)
            previous = self._previous
        self._line, self._previous = line, previous

    def _take_raw(self, raw: bytes) -> None:
        try:
            obj = json.loads(raw)
        except ValueError:
            if not raw.strip():
                return
            if self.header is None:
                raise SessionFormatError(
                    f"{self.path}: line {self._line}: unreadable session header: {_preview(raw)}"
                ) from None
            self.warnings.append(
                f"{self.path}: line {self._line}: corrupt line skipped: {_preview(raw)}"
            )
            return
        self._take(obj)

    def _take(self, obj: Any) -> None:
        path, number, index = self.path, self._line, self.index
        if self.header is None:
            if not isinstance(obj, dict) or obj.get("type") != "session":
                raise SessionFormatError(
                    f"{path}: not a hookline session file (line {number} is not a header)"
                )
            self.header = obj
            return
        entry_id = obj.get("id") if type(obj) is dict else None
        if type(entry_id) is not str or "type" not in obj:
            self.warnings.append(f"{path}: line {number}: not an entry (no id/type), skipped")
            return
        if entry_id in index:
            self.warnings.append(f"{path}: line {number}: duplicate entry id {entry_id!r} skipped")
            return
        parent = obj.get("parent_id")
        if parent != self._previous:
            self.linear = False
        if parent is not None:
            found = index.get(parent)
            if found is None:
                # Its parent was on a corrupt line: hang it on the entry before it so
                # the path (and the conversation) still reaches back to the root.
                self.warnings.append(
                    f"{path}: line {number}: parent {parent!r} of entry {entry_id!r} is "
                    f"missing; attached to the previous entry {self._previous!r}"
                )
                obj["parent_id"] = self._previous
            else:
                obj["parent_id"] = found["id"]  # one string per id, not two
        index[entry_id] = obj
        self.entries.append(obj)
        self._previous = entry_id
