"""Session files on disk: where they live, the locked append-only writer, the loader.

Durability contract: ``append_line`` returns only after the line and its
``\\n`` reached the disk (``os.fsync``), so a killed process never loses an
entry whose append returned. A crash mid-write can leave a torn last line;
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
import gc
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookline.core.paths import hookline_home
from hookline.session.errors import (
    SessionAccessError,
    SessionFormatError,
    SessionLockedError,
    SessionWriteError,
)

_PREVIEW = 60


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
        """Write all of ``data`` at the end of the file and fsync before returning.

        On any failure the file is cut back to its size before the call, then
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
            os.fsync(fd)
        except OSError as exc:
            raise SessionWriteError(str(self.path), exc, truncated=self._cut(fd, start)) from exc
        except BaseException:
            self._cut(fd, start)  # Ctrl-C between two writes: no half entry either
            raise

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


def _preview(raw: bytes) -> str:
    text = raw[:_PREVIEW].decode("utf-8", errors="replace")
    return repr(text + ("…" if len(raw) > _PREVIEW else ""))


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while parsing: ``json.loads`` makes no cycles, but its
    millions of new dicts and lists trigger full collections that double load time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def parse_session_bytes(data: bytes, path: str) -> ParsedFile:
    """Parse a whole session file in one pass: ``json.loads`` per line, nothing more."""
    with _gc_paused():
        return _parse(data, path)


def _parse(data: bytes, path: str) -> ParsedFile:
    loads = json.loads
    warnings: list[str] = []
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    good_size = len(data) - len(tail)
    missing_newline = False
    if tail.strip():
        try:
            obj = loads(tail)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            lines.append(tail)
            good_size = len(data)
            missing_newline = True
        else:
            warnings.append(
                f"{path}: line {len(lines) + 1}: torn last line ignored "
                f"(crash mid-write?): {_preview(tail)}"
            )
    header: dict[str, Any] | None = None
    entries: list[dict[str, Any]] = []
    index: dict[str, dict[str, Any]] = {}
    previous: str | None = None
    for number, raw in enumerate(lines, 1):
        try:
            obj = loads(raw)
        except ValueError:
            if not raw.strip():
                continue
            if header is None:
                raise SessionFormatError(
                    f"{path}: line {number}: unreadable session header: {_preview(raw)}"
                ) from None
            warnings.append(f"{path}: line {number}: corrupt line skipped: {_preview(raw)}")
            continue
        if header is None:
            if not isinstance(obj, dict) or obj.get("type") != "session":
                raise SessionFormatError(
                    f"{path}: not a hookline session file (line {number} is not a header)"
                )
            header = obj
            continue
        entry_id = obj.get("id") if type(obj) is dict else None
        if type(entry_id) is not str or "type" not in obj:
            warnings.append(f"{path}: line {number}: not an entry (no id/type), skipped")
            continue
        if entry_id in index:
            warnings.append(f"{path}: line {number}: duplicate entry id {entry_id!r} skipped")
            continue
        parent = obj.get("parent_id")
        if parent is not None and parent not in index:
            # Its parent was on a corrupt line: hang it on the entry before it so
            # the path (and the conversation) still reaches back to the root.
            warnings.append(
                f"{path}: line {number}: parent {parent!r} of entry {entry_id!r} is missing; "
                f"attached to the previous entry {previous!r}"
            )
            obj["parent_id"] = previous
        index[entry_id] = obj
        entries.append(obj)
        previous = entry_id
    if header is None:
        raise SessionFormatError(f"{path}: empty session file (no header line)")
    return ParsedFile(header, entries, index, warnings, good_size, missing_newline)


def read_session_file(path: Path) -> ParsedFile:
    """Read and parse ``path`` (no lock: readers never block writers)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise SessionAccessError(str(path), "read", exc) from None
    return parse_session_bytes(data, str(path))
