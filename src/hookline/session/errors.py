"""Errors of the session layer: each names the file so the user knows what to fix."""

from __future__ import annotations

import errno


class SessionError(Exception):
    """Base of session errors."""


class SessionLockedError(SessionError):
    """Another hookline process (or manager) already writes this session file."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(
            f"session file {path} is locked: another hookline process (or another SessionManager "
            "in this one) is writing it "
            "(close it there, or open this session read-only)"
        )


class SessionFormatError(SessionError):
    """The file is not a hookline session (no readable header line)."""


class SessionClosedError(SessionError):
    """An append on a manager that was closed (its lock is already released)."""


class SessionWriteError(SessionError):
    """An append failed (disk full, file size limit, I/O error); the file was cut back.

    ``truncated`` is False when even cutting the partial line back failed: the
    loader then drops that torn last line on the next open.
    """

    def __init__(self, path: str, cause: OSError, *, truncated: bool = True) -> None:
        self.path = path
        self.cause = cause
        self.errno = cause.errno
        self.truncated = truncated
        name = errno_name(cause.errno)
        #: The cause in a few words: ``No space left on device [ENOSPC]``.
        self.reason = f"{cause.strerror or cause} [{name}]"
        hint = _HINTS.get(name, "check the disk")
        super().__init__(f"could not write session file {path}: {self.reason} ({hint})")


class SessionAccessError(SessionError):
    """The session file or its folder cannot be opened, read or created."""

    def __init__(self, path: str, action: str, cause: OSError) -> None:
        self.path = path
        self.cause = cause
        super().__init__(
            f"cannot {action} session file {path}: {cause.strerror or cause} "
            f"[{errno_name(cause.errno)}] (check its permissions and those of its folder, "
            "or run with --no-session)"
        )


_HINTS = {
    "ENOSPC": "the disk is full: free some space",
    "EDQUOT": "the disk quota is exceeded: free some space",
    "EFBIG": "the file size limit was reached",
    "EIO": "an I/O error: check the disk",
    "EROFS": "the file system is read-only",
}


def errno_name(number: int | None) -> str:
    """``28`` → ``"ENOSPC"`` (``"OSError"`` when there is no errno)."""
    return errno.errorcode.get(number, "OSError") if number is not None else "OSError"
