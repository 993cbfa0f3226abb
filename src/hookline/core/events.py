"""Typed events: one class per event name (``EVENT_NAMES``).

Events are slotted dataclasses, not pydantic models: they are built on the
hot path (every tool call) and never parsed from untrusted text. Each class
carries its wire name in ``type``; ``EVENT_TYPES`` maps names to classes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from hookline.core.messages import AssistantMessage, Content, Message, ToolResultMessage


@dataclass(slots=True, kw_only=True)
class Event:
    """Base of every event; ``type`` is the name handlers subscribe to."""

    type: ClassVar[str] = ""

    if not TYPE_CHECKING:  # type checkers keep reporting unknown attributes themselves

        def __getattr__(self, name: str) -> Any:
            """Only reached for a missing attribute: say so, bridging Claude's vocabulary."""
            from hookline.core.vocabulary import claude_field_hint

            raise AttributeError(
                f"{type(self).__name__} ({self.type!r} event) has no attribute {name!r}"
                f"{claude_field_hint(name)}",
                name=name,
                obj=self,
            )

    def to_dict(self) -> dict[str, Any]:
        """The payload as a JSON-ready dict with ``type`` first (json mode, RPC, logs)."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = getattr(self, f.name)
        return out


# --- tools -----------------------------------------------------------------


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


# --- messages and the provider -------------------------------------------------


@dataclass(slots=True, kw_only=True)
class MessageStartEvent(Event):
    """An assistant message starts streaming from the model.

    Payload: ``message`` (the assistant message, empty so far).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "message_start"
    message: AssistantMessage


