"""``$HOOKLINE_HOME/auth.json``: the credentials of providers a user logged in to.

pi keeps them in ``~/.pi/agent/auth.json``, one entry per provider: ``{"type":
"oauth", "refresh", "access", "expires", ...}`` or ``{"type": "api_key", "key"}``;
hookline keeps the same entries in its own home. The file is written whole
(a temporary file renamed over it, writers taking turns on a lock of its
folder, so two processes' logins are both kept), readable by its owner only
(a looser file is made so when read), and read at each ask, so another
process's refresh is seen. Only a regular file is read: a symlink planted at
its path, or a FIFO, is refused, never followed.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from hookline.core.paths import hookline_home

AUTH_FILE = "auth.json"


class AuthStore:
    """The stored credentials, by provider name."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path

    @property
    def path(self) -> Path:
        """``$HOOKLINE_HOME/auth.json`` unless given (looked up at each call)."""
        return self._path if self._path is not None else hookline_home() / AUTH_FILE

    def _read(self) -> dict[str, Any]:
        path = self.path
        flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OSError(
                    f"{path} is a symlink: credentials are kept only in a regular file; "
                    "remove the link (and log in again)"
                ) from None
            raise OSError(f"cannot read {path}: {exc}") from exc
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise OSError(f"{path} is not a regular file; credentials are not read from it")
            if info.st_mode & 0o077:  # readable by others: owner-only from now on
                os.fchmod(fd, 0o600)
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = json.loads(f.read().decode("utf-8"))
        except ValueError as exc:
            raise OSError(f"cannot read {path}: {exc}") from exc
        finally:
            os.close(fd)
        return data if isinstance(data, dict) else {}

    def get(self, provider: str) -> Mapping[str, Any] | None:
        """The entry stored for ``provider``, if any."""
        entry = self._read().get(provider)
        return entry if isinstance(entry, dict) else None

    def set(self, provider: str, entry: Mapping[str, Any]) -> None:
        """Store ``entry`` for ``provider`` (the file is created, owner-only)."""
        with self._turn():
            data = self._read()
            data[provider] = dict(entry)
            self._write(data)

    def remove(self, provider: str) -> None:
        """Forget ``provider``'s credentials (``/logout``)."""
        with self._turn():
            data = self._read()
            if data.pop(provider, None) is not None:
                self._write(data)

    @contextlib.contextmanager
    def _turn(self) -> Iterator[None]:
        """One writer at a time (an exclusive ``flock`` on the folder): a read-change-write
        of another process or thread never drops this one's entry."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the lock

    def _write(self, data: Mapping[str, Any]) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".auth-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
