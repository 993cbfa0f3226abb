"""Events hookline adds for Claude Code's: stop, sub-agents, notifications, permissions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hookline.core.events._base import Event
from hookline.core.messages import AssistantMessage


@dataclass(slots=True, kw_only=True)
class StopEvent(Event):
    """The model answered without tool calls: the run is about to end.

    Payload: ``stop_hook_active`` (true when a stop hook already kept this run
    going), ``last_message`` (the final assistant message).

    Result: ``StopResult`` (``block`` keeps the agent going with ``reason``
    as the next prompt). Claude's name: ``Stop``.

    Combination: handlers run in order; the first ``block`` wins and stops the chain.
    """

    type: ClassVar[str] = "stop"
    stop_hook_active: bool = False
    last_message: AssistantMessage | None = None


@dataclass(slots=True, kw_only=True)
class SubagentStartEvent(Event):
    """A sub-agent (an ``agent`` settings hook's helper) starts.

    Payload: ``agent_id``, ``agent_type``.

    Result: none (a notification). Claude's name: ``SubagentStart``.

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "subagent_start"
    agent_id: str
    agent_type: str


@dataclass(slots=True, kw_only=True)
class SubagentStopEvent(Event):
    """A sub-agent is about to end.

    Payload: ``agent_id``, ``agent_type``, ``agent_transcript_path``,
    ``stop_hook_active``, ``last_message`` (the sub-agent's last assistant message).

    Result: ``StopResult`` (``block`` keeps the sub-agent going). Claude's name:
    ``SubagentStop``.

    Combination: handlers run in order; the first ``block`` wins and stops the chain.
    """

    type: ClassVar[str] = "subagent_stop"
    agent_id: str
    agent_transcript_path: str | None = None
    stop_hook_active: bool = False
    agent_type: str = ""
    last_message: AssistantMessage | None = None


@dataclass(slots=True, kw_only=True)
class InstructionsLoadedEvent(Event):
    """A memory file (``CLAUDE.md`` and friends) went into the system prompt.

    Payload: ``file_path``, ``memory_type`` (``User``, ``Project``, ``Local`` or
    ``Managed``), ``load_reason`` (``session_start``, ``include`` (imported by
    ``parent_file_path``) or ``compact``), ``parent_file_path``, ``globs`` (the
    file's path globs, when it has any), ``trigger_file_path`` (the file whose
    access loaded it, for a path-scoped rule).

    Result: none (a notification). Claude's name: ``InstructionsLoaded``.

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "instructions_loaded"
    file_path: str
    memory_type: str
    load_reason: str
    parent_file_path: str | None = None
    globs: list[str] | None = None
    trigger_file_path: str | None = None


@dataclass(slots=True, kw_only=True)
class NotificationEvent(Event):
    """The agent tells the user something (a permission prompt, idle, a warning).

    Payload: ``message``, ``title``, ``notification_type`` (e.g.
    ``permission_prompt``, ``idle_prompt``). ``permission_prompt`` comes only
    where the prompt is shown: with no UI (``-p``, json) the call is denied unannounced.

    Result: none (a notification). Claude's name: ``Notification``.

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "notification"
    message: str
    title: str = ""
    notification_type: str = "info"  # e.g. "permission_prompt", "idle_prompt"


@dataclass(slots=True, kw_only=True)
class McpNotificationEvent(Event):
    """An MCP server sent a notification: a log message, a list change, progress, its own.

    Payload: ``server`` (the server's configured name), ``method`` (e.g.
    ``notifications/message``, ``notifications/tools/list_changed``,
    ``notifications/resources/updated``, ``notifications/progress``) and
    ``params`` (the notification's params as JSON, ``None`` when it has none).
    Fires in the order the server sent them, at any time in the session; for
    ``notifications/tools/list_changed`` the server's tools are listed again
    first, so the model's next turn is offered the new set.

    Result: none (a notification). oh-my-pi's ``mcp_notification``.

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "mcp_notification"
    server: str
    method: str
    params: dict[str, Any] | None = None


@dataclass(slots=True, kw_only=True)
class PermissionRequestEvent(Event):
    """A tool call needs the user's permission (an ask rule, the mode, a hook's ``ask``).

    Fires before the user is asked; with no UI the call is denied unless a
    handler decides.

    Payload: ``tool_name``, ``tool_call_id``, ``input``, ``permission_suggestions``.

    Result: ``PermissionRequestResult`` (``decision`` allow / deny / ask,
    ``reason``, ``input``: a rewrite, checked against the rules again).

    Combination: handlers run in order; the first ``decision`` wins. Claude's
    name: ``PermissionRequest``.
    """

    type: ClassVar[str] = "permission_request"
    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    permission_suggestions: list[Any] = field(default_factory=list)
