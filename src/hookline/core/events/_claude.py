"""Events hookline adds for Claude Code's: stop, sub-agents, notifications, permissions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hookline.core.events._base import Event
from hookline.core.messages import AssistantMessage


@dataclass(slots=True, kw_only=True)
class StopEvent(Event):
    """The model answered without tool calls: the run is about to end."""

    type: ClassVar[str] = "stop"
    #: A stop hook already kept this run going.
    stop_hook_active: bool = False
    #: The final assistant message.
    last_message: AssistantMessage | None = None


@dataclass(slots=True, kw_only=True)
class SubagentStartEvent(Event):
    """A sub-agent (an ``agent`` settings hook's helper) starts."""

    type: ClassVar[str] = "subagent_start"
    #: The sub-agent's id.
    agent_id: str
    #: The sub-agent's type.
    agent_type: str


@dataclass(slots=True, kw_only=True)
class SubagentStopEvent(Event):
    """A sub-agent is about to end."""

    type: ClassVar[str] = "subagent_stop"
    #: The sub-agent's id.
    agent_id: str
    #: The sub-agent's own transcript, when it has one.
    agent_transcript_path: str | None = None
    #: A stop hook already kept this sub-agent going.
    stop_hook_active: bool = False
    #: The sub-agent's type.
    agent_type: str = ""
    #: The sub-agent's last assistant message.
    last_message: AssistantMessage | None = None


@dataclass(slots=True, kw_only=True)
class InstructionsLoadedEvent(Event):
    """A memory file (``CLAUDE.md`` and friends) went into the system prompt."""

    type: ClassVar[str] = "instructions_loaded"
    #: The instructions file loaded.
    file_path: str
    #: ``User``, ``Project``, ``Local`` or ``Managed``.
    memory_type: str
    #: ``session_start``, ``include`` (imported by ``parent_file_path``) or ``compact``.
    load_reason: str
    #: The file that imported it (``include``).
    parent_file_path: str | None = None
    #: The file's path globs, when it has any.
    globs: list[str] | None = None
    #: The file whose access loaded it, for a path-scoped rule.
    trigger_file_path: str | None = None


@dataclass(slots=True, kw_only=True)
class NotificationEvent(Event):
    """The agent tells the user something (a permission prompt, idle, a warning).

    ``permission_prompt`` comes only where the prompt is shown: with no UI
    (``-p``, json) the call is denied unannounced.
    """

    type: ClassVar[str] = "notification"
    #: The notification's text.
    message: str
    #: Its title.
    title: str = ""
    #: What it is about, e.g. ``permission_prompt``, ``idle_prompt``.
    notification_type: str = "info"


@dataclass(slots=True, kw_only=True)
class McpNotificationEvent(Event):
    """An MCP server sent a notification: a log message, a list change, progress, its own.

    Fires in the order the server sent them, at any time in the session; for
    ``notifications/tools/list_changed`` the server's tools are listed again first,
    so the model's next turn is offered the new set.
    """

    type: ClassVar[str] = "mcp_notification"
    #: The server's configured name.
    server: str
    #: E.g. ``notifications/message``, ``notifications/tools/list_changed``,
    #: ``notifications/resources/updated``, ``notifications/progress``.
    method: str
    #: The notification's params as JSON; ``None`` when it has none.
    params: dict[str, Any] | None = None


@dataclass(slots=True, kw_only=True)
class PermissionRequestEvent(Event):
    """A tool call needs the user's permission (an ask rule, the mode, a hook's ``ask``).

    Fires before the user is asked; with no UI the call is denied unless a
    handler decides.
    """

    type: ClassVar[str] = "permission_request"
    #: hookline's tool name.
    tool_name: str
    #: The id the model gave the call.
    tool_call_id: str
    #: The tool's arguments, hookline's keys.
    input: dict[str, Any]
    #: The rules the prompt would offer to save (Claude's ``permission_suggestions``).
    permission_suggestions: list[Any] = field(default_factory=list)
