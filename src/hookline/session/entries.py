"""The shapes of session file lines: one header, then entries forming a tree.

Entries are plain dicts (``TypedDict``) so a 100 000-line file loads at
``json.loads`` speed; every entry has ``type``, ``id``, ``parent_id`` (the
leaf when it was appended, ``None`` for a root) and an ISO ``timestamp``.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Container
from datetime import UTC, datetime
from typing import Any, Literal, NotRequired, TypeAlias

from typing_extensions import TypedDict

from hookline.core.messages import Attribution, Content, Message

#: Version written in the header; readers accept this and older.
SESSION_VERSION = 1


class SessionHeader(TypedDict):
    """The first line of a session file."""

    type: Literal["session"]
    version: int
    id: str
    cwd: str
    timestamp: str
    parent_session: NotRequired[str]


class MessageEntry(TypedDict):
    """A conversation message (user, assistant, tool result)."""

    type: Literal["message"]
    id: str
    parent_id: str | None
    timestamp: str
    message: Message


class CustomEntry(TypedDict):
    """Hook state (``append_entry``): kept in the file, never sent to the model."""

    type: Literal["custom"]
    id: str
    parent_id: str | None
    timestamp: str
    custom_type: str
    data: Any


class CustomMessageEntry(TypedDict):
    """A hook message (``send_message``): sent to the model as user text."""

    type: Literal["custom_message"]
    id: str
    parent_id: str | None
    timestamp: str
    custom_type: str
    content: str | list[Content]
    display: bool
    details: NotRequired[Any]
    attribution: NotRequired[Attribution]


class ModelChangeEntry(TypedDict):
    type: Literal["model_change"]
    id: str
    parent_id: str | None
    timestamp: str
    model: str
    previous: str | None


class CompactionEntry(TypedDict):
    """Everything on the path before ``first_kept_entry_id`` is replaced by ``summary``."""

    type: Literal["compaction"]
    id: str
    parent_id: str | None
    timestamp: str
    summary: str
    first_kept_entry_id: str | None
    tokens_before: int
    details: NotRequired[Any]
    from_hook: bool


class BranchSummaryEntry(TypedDict):
    """A summary of the branch the user navigated away from (``from_id`` was its leaf)."""

    type: Literal["branch_summary"]
    id: str
    parent_id: str | None
    timestamp: str
    summary: str
    from_id: str | None
    details: NotRequired[Any]


class SessionInfoEntry(TypedDict):
    """The session's display name (``set_session_name``); the last one counts."""

    type: Literal["session_info"]
    id: str
    parent_id: str | None
    timestamp: str
    name: str


class LabelEntry(TypedDict):
    """A bookmark on entry ``target_id`` (``set_label``); ``label`` None clears it."""

    type: Literal["label"]
    id: str
    parent_id: str | None
    timestamp: str
    target_id: str
    label: str | None


SessionEntry: TypeAlias = (
    MessageEntry
    | CustomEntry
    | CustomMessageEntry
    | ModelChangeEntry
    | CompactionEntry
    | BranchSummaryEntry
    | SessionInfoEntry
    | LabelEntry
)

ENTRY_TYPES = frozenset(
    {
        "message",
        "custom",
        "custom_message",
        "model_change",
        "compaction",
        "branch_summary",
        "session_info",
        "label",
    }
)


def now_iso() -> str:
    """UTC time with milliseconds, e.g. ``2025-01-02T03:04:05.123Z`` (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_session_id() -> str:
    """A session id (uuid4): unique across machines, so files can be copied around."""
    return str(uuid.uuid4())


def new_entry_id(taken: Container[str]) -> str:
    """A short (8 hex) entry id not in ``taken``; short ids keep lines and logs readable."""
    while True:
        candidate = secrets.token_hex(4)
        if candidate not in taken:
            return candidate
