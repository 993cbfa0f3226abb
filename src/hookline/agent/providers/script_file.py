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
The checks are the pydantic models in ``_script_models``, imported when a file (or
an in-memory turn given as a mapping) is validated, so an agent playing turns that
are already typed never imports pydantic.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookline.agent.provider import ProviderError
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
    turns = data["turns"] if isinstance(data, Mapping) and list(data) == ["turns"] else data
    if isinstance(turns, list) and all(isinstance(turn, str) for turn in turns):
        return parse_turns(turns, file)  # text turns only: nothing for the models to check
    from hookline.agent.providers._script_models import validate_script  # pydantic: here only

    return validate_script(data, file)


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


def parse_turns(
    data: Sequence[ScriptedTurn | Mapping[str, Any] | str], file: str
) -> list[ScriptedTurn]:
    """In-memory turns as ``ScriptedTurn``s; the first bad one raises ``ScriptError``.

    A string (a text turn) or a ``ScriptedTurn`` is already typed and taken as it is;
    anything else is checked by the script file's models (which import pydantic).
    """
    turns = []
    for i, item in enumerate(data):
        if isinstance(item, ScriptedTurn):
            turns.append(item)
        elif isinstance(item, str):
            turns.append(ScriptedTurn(text=item))
        else:
            from hookline.agent.providers._script_models import validate_turn

            turns.append(validate_turn(item, i, file))
    return turns
