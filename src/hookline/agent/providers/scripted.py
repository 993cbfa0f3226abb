"""A deterministic model that replays a script of assistant turns.

It is the embedded default model: the demo, the tests and hook authors use it
to drive the agent through tool calls, errors and retries with no network.
See ``SCRIPT_KEYS`` for the turn format.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookline.agent.provider import ModelRequest, ProviderError, TextDelta
from hookline.agent.providers._common import PartialReply, is_transient_status, run_abortable
from hookline.core.messages import (
    AssistantContent,
    AssistantMessage,
    Message,
    ToolCallContent,
    Usage,
    content_text,
)

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
)
_TOOL_CALL_KEYS = ("name", "arguments", "id")
_ERROR_KEYS = ("message", "transient", "status")
_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
_STOP_REASONS = ("stop", "tool_use", "length", "error", "aborted")
_ENDED_TEXT = "(script ended)"
_WORDS_PER_CHUNK = 4


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


class ScriptedProvider:
    """Replays ``turns`` in order, one per ``complete()`` call.

    ``requests`` records every request it answered, so tests can check what
    the model was shown.
    """

    def __init__(self, path: str | Path) -> None:
        self._file = str(path)
        self._turns = load_script(path)
        self._next = 0
        self._calls = 0
        self.requests: list[ModelRequest] = []

    @classmethod
    def from_turns(
        cls, turns: Sequence[Mapping[str, Any] | str], name: str = "<inline>"
    ) -> ScriptedProvider:
        """A provider from in-memory turns (validated like a file; a string is a text turn)."""
        self = cls.__new__(cls)
        self._file = name
        self._turns = parse_turns(list(turns), name)
        self._next = 0
        self._calls = 0
        self.requests = []
        return self

    @property
    def model_id(self) -> str:
        return f"scripted:{self._file}"

    @property
    def remaining(self) -> int:
        """Turns not yet replayed."""
        return len(self._turns) - self._next

    async def complete(
        self, request: ModelRequest, on_text: TextDelta | None = None
    ) -> AssistantMessage:
        """The next turn as an assistant message (text streamed to ``on_text``)."""
        self.requests.append(request)
        if self._next >= len(self._turns):
            ended = ScriptedTurn(text=_ENDED_TEXT)
            return await self._play(ended, -1, request, on_text)
        index = self._next
        self._next += 1
        return await self._play(self._turns[index], index, request, on_text)

    async def _play(
        self, turn: ScriptedTurn, index: int, request: ModelRequest, on_text: TextDelta | None
    ) -> AssistantMessage:
        self._check_expectations(turn, index, request.messages)
        partial = PartialReply(model="scripted")
        aborted, message = await run_abortable(self._stream(turn, partial, on_text), request.signal)
        if aborted or message is None:
            return partial.aborted()
        return message

    async def _stream(
        self, turn: ScriptedTurn, partial: PartialReply, on_text: TextDelta | None
    ) -> AssistantMessage:
        if turn.delay_ms:
            await asyncio.sleep(turn.delay_ms / 1000)
        if turn.thinking:
            partial.thinking.append(turn.thinking)
        for chunk in _chunks(turn.text):
            partial.text.append(chunk)
            if on_text is not None:
                on_text(chunk)
            await asyncio.sleep(0)
        if turn.error is not None:
            err = turn.error  # a fresh exception per raise: no traceback carried over
            raise ProviderError(str(err), transient=err.transient, status=err.status)
        content: list[AssistantContent] = []
        if turn.thinking:
            content.append({"type": "thinking", "thinking": turn.thinking})
        if turn.text:
            content.append({"type": "text", "text": turn.text})
        for call in turn.tool_calls:
            self._calls += 1
            block: ToolCallContent = {
                "type": "tool_call",
                "id": call.id or f"call_{self._calls}",
                "name": call.name,
                "arguments": json.loads(json.dumps(call.arguments)),
            }
            content.append(block)
        message: AssistantMessage = {
            "role": "assistant",
            "content": content,
            "model": "scripted",
            "stop_reason": turn.stop_reason or ("tool_use" if turn.tool_calls else "stop"),
        }
        if turn.usage is not None:
            message["usage"] = dict(turn.usage)  # type: ignore[typeddict-item]
        return message

    def _check_expectations(self, turn: ScriptedTurn, index: int, messages: list[Message]) -> None:
        checks = (
            ("expect_user_contains", turn.expect_user_contains, ("user", "custom"), "user"),
            ("expect_tool_result_contains", turn.expect_tool_result_contains, ("tool",), "tool"),
        )
        for key, wanted, roles, label in checks:
            if not wanted:
                continue
            last = next((m for m in reversed(messages) if m["role"] in roles), None)
            seen = content_text(last["content"]) if last is not None else ""  # type: ignore[arg-type]
            for needle in wanted:
                if needle not in seen:
                    shown = repr(seen) if last is not None else f"no {label} message"
                    raise ProviderError(
                        f"script {self._file}: turns[{index}].{key}: expected the last "
                        f"{label} message to contain {needle!r}, got {shown}",
                        transient=False,
                    )


def _chunks(text: str) -> list[str]:
    """``text`` split on word boundaries into a few deltas that join back exactly."""
    tokens = re.findall(r"\s*\S+\s*|\s+", text)
    return [
        "".join(tokens[i : i + _WORDS_PER_CHUNK]) for i in range(0, len(tokens), _WORDS_PER_CHUNK)
    ]


# -- loading and validation ---------------------------------------------------


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
