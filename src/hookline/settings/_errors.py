"""Readable settings errors: pydantic locations turned into the key paths a user typed,
each error worded by ``core.plain_errors``.

Pydantic puts union tags into error locations (``hooks.events.PreToolUse.0.
hooks.0.command.timeout``); users never wrote those, so they are dropped by
walking the raw JSON alongside the location.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from hookline.core.plain_errors import plain_message, unknown_key
from hookline.settings.models import CLAUDE_EVENTS, HOOKS_UNION_TAGS

_HOOK_TYPES = frozenset({"command", "http", "mcp_tool", "prompt", "agent"})
_MAX_ERRORS = 10
_MISSING = object()


def key_path(loc: tuple[int | str, ...], raw: Any) -> str:
    """``hooks.PreToolUse[0].hooks[0].timeout`` for a pydantic location inside ``raw``."""
    parts: list[str] = []
    value: Any = raw
    tag_allowed = True
    for index, segment in enumerate(loc):
        if index == 1 and loc[0] == "hooks" and segment in HOOKS_UNION_TAGS:
            continue  # the list/object tag of Settings.hooks
        if isinstance(value, list) and isinstance(segment, str):
            continue  # a union tag met while standing on a list
        if (
            tag_allowed
            and isinstance(value, dict)
            and segment in _HOOK_TYPES
            and value.get("type") == segment
        ):
            tag_allowed = False  # the discriminator tag of a hook config
            continue
        tag_allowed = True
        if segment == "[key]":
            continue  # pydantic marks dict-key errors; the key itself is already in the path
        if isinstance(segment, int):
            parts.append(f"[{segment}]")
            value = value[segment] if isinstance(value, list) and segment < len(value) else None
        else:
            parts.append(f".{segment}" if parts else segment)
            value = value.get(segment, _MISSING) if isinstance(value, dict) else None
    return "".join(parts) or "(top level)"


def _message(error: dict[str, Any]) -> str:
    """The error in plain words (``plain_message``); an unknown event with its closest."""
    loc = error["loc"]
    if error["type"] == "literal_error" and loc and loc[-1] == "[key]" and loc[0] == "hooks":
        return unknown_key(str(error["input"]), CLAUDE_EVENTS, "event")
    return plain_message(error)


def validation_messages(exc: ValidationError, raw: Any) -> list[str]:
    """One ``key.path: message`` line per error (at most ten, then a count)."""
    errors = exc.errors()
    lines = [
        f"{key_path(tuple(error['loc']), raw)}: {_message(dict(error))}"
        for error in errors[:_MAX_ERRORS]
    ]
    if len(errors) > _MAX_ERRORS:
        lines.append(f"... and {len(errors) - _MAX_ERRORS} more errors")
    return lines
