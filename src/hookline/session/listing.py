"""Listing a project's session files for ``/resume`` and ``--continue``."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from hookline.core.messages import content_text

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
                    with contextlib.suppress(ValueError):
                        name = str(json.loads(raw).get("name") or "") or name
                    continue
                # A substring test first: most lines are not messages worth parsing.
                if b'"type":"message"' not in raw[:40]:
                    continue
                count += 1
                if first:
                    continue
                try:
                    message = json.loads(raw).get("message", {})
                except ValueError:
                    continue
                if message.get("role") == "user":
                    first = " ".join(content_text(message.get("content", [])).split())
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


def list_session_infos(folder: Path) -> list[SessionInfo]:
    """Sessions in ``folder``, most recently written first (ties: newest name first)."""
    if not folder.is_dir():
        return []
    infos = [info for p in folder.glob("*.jsonl") if (info := _info(p)) is not None]
    infos.sort(key=lambda i: (i.modified, Path(i.path).name), reverse=True)
    return infos
