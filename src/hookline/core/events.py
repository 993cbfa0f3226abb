"""Typed events: one class per event name (``EVENT_NAMES``).

Events are slotted dataclasses, not pydantic models: they are built on the
hot path (every tool call) and never parsed from untrusted text. Each class
carries its wire name in ``type``; ``EVENT_TYPES`` maps names to classes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from hookline.core.messages import AssistantMessage, Content, Message, ToolResultMessage


@dataclass(slots=True, kw_only=True)
class Event:
    """Base of every event; ``type`` is the name handlers subscribe to."""

    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The payload as a JSON-ready dict with ``type`` first (json mode, RPC, logs)."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = getattr(self, f.name)
        return out


# --- tools -----------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class ToolCallEvent(Event):
    type: ClassVar[str] = "tool_call"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    #: Set when the call comes from a sub-agent (the ``task`` tool): its id and type.
    agent_id: str | None = None
    agent_type: str | None = None


@dataclass(slots=True, kw_only=True)
class ToolResultEvent(Event):
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
    type: ClassVar[str] = "tool_execution_start"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]


@dataclass(slots=True, kw_only=True)
class ToolExecutionUpdateEvent(Event):
    type: ClassVar[str] = "tool_execution_update"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    partial_result: Any = None


@dataclass(slots=True, kw_only=True)
class ToolExecutionEndEvent(Event):
    type: ClassVar[str] = "tool_execution_end"
    tool_name: str
    tool_call_id: str
    result: Any = None
    is_error: bool = False


# --- agent -----------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class ContextEvent(Event):
    type: ClassVar[str] = "context"
    messages: list[Message]


@dataclass(slots=True, kw_only=True)
class BeforeAgentStartEvent(Event):
    type: ClassVar[str] = "before_agent_start"
    prompt: str = ""
    images: list[Content] = field(default_factory=list)
    system_prompt: str = ""


@dataclass(slots=True, kw_only=True)
class AgentStartEvent(Event):
    type: ClassVar[str] = "agent_start"


@dataclass(slots=True, kw_only=True)
class AgentEndEvent(Event):
    """The run ended; ``denials`` lists the tool calls that did not run, why, and the fix."""

    type: ClassVar[str] = "agent_end"
    messages: list[Message] = field(default_factory=list)
    denials: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class TurnStartEvent(Event):
    type: ClassVar[str] = "turn_start"
    turn_index: int
    timestamp: float


@dataclass(slots=True, kw_only=True)
class TurnEndEvent(Event):
    type: ClassVar[str] = "turn_end"
    turn_index: int
    message: AssistantMessage | None = None
    tool_results: list[ToolResultMessage] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class InputEvent(Event):
    type: ClassVar[str] = "input"
    text: str
    images: list[Content] = field(default_factory=list)
    source: str = "interactive"  # "interactive" | "rpc" | "print" | "extension"


@dataclass(slots=True, kw_only=True)
class UserBashEvent(Event):
    type: ClassVar[str] = "user_bash"
    command: str
    cwd: str


@dataclass(slots=True, kw_only=True)
class ModelSelectEvent(Event):
    type: ClassVar[str] = "model_select"
    model: str
    previous_model: str | None = None
    source: str = "set"  # "set" | "cycle" | "restore"


@dataclass(slots=True, kw_only=True)
class AutoCompactionStartEvent(Event):
    type: ClassVar[str] = "auto_compaction_start"
    reason: str = "threshold"  # "threshold" | "overflow"


@dataclass(slots=True, kw_only=True)
class AutoCompactionEndEvent(Event):
    type: ClassVar[str] = "auto_compaction_end"
    aborted: bool = False
    error: str | None = None


@dataclass(slots=True, kw_only=True)
class AutoRetryStartEvent(Event):
    type: ClassVar[str] = "auto_retry_start"
    attempt: int
    max_attempts: int
    delay_ms: int
    error: str


@dataclass(slots=True, kw_only=True)
class AutoRetryEndEvent(Event):
    type: ClassVar[str] = "auto_retry_end"
    success: bool
    attempt: int
    final_error: str | None = None


@dataclass(slots=True, kw_only=True)
class TtsrTriggeredEvent(Event):
    """A too-short response was detected and the agent nudged the model again."""

    type: ClassVar[str] = "ttsr_triggered"
    turn_index: int = 0
    message: AssistantMessage | None = None


@dataclass(slots=True, kw_only=True)
class TodoReminderEvent(Event):
    type: ClassVar[str] = "todo_reminder"
    todos: list[Any] = field(default_factory=list)
    attempt: int = 1


# --- hookline additions for the Claude events -------------------------------


@dataclass(slots=True, kw_only=True)
class StopEvent(Event):
    type: ClassVar[str] = "stop"
    stop_hook_active: bool = False
    last_message: AssistantMessage | None = None


@dataclass(slots=True, kw_only=True)
class SubagentStartEvent(Event):
    type: ClassVar[str] = "subagent_start"
    agent_id: str
    agent_type: str


@dataclass(slots=True, kw_only=True)
class SubagentStopEvent(Event):
    type: ClassVar[str] = "subagent_stop"
    agent_id: str
    agent_transcript_path: str | None = None
    stop_hook_active: bool = False
    agent_type: str | None = None


@dataclass(slots=True, kw_only=True)
class InstructionsLoadedEvent(Event):
    """A memory file (``CLAUDE.md`` and friends) went into the system prompt.

    ``memory_type``: ``User``, ``Project``, ``Local`` or ``Managed``;
    ``load_reason``: ``session_start``, ``include`` (imported by
    ``parent_file_path``) or ``compact``.
    """

    type: ClassVar[str] = "instructions_loaded"
    file_path: str
    memory_type: str
    load_reason: str
    parent_file_path: str | None = None


@dataclass(slots=True, kw_only=True)
class NotificationEvent(Event):
    type: ClassVar[str] = "notification"
    message: str
    title: str = ""
    notification_type: str = "info"  # e.g. "permission_prompt", "idle_prompt"


@dataclass(slots=True, kw_only=True)
class PermissionRequestEvent(Event):
    type: ClassVar[str] = "permission_request"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    permission_suggestions: list[Any] = field(default_factory=list)


# --- session ---------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class SessionStartEvent(Event):
    type: ClassVar[str] = "session_start"
    source: str = "startup"  # "startup" | "resume" | "clear" | "compact"
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeSwitchEvent(Event):
    type: ClassVar[str] = "session_before_switch"
    reason: str  # "new" | "switch" | "fork" | "clear"
    target_session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionSwitchEvent(Event):
    type: ClassVar[str] = "session_switch"
    reason: str
    previous_session_file: str | None = None
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeBranchEvent(Event):
    type: ClassVar[str] = "session_before_branch"
    target_turn_index: int
    entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBranchEvent(Event):
    type: ClassVar[str] = "session_branch"
    target_turn_index: int
    entry_id: str | None = None
    previous_session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeForkEvent(Event):
    type: ClassVar[str] = "session_before_fork"
    entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionForkEvent(Event):
    type: ClassVar[str] = "session_fork"
    previous_session_file: str | None = None
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeCompactEvent(Event):
    type: ClassVar[str] = "session_before_compact"
    trigger: Literal["manual", "auto"] = "manual"
    custom_instructions: str | None = None
    summary: str = ""  # the default summary hookline would write
    messages: list[Message] = field(default_factory=list)
    tokens_before: int = 0


@dataclass(slots=True, kw_only=True)
class SessionCompactingEvent(Event):
    type: ClassVar[str] = "session.compacting"
    messages: list[Message] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class SessionCompactEvent(Event):
    type: ClassVar[str] = "session_compact"
    summary: str
    first_kept_entry_id: str | None = None
    tokens_before: int = 0
    from_hook: bool = False


@dataclass(slots=True, kw_only=True)
class SessionBeforeTreeEvent(Event):
    type: ClassVar[str] = "session_before_tree"
    target_id: str
    old_leaf_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionTreeEvent(Event):
    type: ClassVar[str] = "session_tree"
    new_leaf_id: str | None
    old_leaf_id: str | None = None
    summary_entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionShutdownEvent(Event):
    type: ClassVar[str] = "session_shutdown"
    reason: str = "exit"  # "exit" | "sigterm" | "clear" | "logout" | "other"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        ToolCallEvent,
        ToolResultEvent,
        ToolExecutionStartEvent,
        ToolExecutionUpdateEvent,
        ToolExecutionEndEvent,
        ContextEvent,
        BeforeAgentStartEvent,
        AgentStartEvent,
        AgentEndEvent,
        TurnStartEvent,
        TurnEndEvent,
        InputEvent,
        UserBashEvent,
        ModelSelectEvent,
        AutoCompactionStartEvent,
        AutoCompactionEndEvent,
        AutoRetryStartEvent,
        AutoRetryEndEvent,
        TtsrTriggeredEvent,
        TodoReminderEvent,
        StopEvent,
        SubagentStartEvent,
        SubagentStopEvent,
        InstructionsLoadedEvent,
        NotificationEvent,
        PermissionRequestEvent,
        SessionStartEvent,
        SessionBeforeSwitchEvent,
        SessionSwitchEvent,
        SessionBeforeBranchEvent,
        SessionBranchEvent,
        SessionBeforeForkEvent,
        SessionForkEvent,
        SessionBeforeCompactEvent,
        SessionCompactingEvent,
        SessionCompactEvent,
        SessionBeforeTreeEvent,
        SessionTreeEvent,
        SessionShutdownEvent,
    )
}

#: Every event name ``on()`` accepts.
EVENT_NAMES: frozenset[str] = frozenset(EVENT_TYPES)
