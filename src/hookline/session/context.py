"""What the model sees for one path of the session tree.

Rules (root → leaf):

- ``message`` entries are sent as they are.
- ``custom_message`` entries become ``role: "custom"`` messages (the model sees
  them as user text); ``custom`` and ``model_change`` entries are never sent.
- ``branch_summary`` entries become a custom message with custom_type
  ``"branch_summary"``.
- The **latest** ``compaction`` on the path replaces everything before its
  ``first_kept_entry_id`` with one custom message, custom_type
  ``"compaction_summary"``, placed first. Entries from ``first_kept_entry_id``
  up to the compaction, then those after it, follow. When the kept id is
  ``None`` or not on the path, nothing before the compaction is kept. Older
  compactions are not shown again: the latest summary covers them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain, islice
from typing import Any, cast

from hookline.core.messages import CustomMessage, Message
from hookline.session.entries import SessionEntry

COMPACTION_SUMMARY_TYPE = "compaction_summary"
BRANCH_SUMMARY_TYPE = "branch_summary"

_COMPACTION_PREFIX = (
    "The conversation history before this point was compacted into the following summary:\n\n"
)
_BRANCH_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n"


def _summary_message(custom_type: str, text: str, details: dict[str, Any]) -> CustomMessage:
    return {
        "role": "custom",
        "custom_type": custom_type,
        "content": text,
        "display": True,
        "details": details,
    }


def entry_message(entry: SessionEntry) -> Message | None:
    """The message one entry contributes (``None`` for entries the model never sees).

    A compaction is handled by ``context_items``; alone it yields its summary message.
    """
    if entry["type"] == "message":
        return entry["message"]
    if entry["type"] == "custom_message":
        msg: CustomMessage = {
            "role": "custom",
            "custom_type": entry["custom_type"],
            "content": entry["content"],
            "display": entry.get("display", True),
        }
        if "details" in entry:
            msg["details"] = entry["details"]
        if "attribution" in entry:
            msg["attribution"] = entry["attribution"]
        return msg
    if entry["type"] == "branch_summary":
        details: dict[str, Any] = {"from_id": entry["from_id"], "entry_id": entry["id"]}
        if entry.get("details") is not None:
            details["details"] = entry["details"]
        return _summary_message(BRANCH_SUMMARY_TYPE, _BRANCH_PREFIX + entry["summary"], details)
    if entry["type"] == "compaction":
        details = {
            "entry_id": entry["id"],
            "first_kept_entry_id": entry["first_kept_entry_id"],
            "tokens_before": entry["tokens_before"],
            "from_hook": entry.get("from_hook", False),
        }
        if entry.get("details") is not None:
            details["details"] = entry["details"]
        return _summary_message(
            COMPACTION_SUMMARY_TYPE, _COMPACTION_PREFIX + entry["summary"], details
        )
    return None


def _visible(path: Sequence[SessionEntry]) -> tuple[SessionEntry | None, Iterator[SessionEntry]]:
    """The latest compaction on ``path`` (if any) and the entries shown after its summary."""
    for i in range(len(path) - 1, -1, -1):
        if path[i]["type"] == "compaction":
            compaction = path[i]
            kept_id = compaction.get("first_kept_entry_id")
            start = i
            for j in range(i):
                if path[j]["id"] == kept_id:
                    start = j
                    break
            return compaction, chain(islice(path, start, i), islice(path, i + 1, None))
    return None, iter(path)


def context_items(path: Sequence[SessionEntry]) -> list[tuple[SessionEntry, Message]]:
    """The (entry, message) pairs the model sees, in order (see the module rules)."""
    compaction, entries = _visible(path)
    items: list[tuple[SessionEntry, Message]] = []
    if compaction is not None:
        items.append((compaction, cast(Message, entry_message(compaction))))
    for entry in entries:
        if entry["type"] == "message":
            items.append((entry, entry["message"]))
        elif entry["type"] != "compaction":  # older compactions live inside the latest
            message = entry_message(entry)
            if message is not None:
                items.append((entry, message))
    return items


def context_messages(path: Sequence[SessionEntry]) -> list[Message]:
    """The messages the model sees for ``path`` (``context_items`` without the entries)."""
    compaction, entries = _visible(path)
    messages: list[Message] = []
    append = messages.append
    if compaction is not None:
        append(cast(Message, entry_message(compaction)))
    for entry in entries:
        if entry["type"] == "message":
            append(entry["message"])
        elif entry["type"] != "compaction":
            message = entry_message(entry)
            if message is not None:
                append(message)
    return messages
