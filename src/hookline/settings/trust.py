"""Trusted project directories: nothing from a project runs until its directory is trusted.

Cloning a repository must never run its code, so a damaged ``trust.json`` means
"nothing trusted" (with a warning), never a crash and never a guess.
The file is ``{"version": 1, "trusted": ["/abs/dir", ...]}``, read with the
safe reader (regular file, size and nesting caps) and written atomically (temp
file + ``os.replace``) so a crash mid-write leaves the old one. Trusting a
folder covers everything below it, including folders cloned there later.
A home that cannot be written is a ``TrustError`` with one clear line.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from hookline.core.paths import hookline_home
from hookline.settings.safe_json import JsonFileError, JsonFileMissing, read_json_file

_log = logging.getLogger(__name__)
_VERSION = 1


#: What makes a project something to trust: anything in it that runs code or loosens rules.
_PROJECT_HOOK_FILES = (
    (".hookline", "hooks"),
    (".hookline", "settings.json"),
    (".claude", "settings.json"),
    (".claude", "settings.local.json"),
    (".claude", "agents"),  # sub-agent types load only from a trusted project
)


def project_has_hooks(cwd: str) -> bool:
    """True when the project holds hooks, settings or agent types: trust is asked for it.

    Here, beside the store, so the terminal app can ask before it imports the agent.
    """
    root = Path(cwd)
    return any(root.joinpath(*parts).exists() for parts in _PROJECT_HOOK_FILES)


class TrustError(Exception):
    """The trust file could not be written; the message says which file and why."""


class TrustStore:
    """Read and change the set of trusted directories (re-read on every call)."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = Path(path) if path is not None else None
        #: The last problem met reading the file (``None`` when it read fine).
        self.warning: str | None = None

    @property
    def path(self) -> Path:
        """``$HOOKLINE_HOME/trust.json`` unless given (looked up at call time)."""
        return self._path if self._path is not None else hookline_home() / "trust.json"

    def trusted_dirs(self) -> list[Path]:
        """The trusted directories, sorted."""
        return sorted(self._load())

    def is_trusted(self, directory: Path | str) -> bool:
        """True for a trusted directory and anything below it (links resolved)."""
        target = _resolve(directory)
        return any(target == d or d in target.parents for d in self._load())

    def trust(self, directory: Path | str) -> bool:
        """Trust ``directory``; False when it was already recorded."""
        target = _resolve(directory)
        dirs = self._load()
        if target in dirs:
            return False
        self._backup_if_corrupt()
        self._save([*dirs, target])
        return True

    def untrust(self, directory: Path | str) -> bool:
        """Forget ``directory``; False when it was not recorded.

        A directory below a still-trusted parent stays trusted through the parent.
        """
        target = _resolve(directory)
        dirs = self._load()
        if target not in dirs:
            return False
        self._save([d for d in dirs if d != target])
        return True

    def _load(self) -> list[Path]:
        self.warning = None
        path = self.path
        try:
            data: Any = read_json_file(path)
        except JsonFileMissing:
            return []
        except JsonFileError as exc:
            return self._corrupt(str(exc))
        entries = data.get("trusted") if isinstance(data, dict) else None
        if not isinstance(entries, list) or not all(
            isinstance(e, str) and os.path.isabs(e) for e in entries
        ):
            return self._corrupt(f'{path} is not {{"trusted": [absolute paths]}}')
        return [Path(e) for e in entries]

    def _corrupt(self, message: str) -> list[Path]:
        self.warning = f"{message}; treating no directory as trusted"
        _log.warning("%s", self.warning)
        return []

    def _backup_if_corrupt(self) -> None:
        """Keep a damaged file aside rather than overwrite it when trusting anew."""
        if self.warning is None or not self.path.exists():
            return
        try:
            os.replace(self.path, self.path.with_name(self.path.name + ".corrupt"))
        except OSError as exc:
            _log.warning("could not move aside %s: %s", self.path, exc)

    def _save(self, dirs: list[Path]) -> None:
        try:
            self._write(dirs)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise TrustError(
                f"cannot write {self.path}: {reason} (check that {self.path.parent} is a "
                "writable folder, or set HOOKLINE_HOME)"
            ) from None

    def _write(self, dirs: list[Path]) -> None:
        path = self.path
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {"version": _VERSION, "trusted": sorted(str(d) for d in set(dirs))}
        import tempfile  # here: every run reads the store, few write it (tempfile pulls shutil)

        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(payload, handle, indent=2)
                handle.write("\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.warning = None


def _resolve(directory: Path | str) -> Path:
    """Absolute, ``~`` expanded, links resolved: the same folder always compares equal."""
    return Path(directory).expanduser().resolve()
