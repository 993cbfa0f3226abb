"""The script format as pydantic models, and their errors told as ``ScriptError``.

Imported only when turns need checking (a script file, or in-memory turns given as
mappings): pydantic is not part of an agent that plays already-typed turns.

The models are strict (``"3"`` is not a number, ``true`` is not a count) and forbid
unknown keys. A failed validation becomes one ``ScriptError`` naming the turn, the
key path and what to write instead; the wording is the format's, not pydantic's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails

from hookline.agent.provider import ProviderError
from hookline.agent.providers._common import is_transient_status
from hookline.agent.providers.script_file import (
    SCRIPT_KEYS,
    ScriptedToolCall,
    ScriptedTurn,
    ScriptError,
)
from hookline.core.messages import Usage

_STRICT = ConfigDict(extra="forbid", strict=True)
_Count = Annotated[int, Field(ge=0)]
_Strings = list[str] | None


class _ToolCall(BaseModel):
    model_config = _STRICT

    name: Annotated[str, Field(min_length=1)]
    arguments: dict[Any, Any] | None = None
    id: str | None = None


class _Usage(BaseModel):
    model_config = _STRICT

    input_tokens: _Count = 0
    output_tokens: _Count = 0
    cache_read_tokens: _Count = 0
    cache_write_tokens: _Count = 0


class _Error(BaseModel):
    model_config = _STRICT

    message: Annotated[str, Field(min_length=1)]
    transient: bool = False  # when not given: from ``status`` (see ``_to_turn``)
    status: int | None = None


class _Turn(BaseModel):
    model_config = _STRICT

    text: str | None = None
    thinking: str | None = None
    tool_calls: list[_ToolCall] | None = None
    usage: _Usage | None = None
    error: _Error | None = None
    delay_ms: Annotated[float, Field(ge=0)] = 0.0
    stop_reason: Literal["stop", "tool_use", "length", "error", "aborted"] | None = None
    expect_user_contains: _Strings = None
    expect_tool_result_contains: _Strings = None
    expect_system_contains: _Strings = None

    @model_validator(mode="before")
    @classmethod
    def _text_turn(cls, value: Any) -> Any:
        """A plain string is a text turn."""
        return {"text": value} if isinstance(value, str) else value

    @field_validator("error", mode="before")
    @classmethod
    def _error_message(cls, value: Any) -> Any:
        """``error: boom`` is ``error: {message: boom}``."""
        return {"message": value} if isinstance(value, str) else value

    @field_validator(
        "expect_user_contains",
        "expect_tool_result_contains",
        "expect_system_contains",
        mode="before",
    )
    @classmethod
    def _one_string(cls, value: Any) -> Any:
        """One string is a list of one."""
        return [value] if isinstance(value, str) else value


class _Script(BaseModel):
    model_config = _STRICT

    turns: list[_Turn]

    @model_validator(mode="before")
    @classmethod
    def _bare_list(cls, value: Any) -> Any:
        """A bare list is the turns."""
        return {"turns": value} if isinstance(value, list) else value


def validate_script(data: Any, file: str) -> list[ScriptedTurn]:
    """A parsed script file (``{turns: [...]}`` or a bare list) as turns."""
    try:
        script = _Script.model_validate(data)
    except ValidationError as exc:
        raise _script_error(exc.errors(), file) from None
    return [_to_turn(turn) for turn in script.turns]


def validate_turn(item: Any, index: int, file: str) -> ScriptedTurn:
    """One raw turn (a mapping or a string) as ``turns[index]``."""
    try:
        turn = _Turn.model_validate(_as_dicts(item))
    except ValidationError as exc:
        errors = exc.errors()
        for error in errors:  # where it is in a file's turns
            error["loc"] = ("turns", index, *error["loc"])
        raise _script_error(errors, file) from None
    return _to_turn(turn)


def _as_dicts(value: Any) -> Any:
    """In-memory turns may use any ``Mapping``; the strict models take ``dict``s."""
    if isinstance(value, Mapping):
        return {key: _as_dicts(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_dicts(item) for item in value]
    return value


def _to_turn(turn: _Turn) -> ScriptedTurn:
    """The dataclass the provider plays."""
    return ScriptedTurn(
        text=turn.text or "",
        thinking=turn.thinking or "",
        tool_calls=[
            ScriptedToolCall(name=call.name, arguments=dict(call.arguments or {}), id=call.id)
            for call in turn.tool_calls or []
        ],
        usage=_usage(turn.usage) if turn.usage is not None else None,
        error=_error(turn.error) if turn.error is not None else None,
        delay_ms=turn.delay_ms,
        stop_reason=turn.stop_reason,
        expect_user_contains=list(turn.expect_user_contains or []),
        expect_tool_result_contains=list(turn.expect_tool_result_contains or []),
        expect_system_contains=list(turn.expect_system_contains or []),
    )


def _usage(usage: _Usage) -> Usage:
    """Only the counts the script gave (a missing count is not a zero count)."""
    return usage.model_dump(exclude_unset=True)  # type: ignore[return-value]


def _error(error: _Error) -> ProviderError:
    given = "transient" in error.model_fields_set
    transient = error.transient if given else is_transient_status(error.status)
    return ProviderError(error.message, transient=transient, status=error.status)


def _script_error(errors: list[ErrorDetails], file: str) -> ScriptError:
    """The first problem, as the author would look for it: an unknown key before what is
    inside the mapping that has it, since a misspelt key explains a missing one."""
    first = errors[0]
    unknown = [
        e
        for e in errors
        if e["type"] == "extra_forbidden" and first["loc"][: len(e["loc"]) - 1] == e["loc"][:-1]
    ]
    if unknown:  # the outermost: a misspelt top-level key before a turn's
        first = min(unknown, key=lambda e: len(e["loc"]))
    loc = first["loc"]
    if len(loc) < 2 or loc[0] != "turns":
        return ScriptError(file, _top_level_problem(first))
    turn = loc[1]
    assert isinstance(turn, int)
    where, problem = _turn_problem(first, loc[2:])
    return ScriptError(file, problem, turn=turn, where=where)


def _top_level_problem(error: ErrorDetails) -> str:
    """The file's shape: not a mapping or list, an unknown key, no or bad ``turns``."""
    loc = error["loc"]
    if error["type"] == "extra_forbidden":
        return f"unknown top-level key {loc[-1]!r} (expected 'turns')"
    if error["type"] == "missing":
        return "missing 'turns' (a list of assistant turns)"
    return f"'turns' must be a list, got {_kind(error['input'])}"


