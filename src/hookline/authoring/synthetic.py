"""Synthetic events: a name and a JSON object in, a typed event out, with defaults filled.

Used by ``hookline hooks test`` and the pytest plugin, so a hook can be tried
without a model. Tool events accept hookline's vocabulary (``tool_name:
"edit"``, ``input: {"path", "oldText"}``) or Claude Code's (``tool_name:
"Edit"``, ``tool_input: {"file_path", "old_string"}``); an event may be named
either way (``PreToolUse`` is ``tool_call``).
"""

from __future__ import annotations

import dataclasses
import itertools
import time
import typing
from collections.abc import Mapping
from typing import Any

from hookline.claude.names import from_claude_input, from_claude_tool_name
from hookline.core.events import EVENT_NAMES, EVENT_TYPES, Event
from hookline.core.vocabulary import HOOKLINE_EVENT_NAMES, claude_field_hint

_TOOL_EVENTS = frozenset(
    {"tool_call", "tool_result", "permission_request", "tool_execution_start"}
    | {"tool_execution_update", "tool_execution_end"}
)
_ids = itertools.count(1)
#: Fields of every Claude Code hook input that no hookline event carries.
_CLAUDE_BASE_FIELDS = (
    "type",
    "hook_event_name",
    "session_id",
    "transcript_path",
    "cwd",
    "permission_mode",
)


class EventInputError(ValueError):
    """The event name or its input does not describe an event; the message says what to fix."""


def event_name(name: str) -> str:
    """hookline's name for ``name`` (``PreToolUse`` → ``tool_call``); raises if unknown."""
    if name in EVENT_NAMES:
        return name
    if name in HOOKLINE_EVENT_NAMES:
        return HOOKLINE_EVENT_NAMES[name]
    from hookline._typos import closest_hint

    hint = closest_hint(name, EVENT_NAMES)
    raise EventInputError(f"unknown event {name!r}{hint}; events: {', '.join(sorted(EVENT_NAMES))}")


def make_event(name: str, data: Mapping[str, Any] | None = None) -> Event:
    """The event ``name`` built from ``data``; missing ids and timestamps get defaults."""
    ours = event_name(name)
    cls = EVENT_TYPES[ours]
    fields = dict(data or {})
    for key in _CLAUDE_BASE_FIELDS:  # a payload captured from Claude Code carries these
        fields.pop(key, None)
    if ours in _TOOL_EVENTS:
        fields = _tool_fields(fields)
    elif ours == "input" and "prompt" in fields and "text" not in fields:
        fields["text"] = fields.pop("prompt")
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = [k for k in fields if k not in known]
    if unknown:
        key = unknown[0]
        from hookline._typos import closest_hint

        hint = claude_field_hint(key) or closest_hint(key, known)
        raise EventInputError(
            f"{ours}: unknown field {key!r}{hint}; fields: {', '.join(known) or '(none)'}"
        )
    hints = typing.get_type_hints(cls)
    for f in known.values():
        if f.name not in fields and _required(f):
            fields[f.name] = _default(f.name, hints.get(f.name))
    try:
        return cls(**fields)
    except TypeError as exc:
        raise EventInputError(f"{ours}: {exc}") from None


def _tool_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """Claude's tool vocabulary (``Bash``, ``tool_input``, ``file_path``) → hookline's."""
    name = fields.get("tool_name")
    if not isinstance(name, str) or not name:
        raise EventInputError('a tool event needs \'tool_name\' (e.g. "bash" or "Bash")')
    ours = from_claude_tool_name(name)
    fields["tool_name"] = ours
    if "tool_input" in fields:
        if "input" in fields:
            raise EventInputError("give 'input' (hookline's keys) or 'tool_input', not both")
        claude_input = fields.pop("tool_input")
        if not isinstance(claude_input, dict):
            raise EventInputError("'tool_input' must be a JSON object")
        fields["input"] = from_claude_input(ours, claude_input)
    if "tool_use_id" in fields:
        fields.setdefault("tool_call_id", fields.pop("tool_use_id"))
    if "tool_response" in fields and "content" not in fields:
        fields["content"] = fields.pop("tool_response")
    content = fields.get("content")
    if isinstance(content, str):
        fields["content"] = [{"type": "text", "text": content}]
    elif isinstance(content, dict):
        fields["content"] = [{"type": "text", "text": _json(content)}]
    if "input" in fields and not isinstance(fields["input"], dict):
        raise EventInputError("'input' must be a JSON object")
    return fields


def _json(value: Any) -> str:
    import json

    return json.dumps(value)


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _default(name: str, hint: Any) -> Any:
    if name == "tool_call_id":
        return f"call_{next(_ids)}"
    if name == "timestamp":
        return time.time()
    origin = typing.get_origin(hint) or hint
    if origin is dict:
        return {}
    if origin is list:
        return []
    if hint is int:
        return 0
    if hint is float:
        return 0.0
    if hint is bool:
        return False
    return ""
