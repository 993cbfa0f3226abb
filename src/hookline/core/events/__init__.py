"""Typed events: one class per event name (``EVENT_NAMES``).

Events are slotted dataclasses, not pydantic models: they are built on the
hot path (every tool call) and never parsed from untrusted text. Each class
carries its wire name in ``type``; ``EVENT_TYPES`` maps names to classes.

The classes live in one module per family and load on first use: a process
that answers one Claude Code ``PreToolUse`` (``hookline claude-hook``) builds
the five tool events, not all 46 (a dataclass costs about half a
millisecond to create).
"""

from typing import TYPE_CHECKING

from hookline._lazy import lazy_exports

if TYPE_CHECKING:
    from hookline.core.events._base import Event
    from hookline.core.events._claude import (
        InstructionsLoadedEvent,
        McpNotificationEvent,
        NotificationEvent,
        PermissionRequestEvent,
        StopEvent,
        SubagentStartEvent,
        SubagentStopEvent,
    )
    from hookline.core.events._model import (
        AfterProviderResponseEvent,
        BeforeProviderRequestEvent,
        MessageEndEvent,
        MessageStartEvent,
        MessageUpdateEvent,
    )
    from hookline.core.events._names import EVENT_NAMES
    from hookline.core.events._run import (
        AgentEndEvent,
        AgentStartEvent,
        AutoCompactionEndEvent,
        AutoCompactionStartEvent,
        AutoRetryEndEvent,
        AutoRetryStartEvent,
        BeforeAgentStartEvent,
        ContextEvent,
        EmptyReplyNudgeEvent,
        InputEvent,
        ModelSelectEvent,
        TodoReminderEvent,
        TtsrTriggeredEvent,
        TurnEndEvent,
        TurnStartEvent,
        UserBashEvent,
        UserPythonEvent,
    )
    from hookline.core.events._session import (
        CompactionPreparation,
        ResourcesDiscoverEvent,
        SessionBeforeBranchEvent,
        SessionBeforeCompactEvent,
        SessionBeforeForkEvent,
        SessionBeforeSwitchEvent,
        SessionBeforeTreeEvent,
        SessionBranchEvent,
        SessionCompactEvent,
        SessionCompactingEvent,
        SessionForkEvent,
        SessionShutdownEvent,
        SessionStartEvent,
        SessionSwitchEvent,
        SessionTreeEvent,
        TreePreparation,
    )
    from hookline.core.events._tools import (
        ToolCallEvent,
        ToolExecutionEndEvent,
        ToolExecutionStartEvent,
        ToolExecutionUpdateEvent,
        ToolResultEvent,
    )
    from hookline.core.events._types import EVENT_TYPES

__all__ = [
    "EVENT_NAMES",
    "EVENT_TYPES",
    "AfterProviderResponseEvent",
    "AgentEndEvent",
    "AgentStartEvent",
    "AutoCompactionEndEvent",
    "AutoCompactionStartEvent",
    "AutoRetryEndEvent",
    "AutoRetryStartEvent",
    "BeforeAgentStartEvent",
    "BeforeProviderRequestEvent",
    "CompactionPreparation",
    "ContextEvent",
    "EmptyReplyNudgeEvent",
    "Event",
    "InputEvent",
    "InstructionsLoadedEvent",
    "McpNotificationEvent",
    "MessageEndEvent",
    "MessageStartEvent",
    "MessageUpdateEvent",
    "ModelSelectEvent",
    "NotificationEvent",
    "PermissionRequestEvent",
    "ResourcesDiscoverEvent",
    "SessionBeforeBranchEvent",
    "SessionBeforeCompactEvent",
    "SessionBeforeForkEvent",
    "SessionBeforeSwitchEvent",
    "SessionBeforeTreeEvent",
    "SessionBranchEvent",
    "SessionCompactEvent",
    "SessionCompactingEvent",
    "SessionForkEvent",
    "SessionShutdownEvent",
    "SessionStartEvent",
    "SessionSwitchEvent",
    "SessionTreeEvent",
    "StopEvent",
    "SubagentStartEvent",
    "SubagentStopEvent",
    "TodoReminderEvent",
    "ToolCallEvent",
    "ToolExecutionEndEvent",
    "ToolExecutionStartEvent",
    "ToolExecutionUpdateEvent",
    "ToolResultEvent",
    "TreePreparation",
    "TtsrTriggeredEvent",
    "TurnEndEvent",
    "TurnStartEvent",
    "UserBashEvent",
    "UserPythonEvent",
]