@dataclass(slots=True, kw_only=True)
class MessageUpdateEvent(Event):
    """A piece of the assistant message arrived while it streams.

    Payload: ``assistant_message_event`` (pi's event: ``text_start``/``text_delta``/
    ``text_end``, ``thinking_*``, ``toolcall_*``, with ``content_index`` and its
    ``delta``, or at the end the whole ``content``/``tool_call``), ``delta`` (its new
    text, ``""`` for a start or end), ``delta_type`` (``text`` | ``thinking`` |
    ``toolcall``), ``message`` (the message so far).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "message_update"
    message: AssistantMessage
    delta: str
    delta_type: str = "text"
    assistant_message_event: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class MessageEndEvent(Event):
    """The assistant message is complete, before it is stored and acted on.

    Payload: ``message`` (the whole assistant message).

    Result: ``MessageEndResult`` (``text`` replaces the message's final text); a
    plain string is the new text.

    Combination: chained: each handler sees the previous rewrite; the last one is kept.
    """

    type: ClassVar[str] = "message_end"
    message: AssistantMessage


@dataclass(slots=True, kw_only=True)
class BeforeProviderRequestEvent(Event):
    """A request is about to be sent to the model provider.

    Payload: ``payload`` (the SDK request arguments, a copy), ``provider``
    (``anthropic``, ``openai`` or ``scripted``).

    Result: ``BeforeProviderRequestResult`` (``payload`` to send instead); a plain
    dict is the new payload.

    Combination: chained: each handler sees the previous replacement; the last one is sent.
    """

    type: ClassVar[str] = "before_provider_request"
    payload: dict[str, Any]
    provider: str = ""


@dataclass(slots=True, kw_only=True)
class AfterProviderResponseEvent(Event):
    """The model provider answered a request (before its stream is read).

    Payload: ``status`` (HTTP status), ``headers`` (response headers),
    ``request_id``, ``provider``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "after_provider_response"
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    request_id: str | None = None
    provider: str = ""


# --- agent -----------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class ContextEvent(Event):
    """Fires before every model call with the messages the model is about to see.

    Payload: ``messages`` (the conversation as the model will get it).

    Result: ``ContextResult`` (``messages``: the list to send instead).

    Combination: chained: each handler gets the previous handler's list (no
    copy); the result is shape-checked once at the end, a bad message blamed on
    the hook that brought it in.

    Example: ``return {"messages": [m for m in event.messages if keep(m)]}``.
    """

    type: ClassVar[str] = "context"
    messages: list[Message]


@dataclass(slots=True, kw_only=True)
class BeforeAgentStartEvent(Event):
    """A prompt was accepted and a run is about to start.

    Payload: ``prompt``, ``images``, ``system_prompt``.

    Result: ``BeforeAgentStartResult`` (``message``: a message to add to
    the conversation before the prompt).

    Combination: every handler runs; the first returned message is kept.
    """

    type: ClassVar[str] = "before_agent_start"
    prompt: str = ""
    images: list[Content] = field(default_factory=list)
    system_prompt: str = ""


@dataclass(slots=True, kw_only=True)
class AgentStartEvent(Event):
    """A run (one prompt and the turns it causes) started.

    Payload: none.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "agent_start"


@dataclass(slots=True, kw_only=True)
class AgentEndEvent(Event):
    """The run ended.

    Payload: ``messages`` (those added during the run), ``denials`` (each tool
    call that did not run: ``tool_name``, ``tool_call_id``, ``reason``,
    ``source``, ``hint`` with the rule or flag that would allow it).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "agent_end"
    messages: list[Message] = field(default_factory=list)
    denials: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class TurnStartEvent(Event):
    """A turn (one model call and the tool calls it asked for) starts.

    Payload: ``turn_index`` (0 for the first turn of a run), ``timestamp`` (seconds
    since the epoch).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "turn_start"
    turn_index: int
    timestamp: float


@dataclass(slots=True, kw_only=True)
class TurnEndEvent(Event):
    """A turn ended: the model answered and its tool calls ran.

    Payload: ``turn_index``, ``message`` (the assistant message), ``tool_results``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "turn_end"
    turn_index: int
    message: AssistantMessage | None = None
    tool_results: list[ToolResultMessage] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class InputEvent(Event):
    """The user (or an RPC host, print mode, a hook's ``send``) submitted a prompt.

    Payload: ``text``, ``images``, ``source`` (``interactive``, ``rpc``,
    ``print`` or ``extension``).

    Result: ``InputResult`` (``text`` / ``images`` replace the prompt;
    ``handled`` stops it: the model never sees it). A plain string is the new text.

    Combination: chained transforms: each handler sees the previous handler's
    text; ``handled`` stops the chain. Claude's name: ``UserPromptSubmit``.
    """

    type: ClassVar[str] = "input"
    text: str
    images: list[Content] = field(default_factory=list)
    source: str = "interactive"  # "interactive" | "rpc" | "print" | "extension"


@dataclass(slots=True, kw_only=True)
class UserBashEvent(Event):
    """The user ran ``!cmd`` (or ``!!cmd``) in the terminal app or over RPC.

    Payload: ``command``, ``cwd``.

    Result: ``UserBashResult`` (``command``, ``cwd``, ``env`` to run instead).

    Combination: chained: each handler sees the previous rewrite; the last ``env`` wins.
    """

    type: ClassVar[str] = "user_bash"
    command: str
    cwd: str


@dataclass(slots=True, kw_only=True)
class ModelSelectEvent(Event):
    """The model changed (``/model``, RPC ``set_model``, or restored with a session).

    Payload: ``model``, ``previous_model``, ``source`` (``set``, ``cycle`` or ``restore``).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "model_select"
    model: str
    previous_model: str | None = None
    source: str = "set"  # "set" | "cycle" | "restore"


@dataclass(slots=True, kw_only=True)
class AutoCompactionStartEvent(Event):
    """The context is near the model's window and an automatic compaction starts.

    Payload: ``reason`` (``threshold`` or ``overflow``).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "auto_compaction_start"
    reason: str = "threshold"  # "threshold" | "overflow"


@dataclass(slots=True, kw_only=True)
class AutoCompactionEndEvent(Event):
    """An automatic compaction ended.

    Payload: ``aborted`` (a hook cancelled it or it was interrupted), ``error``,
    ``result`` (the compaction written: ``summary``, ``first_kept_entry_id``,
    ``tokens_before``; None when none was), ``will_retry`` (the run goes on after it).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "auto_compaction_end"
    aborted: bool = False
    error: str | None = None
    result: dict[str, Any] | None = None
    will_retry: bool = False


@dataclass(slots=True, kw_only=True)
class AutoRetryStartEvent(Event):
    """A model call failed with a retryable error; a retry is scheduled.

    Payload: ``attempt``, ``max_attempts``, ``delay_ms``, ``error``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "auto_retry_start"
    attempt: int
    max_attempts: int
    delay_ms: int
    error: str


@dataclass(slots=True, kw_only=True)
class AutoRetryEndEvent(Event):
    """The retries of a model call ended.

    Payload: ``success``, ``attempt``, ``final_error`` (when every attempt failed).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "auto_retry_end"
    success: bool
    attempt: int
    final_error: str | None = None


@dataclass(slots=True, kw_only=True)
class TtsrTriggeredEvent(Event):
    """A Time-Traveling Stream Rule matched the model's streamed output: the stream was
    cut, the rules' text injected as a system reminder, and the request retried.

    Payload: ``rules`` (the names that fired), ``pattern``, ``matched_text``, ``text``
    (the reminder injected), ``turn_index``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "ttsr_triggered"
    turn_index: int = 0
    rules: list[str] = field(default_factory=list)
    pattern: str = ""
    matched_text: str = ""
    text: str = ""


@dataclass(slots=True, kw_only=True)
class EmptyReplyNudgeEvent(Event):
    """The model answered with no text and no tool call; the agent asks it once more.

    Payload: ``turn_index``, ``message`` (the empty assistant message).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "empty_reply_nudge"
    turn_index: int = 0
    message: AssistantMessage | None = None


@dataclass(slots=True, kw_only=True)
class TodoReminderEvent(Event):
    """The model wanted to stop with open todo items; the agent reminds it.

    Payload: ``todos`` (the open items), ``attempt`` (1 for the first reminder),
    ``max_attempts``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "todo_reminder"
    todos: list[Any] = field(default_factory=list)
    attempt: int = 1
    max_attempts: int = 1


# --- hookline additions for the Claude events -------------------------------


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
    ``permission_prompt``, ``idle_prompt``).

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


