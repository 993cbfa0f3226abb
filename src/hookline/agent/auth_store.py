"""``$HOOKLINE_HOME/auth.json``: the credentials of providers a user logged in to.

pi keeps them in ``~/.pi/agent/auth.json``, one entry per provider: ``{"type":
"oauth", "refresh", "access", "expires", ...}`` or ``{"type": "api_key", "key"}``;
hookline keeps the same entries in its own home. The file is written whole
(a temporary file renamed over it), readable by its owner only, and read at
each ask, so another process's refresh is seen.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
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
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise OSError(f"cannot read {self.path}: {exc}") from exc
        return data if isinstance(data, dict) else {}

    def get(self, provider: str) -> Mapping[str, Any] | None:
        """The entry stored for ``provider``, if any."""
        entry = self._read().get(provider)
        return entry if isinstance(entry, dict) else None

    def set(self, provider: str, entry: Mapping[str, Any]) -> None:
        """Store ``entry`` for ``provider`` (the file is created, owner-only)."""
        data = self._read()
        data[provider] = dict(entry)
        self._write(data)

    def remove(self, provider: str) -> None:
        """Forget ``provider``'s credentials (``/logout``)."""
        data = self._read()
        if data.pop(provider, None) is not None:
            self._write(data)

    def _write(self, data: Mapping[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".auth-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
