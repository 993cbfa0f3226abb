"""Opening files for the file tools: regular files only, checked again after the open.

A FIFO, a device or a socket is not a file the model can read or write:
``/dev/zero`` never ends, a FIFO blocks the open until a writer comes (and then
SIGTERM cannot end a thread stuck in it), ``/dev/stdin`` and ``/dev/stdout``
are the host's protocol channel in RPC mode. So the path is ``stat``-ed first
(symlinks followed: a link to ``/dev/stdout`` is a character device), opened
with ``O_NONBLOCK`` (a FIFO swapped in after the check cannot block the open)
and ``fstat``-ed again, which closes the window between check and use. When
stdin or stdout is a regular file (``hookline --mode rpc < commands > out``),
that file is refused too, whatever path names it (``/proc/self/fd/N``).
"""

from __future__ import annotations

import contextlib
import os
import stat
from typing import BinaryIO

from hookline.core.tool import ToolError
from hookline.tools.truncation import format_size

_KINDS = (
    (stat.S_ISDIR, "directory"),
    (stat.S_ISFIFO, "named pipe (FIFO)"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)


def file_kind(mode: int) -> str:
    """What a ``st_mode`` is, in words (``regular file``, ``character device`` ...)."""
    if stat.S_ISREG(mode):
        return "regular file"
    for check, name in _KINDS:
        if check(mode):
            return name
    return "special file"


def not_regular(tool: str, path: str, mode: int) -> ToolError:
    """The error for a path that exists but is not a regular file."""
    kind = file_kind(mode)
    if stat.S_ISDIR(mode):
        hint = "Use ls to list it." if tool == "read" else "Give a file path."
        return ToolError(f"{tool}: {path} is a directory, not a file. {hint}")
    return ToolError(
        f"{tool}: {path} is not a regular file ({kind}); {tool} only works on regular files."
    )


#: (st_dev, st_ino) of streams besides fds 0 and 1 the tools must never touch: the
#: real stdout once ``claim_stdout`` has moved it off fd 1.
_PROTECTED: set[tuple[int, int]] = set()


def protect_stream(fd: int) -> None:
    """Refuse the file open on ``fd`` to every file tool from now on (the protocol stream)."""
    with contextlib.suppress(OSError):
        st = os.fstat(fd)
        _PROTECTED.add((st.st_dev, st.st_ino))


def _is_own_stream(st: os.stat_result) -> bool:
    """True when ``st`` is the file this process reads its input from or writes output to."""
    key = (st.st_dev, st.st_ino)
    if key in _PROTECTED:
        return True
    for fd in (0, 1):
        with contextlib.suppress(OSError):
            own = os.fstat(fd)
            if stat.S_ISREG(own.st_mode) and (own.st_dev, own.st_ino) == key:
                return True
    return False


def _open_checked(tool: str, path: str, full: str, flags: int) -> tuple[int, os.stat_result]:
    fd = os.open(full, flags | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, 0o666)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise not_regular(tool, path, st.st_mode)
        if _is_own_stream(st):
            raise ToolError(
                f"{tool}: {path} is this process's own input or output stream; "
                f"{tool} never touches it."
            )
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def open_for_read(tool: str, path: str, full: str) -> tuple[int, os.stat_result]:
    """An fd of the regular file ``full`` opened for reading; ToolError for anything else.

    ``path`` is what the model gave (used in messages).
    """
    try:
        st = os.stat(full)
        if not stat.S_ISREG(st.st_mode):
            raise not_regular(tool, path, st.st_mode)
        return _open_checked(tool, path, full, os.O_RDONLY)
    except FileNotFoundError as exc:
        raise ToolError(
            f"{tool}: file not found: {path} (resolved to {full}). "
            "Check the path with ls or find; paths are relative to the working directory."
        ) from exc
    except OSError as exc:
        raise ToolError(f"{tool}: cannot read {path}: {exc.strerror or exc}") from exc


def open_for_write(tool: str, path: str, full: str) -> tuple[int, bool]:
    """An fd of ``full`` opened for writing (created if missing, not yet truncated), and
    whether it was created; ToolError when it is, or turns out to be, not a regular file."""
    try:
        st = os.stat(full)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise ToolError(f"{tool}: cannot write {path}: {exc.strerror or exc}") from exc
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise not_regular(tool, path, st.st_mode)
    try:
        fd, _ = _open_checked(tool, path, full, os.O_WRONLY | os.O_CREAT)
    except OSError as exc:  # a FIFO with no reader swapped in: ENXIO, never a hang
        raise ToolError(f"{tool}: cannot write {path}: {exc.strerror or exc}") from exc
    return fd, st is None


def too_large(tool: str, path: str, size: int, limit: int, hint: str) -> ToolError:
    return ToolError(
        f"{tool}: {path} is {format_size(size)}, over the {format_size(limit)} limit. {hint}"
    )


def open_regular(full: str) -> BinaryIO | None:
    """``full`` opened for reading if it is a regular file, else None (as ``read_regular``)."""
    try:
        fd, _ = _open_checked("read", full, full, os.O_RDONLY)
    except (OSError, ToolError):
        return None
    return os.fdopen(fd, "rb")


def read_regular(full: str, limit: int | None = None) -> bytes | None:
    """The bytes of ``full`` (at most ``limit``) if it is a regular file, else None.

    For tools that read many files they did not name (``grep`` over a tree, the
    ``.gitignore`` files of a walk): a FIFO or device among them is skipped,
    never opened for a read that blocks.
    """
    try:
        fd, _ = _open_checked("read", full, full, os.O_RDONLY)
    except (OSError, ToolError):
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            data = f.read() if limit is None else f.read(limit)
    except OSError:
        return None
    return data if isinstance(data, bytes) else None
