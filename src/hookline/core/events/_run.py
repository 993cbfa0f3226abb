"""Events of a run: the prompt, the agent, its turns, retries and reminders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hookline.core.events._base import Event
from hookline.core.messages import AssistantMessage, Content, Message, ToolResultMessage


@dataclass(slots=True, kw_only=True)
class ContextEvent(Event):
    """Fires before every model call with the messages the model is about to see."""

    type: ClassVar[str] = "context"
    #: The conversation as the model will get it.
    messages: list[Message]


@dataclass(slots=True, kw_only=True)
class BeforeAgentStartEvent(Event):
    """A prompt was accepted and a run is about to start."""

    type: ClassVar[str] = "before_agent_start"
    #: The prompt's text.
    prompt: str = ""
    #: Images sent with the prompt (content blocks).
    images: list[Content] = field(default_factory=list)
    #: The system prompt of this run (the previous handler's, when one replaced it).
    system_prompt: str = ""


@dataclass(slots=True, kw_only=True)
class AgentStartEvent(Event):
    """A run (one prompt and the turns it causes) started."""

    type: ClassVar[str] = "agent_start"


@dataclass(slots=True, kw_only=True)
class AgentEndEvent(Event):
    """The run ended."""

    type: ClassVar[str] = "agent_end"
    #: The messages added during the run.
    messages: list[Message] = field(default_factory=list)
    #: Each tool call that did not run: ``tool_name``, ``tool_call_id``, ``reason``, ``source``, and
    #: ``hint`` with the rule or flag that would allow it.
    denials: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class TurnStartEvent(Event):
    """A turn (one model call and the tool calls it asked for) starts."""

    type: ClassVar[str] = "turn_start"
    #: 0 for the first turn of a run.
    turn_index: int
    #: Seconds since the epoch.
    timestamp: float


@dataclass(slots=True, kw_only=True)
class TurnEndEvent(Event):
    """A turn ended: the model answered and its tool calls ran.

    As in pi, the agent does not wait for its handlers: the next model call goes out
    while a slow handler runs. The notifications after it (``turn_start``,
    ``message_start``, ...) wait behind it; a tool call, ``message_end``,
    ``stop`` and ``agent_end`` wait until it has finished. Settings hooks
    (``PostToolBatch``) are waited for: their output reaches the next call.
    """

    type: ClassVar[str] = "turn_end"
    #: 0 for the first turn of a run.
    turn_index: int
    #: The assistant message of the turn.
    message: AssistantMessage | None = None
    #: The results of the turn's tool calls.
    tool_results: list[ToolResultMessage] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class InputEvent(Event):
    """The user (or an RPC host, print mode, a hook's ``send``) submitted a prompt.

    A plain string returned is the new text.
    """

    type: ClassVar[str] = "input"
    #: The prompt's text.
    text: str
    #: Images sent with the prompt (content blocks).
    images: list[Content] = field(default_factory=list)
    #: Where it came from: ``interactive``, ``rpc``, ``print`` or ``extension``.
    source: str = "interactive"


@dataclass(slots=True, kw_only=True)
class UserBashEvent(Event):
    """The user ran ``!cmd`` (or ``!!cmd``) in the terminal app or over RPC."""

    type: ClassVar[str] = "user_bash"
    #: The command line after ``!``.
    command: str
    #: The directory it runs in.
    cwd: str


@dataclass(slots=True, kw_only=True)
class UserPythonEvent(Event):
    """The user ran Python with ``$code`` (or ``$$code``, kept out of the model's context)
    in the terminal app, as in oh-my-pi.
    """

    type: ClassVar[str] = "user_python"
    #: The Python code after ``$``.
    code: str
    #: The directory it runs in.
    cwd: str
    #: Run with ``$$``: the output is kept out of the model's context.
    exclude_from_context: bool = False


@dataclass(slots=True, kw_only=True)
class ModelSelectEvent(Event):
    """The model changed (``/model``, RPC ``set_model``, or restored with a session)."""

    type: ClassVar[str] = "model_select"
    #: The new model as pi's ``Model`` object (``provider``, ``id``, ``name``, ``api``, ``baseUrl``,
    #: ``contextWindow``, ...).
    model: dict[str, Any]
    #: The new model as hookline's ``provider:id`` string (what ``--model`` and ``ctx.model`` take).
    spec: str
    #: The model before, as pi's ``Model`` object.
    previous_model: dict[str, Any] | None = None
    #: The model before, as a ``provider:id`` string.
    previous_spec: str | None = None
    #: ``set``, ``cycle`` or ``restore``.
    source: str = "set"


@dataclass(slots=True, kw_only=True)
class AutoCompactionStartEvent(Event):
    """The context is near the model's window and an automatic compaction starts."""

    type: ClassVar[str] = "auto_compaction_start"
    #: ``threshold`` or ``overflow``.
    reason: str = "threshold"


@dataclass(slots=True, kw_only=True)
class AutoCompactionEndEvent(Event):
    """An automatic compaction ended."""

    type: ClassVar[str] = "auto_compaction_end"
    #: A hook cancelled it or it was interrupted.
    aborted: bool = False
    #: Why it failed, when it did.
    error: str | None = None
    #: The compaction written (``summary``, ``first_kept_entry_id``, ``tokens_before``); ``None``
    #: when none was.
    result: dict[str, Any] | None = None
    #: The run goes on after it.
    will_retry: bool = False


@dataclass(slots=True, kw_only=True)
class AutoRetryStartEvent(Event):
    """A model call failed with a retryable error; a retry is scheduled."""

    type: ClassVar[str] = "auto_retry_start"
    #: The attempt about to be made (1 for the first retry).
    attempt: int
    #: How many attempts are allowed.
    max_attempts: int
    #: The wait before the retry, in milliseconds.
    delay_ms: int
    #: The error that failed the call.
    error: str


@dataclass(slots=True, kw_only=True)
class AutoRetryEndEvent(Event):
    """The retries of a model call ended."""

    type: ClassVar[str] = "auto_retry_end"
    #: A retry succeeded.
    success: bool
    #: The last attempt made.
    attempt: int
    #: The last error, when every attempt failed.
    final_error: str | None = None


@dataclass(slots=True, kw_only=True)
class TtsrTriggeredEvent(Event):
    """A Time-Traveling Stream Rule matched the model's streamed output: the stream was
    cut, the rules' text injected as a system reminder, and the request retried.
    """

    type: ClassVar[str] = "ttsr_triggered"
    #: The turn whose stream was cut.
    turn_index: int = 0
    #: The names of the rules that fired.
    rules: list[str] = field(default_factory=list)
    #: The pattern that matched.
    pattern: str = ""
    #: The streamed text it matched.
    matched_text: str = ""
    #: The reminder injected.
    text: str = ""


@dataclass(slots=True, kw_only=True)
class EmptyReplyNudgeEvent(Event):
    """The model answered with no text and no tool call; the agent asks it once more."""

    type: ClassVar[str] = "empty_reply_nudge"
    #: The turn of the empty reply.
    turn_index: int = 0
    #: The empty assistant message.
    message: AssistantMessage | None = None


@dataclass(slots=True, kw_only=True)
class TodoReminderEvent(Event):
    """The model wanted to stop with open todo items; the agent reminds it."""

    type: ClassVar[str] = "todo_reminder"
    #: The open todo items.
    todos: list[Any] = field(default_factory=list)
    #: 1 for the first reminder.
    attempt: int = 1
    #: How many reminders are given at most.
    max_attempts: int = 1