_EXPORTS: dict[str, str] = {
    "Event": "hookline.core.events._base",
    "EVENT_NAMES": "hookline.core.events._names",
    "EVENT_TYPES": "hookline.core.events._types",
    "ToolCallEvent": "hookline.core.events._tools",
    "ToolResultEvent": "hookline.core.events._tools",
    "ToolExecutionStartEvent": "hookline.core.events._tools",
    "ToolExecutionUpdateEvent": "hookline.core.events._tools",
    "ToolExecutionEndEvent": "hookline.core.events._tools",
    "ContextEvent": "hookline.core.events._run",
    "BeforeAgentStartEvent": "hookline.core.events._run",
    "AgentStartEvent": "hookline.core.events._run",
    "AgentEndEvent": "hookline.core.events._run",
    "TurnStartEvent": "hookline.core.events._run",
    "TurnEndEvent": "hookline.core.events._run",
    "InputEvent": "hookline.core.events._run",
    "UserBashEvent": "hookline.core.events._run",
    "UserPythonEvent": "hookline.core.events._run",
    "ModelSelectEvent": "hookline.core.events._run",
    "AutoCompactionStartEvent": "hookline.core.events._run",
    "AutoCompactionEndEvent": "hookline.core.events._run",
    "AutoRetryStartEvent": "hookline.core.events._run",
    "AutoRetryEndEvent": "hookline.core.events._run",
    "TtsrTriggeredEvent": "hookline.core.events._run",
    "EmptyReplyNudgeEvent": "hookline.core.events._run",
    "TodoReminderEvent": "hookline.core.events._run",
    "MessageStartEvent": "hookline.core.events._model",
    "MessageUpdateEvent": "hookline.core.events._model",
    "MessageEndEvent": "hookline.core.events._model",
    "BeforeProviderRequestEvent": "hookline.core.events._model",
    "AfterProviderResponseEvent": "hookline.core.events._model",
    "StopEvent": "hookline.core.events._claude",
    "SubagentStartEvent": "hookline.core.events._claude",
    "SubagentStopEvent": "hookline.core.events._claude",
    "InstructionsLoadedEvent": "hookline.core.events._claude",
    "NotificationEvent": "hookline.core.events._claude",
    "McpNotificationEvent": "hookline.core.events._claude",
    "PermissionRequestEvent": "hookline.core.events._claude",
    "SessionStartEvent": "hookline.core.events._session",
    "ResourcesDiscoverEvent": "hookline.core.events._session",
    "SessionBeforeSwitchEvent": "hookline.core.events._session",
    "SessionSwitchEvent": "hookline.core.events._session",
    "SessionBeforeBranchEvent": "hookline.core.events._session",
    "SessionBranchEvent": "hookline.core.events._session",
    "SessionBeforeForkEvent": "hookline.core.events._session",
    "SessionForkEvent": "hookline.core.events._session",
    "SessionBeforeCompactEvent": "hookline.core.events._session",
    "SessionCompactingEvent": "hookline.core.events._session",
    "SessionCompactEvent": "hookline.core.events._session",
    "SessionBeforeTreeEvent": "hookline.core.events._session",
    "SessionTreeEvent": "hookline.core.events._session",
    "SessionShutdownEvent": "hookline.core.events._session",
    "CompactionPreparation": "hookline.core.events._session",
    "TreePreparation": "hookline.core.events._session",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
