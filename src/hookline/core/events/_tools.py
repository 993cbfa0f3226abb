"""Tool events: a call asked for, its result, its execution."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hookline.core.events._base import Event
from hookline.core.messages import Content


@dataclass(slots=True, kw_only=True)
class ToolCallEvent(Event):
    """The model asked for a tool call; fires before the permission decision and the tool."""

    type: ClassVar[str] = "tool_call"
    #: hookline's tool name (``bash``, ``read``, ``edit``, ...).
    tool_name: str
    #: The id the model gave the call.
    tool_call_id: str
    #: The tool's arguments in hookline's keys (``path``, ``oldText``, ``newText``, ``command``).
    input: dict[str, Any]
    #: Set when a sub-agent of the ``task`` tool made the call: its id.
    agent_id: str | None = None
    #: The sub-agent's type, with ``agent_id``.
    agent_type: str | None = None


@dataclass(slots=True, kw_only=True)
class ToolResultEvent(Event):
    """A tool finished (or raised); fires before the model sees the result."""

    type: ClassVar[str] = "tool_result"
    #: hookline's tool name.
    tool_name: str
    #: The id the model gave the call.
    tool_call_id: str
    #: The arguments that really ran (after any rewrite).
    input: dict[str, Any]
    #: The content blocks the model would see.
    content: list[Content]
    #: The tool's structured details (see the built-in tools' reference).
    details: Any = None
    #: The tool failed (raised).
    is_error: bool = False
    #: Set when a sub-agent made the call: its id.
    agent_id: str | None = None
    #: The sub-agent's type, with ``agent_id``.
    agent_type: str | None = None


@dataclass(slots=True, kw_only=True)
class ToolExecutionStartEvent(Event):
    """A tool call passed the hooks and the permission decision and starts running."""

    type: ClassVar[str] = "tool_execution_start"
    #: hookline's tool name.
    tool_name: str
    #: The id the model gave the call.
    tool_call_id: str
    #: The final input, after the hooks' rewrites.
    input: dict[str, Any]
    #: pi's name for ``input``: the same dict.
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class ToolExecutionUpdateEvent(Event):
    """A running tool streamed output (bash: at most ten times a second)."""

    type: ClassVar[str] = "tool_execution_update"
    #: hookline's tool name.
    tool_name: str
    #: The id the model gave the call.
    tool_call_id: str
    #: The input the tool runs with.
    input: dict[str, Any]
    #: ``{"content": [...], "details": ...}`` as the tool sent it.
    partial_result: Any = None
    #: pi's name for ``input``: the same dict.
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class ToolExecutionEndEvent(Event):
    """A tool call ended, after the ``tool_result`` hooks."""

    type: ClassVar[str] = "tool_execution_end"
    #: hookline's tool name.
    tool_name: str
    #: The id the model gave the call.
    tool_call_id: str
    #: The final ``{"content": [...], "details": ...}``.
    result: Any = None
    #: The call ended in an error.
    is_error: bool = False
    #: The input the tool ran with (pi's name).
    args: dict[str, Any] = field(default_factory=dict)
    #: The text of ``result``.
    result_text: str = ""