def _turn_problem(error: ErrorDetails, loc: tuple[int | str, ...]) -> tuple[str, str]:
    """``(where, problem)`` for an error at ``loc`` inside one turn."""
    got = _kind(error["input"])
    if not loc:
        return "", f"a turn must be a mapping, got {got}"
    key = loc[0]
    if error["type"] == "extra_forbidden" and len(loc) == 1:
        keys = ", ".join(SCRIPT_KEYS)
        return "", f"unknown key {key!r} ({_guess(str(key), SCRIPT_KEYS)}expected one of {keys})"
    where = f".{key}"
    if key in ("text", "thinking"):
        return where, f"must be a string, got {got}"
    if key == "delay_ms":
        return where, f"must be a number >= 0, got {error['input']!r}"
    if key == "stop_reason":
        return where, f"must be one of {', '.join(_field_choices('stop_reason'))}"
    if key == "tool_calls":
        return _tool_call_problem(error, loc[1:])
    if key == "usage":
        return where, _keyed_problem(error, loc[1:], _Usage, "{key} must be an integer >= 0")
    if key == "error":
        return where, _keyed_problem(error, loc[1:], _Error, None)
    return where, "must be a string or a list of strings"  # the expect_* keys


def _tool_call_problem(error: ErrorDetails, loc: tuple[int | str, ...]) -> tuple[str, str]:
    if not loc:
        return ".tool_calls", f"must be a list, got {_kind(error['input'])}"
    where = f".tool_calls[{loc[0]}]"
    return where, _keyed_problem(error, loc[1:], _ToolCall, None)


#: What a bad value of a nested key means, by key, for the mappings whose keys differ.
_KEY_PROBLEMS = {
    "name": "missing 'name' (the tool to call)",
    "arguments": "'arguments' must be a mapping, got {got}",
    "id": "'id' must be a string",
    "message": "missing 'message'",
    "status": "'status' must be an integer",
    "transient": "'transient' must be true or false",
}


def _keyed_problem(
    error: ErrorDetails, loc: tuple[int | str, ...], model: type[BaseModel], problem: str | None
) -> str:
    """A problem inside one of the nested mappings (a tool call, ``usage``, ``error``)."""
    got = _kind(error["input"])
    if not loc:
        return f"must be a mapping, got {got}"
    key = str(loc[0])
    if error["type"] == "extra_forbidden":
        fields = list(model.model_fields)
        return f"unknown key {loc[0]!r} ({_guess(key, fields)}expected {', '.join(fields)})"
    return (problem or _KEY_PROBLEMS[key]).format(key=key, got=got)


def _guess(key: str, keys: Sequence[str]) -> str:
    """``did you mean 'tool_calls'? `` when ``key`` looks like a misspelt one of ``keys``."""
    from hookline._typos import closest

    guess = closest(key, keys)
    return f"did you mean {guess!r}? " if guess else ""


def _field_choices(name: str) -> tuple[str, ...]:
    """The literal values a field allows, from its annotation (one source of truth)."""
    annotation = _Turn.model_fields[name].annotation
    literal = next(arg for arg in get_args(annotation) if arg is not type(None))
    return tuple(get_args(literal))


def _kind(value: Any) -> str:
    """A user-facing name for a parsed value's type."""
    names = {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "nothing (null)"
    for typ, name in names.items():
        if isinstance(value, typ):
            return name
    return f"a number ({value!r})" if isinstance(value, int | float) else type(value).__name__
