"""Listing a project's session files for ``/resume`` and ``--continue``."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PREVIEW_CHARS = 100


@dataclass(frozen=True)
class SessionInfo:
    """One session file as a picker shows it."""

    path: str
    id: str
    cwd: str
    created: str  # the header's ISO timestamp
    modified: float  # mtime, seconds since the epoch
    message_count: int
    first_message: str  # the first user message's text, cut to 100 chars
    parent_session: str | None
    #: The session's name (``set_session_name``), the last one given.
    name: str | None = None

    def matches(self, query: str) -> bool:
        """``query`` (any case) is part of the first prompt, the name or the id."""
        needle = query.strip().casefold()
        texts = (self.first_message, self.name or "", self.id)
        return any(needle in text.casefold() for text in texts)


def _info(path: Path) -> SessionInfo | None:
    """Read one file cheaply; ``None`` when it is not a readable session."""
    try:
        # A FIFO or a link to /dev/zero among the sessions would block or never end.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            return None
        modified = st.st_mtime
        with os.fdopen(fd, "rb") as f:
            header = json.loads(f.readline())
            if not isinstance(header, dict) or header.get("type") != "session":
                return None
            count = 0
            first = ""
            name: str | None = None
            for raw in f:
                if b'"type":"session_info"' in raw[:40]:
                    named = _object(raw).get("name")
                    name = named if isinstance(named, str) and named else name
                    continue
                # A substring test first: most lines are not messages worth parsing.
                if b'"type":"message"' not in raw[:40]:
                    continue
                count += 1
                if not first:
                    first = _user_text(_object(raw).get("message"))
    except (OSError, ValueError):
        return None
    return SessionInfo(
        path=str(path),
        id=str(header.get("id", "")),
        cwd=str(header.get("cwd", "")),
        created=str(header.get("timestamp", "")),
        modified=modified,
        message_count=count,
        first_message=first[:_PREVIEW_CHARS],
        parent_session=header.get("parent_session"),
        name=name,
    )


def _object(raw: bytes) -> dict[str, Any]:
    """The JSON object on one line; empty for a torn line or one that is not an object."""
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _user_text(message: Any) -> str:
    """A user message's text on one line; empty for anything else (or a damaged one)."""
    if not isinstance(message, dict) or message.get("role") != "user":
        return ""
    content = message.get("content")
    if isinstance(content, list):
        texts = [c.get("text") for c in content if isinstance(c, dict) and c.get("type") == "text"]
        content = "\n".join(t for t in texts if isinstance(t, str))
    return " ".join(content.split()) if isinstance(content, str) else ""


def list_session_infos(folder: Path) -> list[SessionInfo]:
    """Sessions in ``folder``, most recently written first (ties: newest name first)."""
    if not folder.is_dir():
        return []
    infos = [info for p in folder.glob("*.jsonl") if (info := _info(p)) is not None]
    infos.sort(key=lambda i: (i.modified, Path(i.path).name), reverse=True)
    return infos