# --- session ---------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class SessionStartEvent(Event):
    """A session was opened: at start-up, on resume, after ``/new`` (clear) or a compaction.

    Payload: ``source`` (``startup``, ``resume``, ``clear``, ``compact``), ``session_file``.

    Result: none (a notification). Claude's name: ``SessionStart``.

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_start"
    source: str = "startup"  # "startup" | "resume" | "clear" | "compact"
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeSwitchEvent(Event):
    """The session is about to be replaced (``/new``, ``/resume``, RPC ``switch_session``).

    Payload: ``reason`` (``new``, ``switch``, ``fork``, ``clear``), ``target_session_file``.

    Result: ``SessionBeforeSwitchResult`` (``cancel``).

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the switch.
    """

    type: ClassVar[str] = "session_before_switch"
    reason: str  # "new" | "switch" | "fork" | "clear"
    target_session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionSwitchEvent(Event):
    """The session was replaced.

    Payload: ``reason``, ``previous_session_file``, ``session_file``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_switch"
    reason: str
    previous_session_file: str | None = None
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeBranchEvent(Event):
    """The conversation is about to be branched at an earlier turn (``/branch``).

    Payload: ``target_turn_index``, ``entry_id``.

    Result: ``SessionBeforeBranchResult`` (``cancel``, ``skip_conversation_restore``).

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the branch.
    """

    type: ClassVar[str] = "session_before_branch"
    target_turn_index: int
    entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBranchEvent(Event):
    """The conversation was branched.

    Payload: ``target_turn_index``, ``entry_id``, ``previous_session_file``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_branch"
    target_turn_index: int
    entry_id: str | None = None
    previous_session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeForkEvent(Event):
    """The session is about to be forked into a new file (``/fork``).

    Payload: ``entry_id`` (where the fork starts).

    Result: ``SessionBeforeForkResult`` (``cancel``).

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the fork.
    """

    type: ClassVar[str] = "session_before_fork"
    entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionForkEvent(Event):
    """The session was forked.

    Payload: ``previous_session_file``, ``session_file``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_fork"
    previous_session_file: str | None = None
    session_file: str | None = None


@dataclass(slots=True, kw_only=True)
class CompactionPreparation:
    """What a compaction would do: summarise ``messages_to_summarize`` (after
    ``previous_summary``, the last compaction's), keep from ``first_kept_entry_id`` on."""

    first_kept_entry_id: str | None = None
    previous_summary: str | None = None
    messages_to_summarize: list[Message] = field(default_factory=list)
    entry_ids_to_summarize: list[str] = field(default_factory=list)
    tokens_before: int = 0


