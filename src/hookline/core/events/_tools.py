"""Tool events: a call asked for, its result, its execution."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hookline.core.events._base import Event
from hookline.core.messages import Content


@dataclass(slots=True, kw_only=True)
class ToolCallEvent(Event):
    """The model asked for a tool call; fires before the permission decision and the tool.

    Payload: ``tool_name`` (hookline's name: ``bash``, ``read``, ``edit``, ...),
    ``tool_call_id``, ``input`` (the tool's arguments, hookline's keys:
    ``path``, ``oldText``, ``newText``, ``command``), ``agent_id`` and
    ``agent_type`` (set when a sub-agent of the ``task`` tool made the call).

    Result: ``ToolCallResult`` (``block``, ``reason``, ``input``, ``permission``).

    Combination: handlers run in load order; the first ``block`` stops the chain; a
    handler that raises, returns something invalid or misses its deadline blocks
    the call (fail closed); ``input`` rewrites chain (the next handler sees the
    rewritten input); ``permission`` goes to the permission stage (``ask`` beats
    ``allow``). Claude's name for it: ``PreToolUse``.

    Example: ``return {"block": True, "reason": "no force pushes"}``.
    """

    type: ClassVar[str] = "tool_call"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    #: Set when the call comes from a sub-agent (the ``task`` tool): its id and type.
    agent_id: str | None = None
    agent_type: str | None = None


@dataclass(slots=True, kw_only=True)
class ToolResultEvent(Event):
    """A tool finished (or raised); fires before the model sees the result.

    Payload: ``tool_name``, ``tool_call_id``, ``input`` (what really ran),
    ``content`` (content blocks the model would see), ``details`` (the tool's
    structured details, see the built-in tools' reference), ``is_error``,
    ``agent_id`` and ``agent_type`` (set when a sub-agent made the call).

    Result: ``ToolResultResult`` (``content``, ``details``, ``is_error``, ``append``).

    Combination: every handler sees the original result; the last override wins;
    ``append`` blocks accumulate; a handler that fails or is late withholds the
    output (fail closed) and stops the chain. Claude's name: ``PostToolUse`` /
    ``PostToolUseFailure``.

    Example: ``return {"content": [{"type": "text", "text": redact(text)}]}``.
    """

    type: ClassVar[str] = "tool_result"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    content: list[Content]
    details: Any = None
    is_error: bool = False
    agent_id: str | None = None
    agent_type: str | None = None


@dataclass(slots=True, kw_only=True)
class ToolExecutionStartEvent(Event):
    """A tool call passed the hooks and the permission decision and starts running.

    Payload: ``tool_name``, ``tool_call_id``, ``input`` (the final input), ``args``
    (pi's name for ``input``: the same dict).

    Result: none (a notification; return values are ignored).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "tool_execution_start"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class ToolExecutionUpdateEvent(Event):
    """A running tool streamed output (bash: at most ten times a second).

    Payload: ``tool_name``, ``tool_call_id``, ``input``, ``args`` (the same dict),
    ``partial_result`` (``{"content": [...], "details": ...}`` as the tool sent it).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "tool_execution_update"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    partial_result: Any = None
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class ToolExecutionEndEvent(Event):
    """A tool call ended, after the ``tool_result`` hooks.

    Payload: ``tool_name``, ``tool_call_id``, ``args``, ``result`` (the final
    ``{"content": [...], "details": ...}``), ``result_text`` (its text), ``is_error``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "tool_execution_end"
    tool_name: str
    tool_call_id: str
    result: Any = None
    is_error: bool = False
    args: dict[str, Any] = field(default_factory=dict)
    result_text: str = ""
