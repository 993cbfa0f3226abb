"""Errors of the session layer: each names the file so the user knows what to fix."""

from __future__ import annotations


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
