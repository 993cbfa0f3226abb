"""Events of a run: the prompt, the agent, its turns, retries and reminders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hookline.core.events._base import Event
from hookline.core.messages import AssistantMessage, Content, Message, ToolResultMessage


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
    As in pi, the agent does not wait for them: the next model call goes out
    while a slow handler runs. The notifications after it (``turn_start``,
    ``message_start``, ...) wait behind it; a tool call, ``message_end``,
    ``stop`` and ``agent_end`` wait until it has finished. Settings hooks
    (``PostToolBatch``) are waited for: their output reaches the next call.
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
class UserPythonEvent(Event):
    """The user ran Python with ``$code`` (or ``$$code``, kept out of the model's context)
    in the terminal app, as in oh-my-pi.

    Payload: ``code``, ``cwd``, ``exclude_from_context`` (``$$``).

    Result: ``UserPythonResult`` (``code``, ``cwd``, ``env`` to run instead, or the
    ``result`` in full: nothing runs then).

    Combination: chained: each handler sees the previous rewrite; the last ``env`` wins.
    """

    type: ClassVar[str] = "user_python"
    code: str
    cwd: str
    exclude_from_context: bool = False


@dataclass(slots=True, kw_only=True)
class ModelSelectEvent(Event):
    """The model changed (``/model``, RPC ``set_model``, or restored with a session).

    Payload: ``model`` and ``previous_model`` as pi's ``Model`` objects (``provider``,
    ``id``, ``name``, ``api``, ``baseUrl``, ``contextWindow``, ...); ``spec`` and
    ``previous_spec``, the same models as hookline's ``provider:id`` strings (what
    ``--model`` and ``ctx.model`` take); ``source`` (``set``, ``cycle`` or ``restore``).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "model_select"
    model: dict[str, Any]
    spec: str
    previous_model: dict[str, Any] | None = None
    previous_spec: str | None = None
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