@dataclass(slots=True, kw_only=True)
class SessionBeforeCompactEvent(Event):
    """A compaction (``/compact`` or automatic) is about to summarise older messages.

    Payload: ``trigger`` (``manual`` or ``auto``), ``custom_instructions``,
    ``summary`` (the summary hookline would write), ``messages`` (those to be
    summarised), ``tokens_before``, ``preparation`` (``first_kept_entry_id``,
    ``previous_summary``, ``messages_to_summarize``, ``entry_ids_to_summarize``),
    ``signal`` (set when the compaction is aborted with ``ctx.abort()``: slow work
    should stop; the compaction is then not applied).

    Result: ``SessionBeforeCompactResult`` (``cancel``, or ``compaction``
    with your own summary). A plain string is a custom summary. Claude's name: ``PreCompact``.

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the compaction.
    """

    type: ClassVar[str] = "session_before_compact"
    trigger: Literal["manual", "auto"] = "manual"
    custom_instructions: str | None = None
    summary: str = ""  # the default summary hookline would write
    messages: list[Message] = field(default_factory=list)
    tokens_before: int = 0
    preparation: CompactionPreparation = field(default_factory=CompactionPreparation)
    signal: Any = None


@dataclass(slots=True, kw_only=True)
class SessionCompactingEvent(Event):
    """A compaction is building its summary request.

    Payload: ``messages`` (those being summarised).

    Result: ``SessionCompactingResult`` (``context`` lines to keep,
    ``prompt`` for the summary, ``preserve_data``).

    Combination: every handler runs; the latest result wins.
    """

    type: ClassVar[str] = "session.compacting"
    messages: list[Message] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class SessionCompactEvent(Event):
    """A compaction was written to the session.

    Payload: ``summary``, ``trigger`` (``manual`` or ``auto``), ``first_kept_entry_id``,
    ``tokens_before``, ``from_hook`` (a hook supplied the summary).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_compact"
    summary: str
    trigger: Literal["manual", "auto"] = "manual"
    first_kept_entry_id: str | None = None
    tokens_before: int = 0
    from_hook: bool = False


@dataclass(slots=True, kw_only=True)
class TreePreparation:
    """A tree move: the branch left (``entry_ids_to_summarize``, after the common ancestor)
    and the summary options the user chose."""

    target_id: str
    old_leaf_id: str | None = None
    common_ancestor_id: str | None = None
    entry_ids_to_summarize: list[str] = field(default_factory=list)
    user_wants_summary: bool = False
    custom_instructions: str | None = None
    replace_instructions: bool = False
    label: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionBeforeTreeEvent(Event):
    """The session's leaf is about to move to another entry (``/tree``).

    Payload: ``target_id``, ``old_leaf_id``, ``preparation`` (``common_ancestor_id``,
    ``entry_ids_to_summarize``, the summary options and ``label``), ``signal`` (set when
    the move is aborted).

    Result: ``SessionBeforeTreeResult`` (``cancel``, or ``summary`` of the
    branch being left).

    Combination: the latest result is kept; ``cancel: true`` stops the chain and the move.
    """

    type: ClassVar[str] = "session_before_tree"
    target_id: str
    old_leaf_id: str | None = None
    preparation: TreePreparation | None = None
    signal: Any = None


@dataclass(slots=True, kw_only=True)
class SessionTreeEvent(Event):
    """The session's leaf moved.

    Payload: ``new_leaf_id``, ``old_leaf_id``, ``summary_entry_id``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "session_tree"
    new_leaf_id: str | None
    old_leaf_id: str | None = None
    summary_entry_id: str | None = None


@dataclass(slots=True, kw_only=True)
class SessionShutdownEvent(Event):
    """The agent is shutting down (exit, a signal, ``/new``): always fires on the way out.

    Payload: ``reason`` (``exit``, ``sigterm``, ``sigint``, ``clear``, ``logout``, ``other``).

    Result: none (a notification). Claude's name: ``SessionEnd``.

    Combination: every handler runs; failures are reported, the chain goes on.
    """

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
        EmptyReplyNudgeEvent,
        TodoReminderEvent,
        MessageStartEvent,
        MessageUpdateEvent,
        MessageEndEvent,
        BeforeProviderRequestEvent,
        AfterProviderResponseEvent,
        StopEvent,
        SubagentStartEvent,
        SubagentStopEvent,
        InstructionsLoadedEvent,
        NotificationEvent,
        McpNotificationEvent,
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
