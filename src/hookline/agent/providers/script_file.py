"""Script files for the scripted model: the turn format, loading and validation.

A script is YAML or JSON (``.json`` is read as JSON, anything else as YAML):
``{turns: [...]}`` or a bare list of turns. A turn is a plain string (a text
turn) or a mapping of:

- ``text``: streamed to ``on_text`` in a few chunks;
- ``thinking``: a thinking block before the text;
- ``tool_calls``: ``[{name, arguments: {...}, id?}]``; ids default to ``call_<n>``;
- ``usage``: ``{input_tokens, output_tokens, cache_read_tokens, cache_write_tokens}``;
- ``error``: ``{message, transient?, status?}`` (or a string) — raises
  ``ProviderError`` after any ``text``; ``transient`` defaults from ``status``
  (429/5xx → true);
- ``delay_ms``: wait before answering (abortable);
- ``stop_reason``: override (``stop``/``tool_use``/``length``/``error``/``aborted``);
- ``expect_user_contains`` / ``expect_tool_result_contains``: a string or list
  the last user/custom (or tool result) message must contain, else ``ProviderError``;
- ``expect_system_contains``: the same for the system prompt (memory files, a
  sub-agent type's prompt).

Sub-agents (the ``task`` tool) call the same model: the turns after a turn
that calls ``task`` answer the sub-agent, until it replies without tool calls;
the main agent's next turn follows. ``expect_system_contains`` checks a turn
answers the agent it was written for.

Every problem raises ``ScriptError`` naming the file, the turn and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookline.agent.provider import ProviderError
from hookline.agent.providers._common import is_transient_status
from hookline.core.messages import Usage

#: The keys a turn may have.
SCRIPT_KEYS = (
    "text",
    "thinking",
    "tool_calls",
    "usage",
    "error",
    "delay_ms",
    "stop_reason",
    "expect_user_contains",
    "expect_tool_result_contains",
    "expect_system_contains",
)
_TOOL_CALL_KEYS = ("name", "arguments", "id")
_ERROR_KEYS = ("message", "transient", "status")
_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
_STOP_REASONS = ("stop", "tool_use", "length", "error", "aborted")


class ScriptError(ValueError):
    """A script file that cannot be replayed; the message names the file, turn and problem."""

    def __init__(self, file: str, problem: str, *, turn: int | None = None, where: str = ""):
        self.file = file
        self.turn = turn
        self.problem = problem
        location = f"turns[{turn}]{where}: " if turn is not None else ""
        super().__init__(f"script {file}: {location}{problem}")


@dataclass(slots=True)
class ScriptedToolCall:
    """One tool call of a turn; ``id`` defaults to ``call_<n>``."""

    name: str
    arguments: dict[str, Any]
    id: str | None = None


@dataclass(slots=True)
class ScriptedTurn:
    """One validated assistant turn."""

    text: str = ""
    thinking: str = ""
    tool_calls: list[ScriptedToolCall] = field(default_factory=list)
    usage: Usage | None = None
    error: ProviderError | None = None
    delay_ms: float = 0.0
    stop_reason: str | None = None
    expect_user_contains: list[str] = field(default_factory=list)
    expect_tool_result_contains: list[str] = field(default_factory=list)
    expect_system_contains: list[str] = field(default_factory=list)


def load_script(path: str | Path) -> list[ScriptedTurn]:
    """Read and validate a ``.json``/``.yaml``/``.yml`` script file."""
    file = str(path)
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScriptError(file, "file not found") from None
    except OSError as exc:
        raise ScriptError(file, f"cannot read: {exc.strerror or exc}") from None
    data = _parse_text(raw, file)
    if isinstance(data, Mapping):
        unknown = sorted(set(map(str, data)) - {"turns"})
        if unknown:
            raise ScriptError(file, f"unknown top-level key {unknown[0]!r} (expected 'turns')")
        if "turns" not in data:
            raise ScriptError(file, "missing 'turns' (a list of assistant turns)")
        data = data["turns"]
    if not isinstance(data, list):
        raise ScriptError(file, f"'turns' must be a list, got {_kind(data)}")
    return parse_turns(data, file)


def _parse_text(raw: str, file: str) -> Any:
    if file.endswith(".json"):
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ScriptError(
                file, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from None
    import yaml  # lazily: only scripts need it

    try:
        return yaml.safe_load(raw)  # YAML is a superset of JSON: any other name works too
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ScriptError(file, f"invalid YAML{where}: {problem}") from None


def parse_turns(data: list[Any], file: str) -> list[ScriptedTurn]:
    """Validate raw turns; the first problem raises ``ScriptError``."""
    return [_parse_turn(item, i, file) for i, item in enumerate(data)]


def _parse_turn(item: Any, i: int, file: str) -> ScriptedTurn:
    if isinstance(item, str):
        return ScriptedTurn(text=item)
    if not isinstance(item, Mapping):
        raise ScriptError(file, f"a turn must be a mapping, got {_kind(item)}", turn=i)
    for key in item:
        if key not in SCRIPT_KEYS:
            raise ScriptError(
                file, f"unknown key {key!r} (expected one of {', '.join(SCRIPT_KEYS)})", turn=i
            )
    turn = ScriptedTurn(
        text=_str(item, "text", file, i),
        thinking=_str(item, "thinking", file, i),
        tool_calls=_tool_calls(item.get("tool_calls"), file, i),
        usage=_usage(item.get("usage"), file, i),
        error=_error(item.get("error"), file, i),
        expect_user_contains=_strings(item, "expect_user_contains", file, i),
        expect_tool_result_contains=_strings(item, "expect_tool_result_contains", file, i),
        expect_system_contains=_strings(item, "expect_system_contains", file, i),
    )
    delay = item.get("delay_ms", 0)
    if isinstance(delay, bool) or not isinstance(delay, int | float) or delay < 0:
        raise ScriptError(file, f"must be a number >= 0, got {delay!r}", turn=i, where=".delay_ms")
    turn.delay_ms = float(delay)
    stop = item.get("stop_reason")
    if stop is not None and stop not in _STOP_REASONS:
        raise ScriptError(
            file, f"must be one of {', '.join(_STOP_REASONS)}", turn=i, where=".stop_reason"
        )
    turn.stop_reason = stop
    return turn


def _str(item: Mapping[str, Any], key: str, file: str, i: int) -> str:
    value = item.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ScriptError(file, f"must be a string, got {_kind(value)}", turn=i, where=f".{key}")
    return value


def _strings(item: Mapping[str, Any], key: str, file: str, i: int) -> list[str]:
    value = item.get(key)
    if value is None:
        return []
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ScriptError(file, "must be a string or a list of strings", turn=i, where=f".{key}")
    return list(values)


def _tool_calls(value: Any, file: str, i: int) -> list[ScriptedToolCall]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScriptError(file, f"must be a list, got {_kind(value)}", turn=i, where=".tool_calls")
    calls = []
    for j, call in enumerate(value):
        where = f".tool_calls[{j}]"
        if not isinstance(call, Mapping):
            raise ScriptError(file, f"must be a mapping, got {_kind(call)}", turn=i, where=where)
        unknown = [k for k in call if k not in _TOOL_CALL_KEYS]
        if unknown:
            raise ScriptError(
                file,
                f"unknown key {unknown[0]!r} (expected name, arguments, id)",
                turn=i,
                where=where,
            )
        name = call.get("name")
        if not isinstance(name, str) or not name:
            raise ScriptError(file, "missing 'name' (the tool to call)", turn=i, where=where)
        args = call.get("arguments", {})
        if args is None:
            args = {}
        if not isinstance(args, Mapping):
            raise ScriptError(
                file, f"'arguments' must be a mapping, got {_kind(args)}", turn=i, where=where
            )
        call_id = call.get("id")
        if call_id is not None and not isinstance(call_id, str):
            raise ScriptError(file, "'id' must be a string", turn=i, where=where)
        calls.append(ScriptedToolCall(name=name, arguments=dict(args), id=call_id))
    return calls


def _usage(value: Any, file: str, i: int) -> Usage | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ScriptError(file, f"must be a mapping, got {_kind(value)}", turn=i, where=".usage")
    for key, count in value.items():
        if key not in _USAGE_KEYS:
            raise ScriptError(
                file,
                f"unknown key {key!r} (expected {', '.join(_USAGE_KEYS)})",
                turn=i,
                where=".usage",
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ScriptError(file, f"{key} must be an integer >= 0", turn=i, where=".usage")
    return dict(value)  # type: ignore[return-value]


def _error(value: Any, file: str, i: int) -> ProviderError | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = {"message": value}
    if not isinstance(value, Mapping):
        raise ScriptError(file, f"must be a mapping, got {_kind(value)}", turn=i, where=".error")
    unknown = [k for k in value if k not in _ERROR_KEYS]
    if unknown:
        raise ScriptError(
            file,
            f"unknown key {unknown[0]!r} (expected message, transient, status)",
            turn=i,
            where=".error",
        )
    message = value.get("message")
    if not isinstance(message, str) or not message:
        raise ScriptError(file, "missing 'message'", turn=i, where=".error")
    status = value.get("status")
    if status is not None and (isinstance(status, bool) or not isinstance(status, int)):
        raise ScriptError(file, "'status' must be an integer", turn=i, where=".error")
    transient = value.get("transient", is_transient_status(status))
    if not isinstance(transient, bool):
        raise ScriptError(file, "'transient' must be true or false", turn=i, where=".error")
    return ProviderError(message, transient=transient, status=status)


def _kind(value: Any) -> str:
    """A user-facing name for a parsed value's type."""
    names = {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "nothing (null)"
    for typ, name in names.items():
        if isinstance(value, typ):
            return name
    return f"a number ({value!r})" if isinstance(value, int | float) else type(value).__name__
