"""What the agent is doing, as screen state: agent events in, state and blocks to print out.

The app subscribes to the agent's event stream (JSON-ready dicts) and hands
each event to ``Activity.apply``. The activity keeps what the live area
shows (the answer streaming now, the calls running, each with the tail of
its output) and returns what the event finished: the blocks the transcript
prints, in order, and what else to redraw. Nothing here draws or reads the
agent; the app renders what comes back. So it runs, and is tested, without
a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hookline.core.messages import content_text
from hookline.modes.tui import render

#: Events after which the footer's message and token counts are measured again.
SESSION_CHANGES = frozenset(
    {
        "agent_end",
        "session_switch",
        "session_fork",
        "session_tree",
        "session_branch",
        "session_compact",
        "model_select",
    }
)


@dataclass(frozen=True, slots=True)
class SettingsBlock:
    """A settings hook (``.claude/settings.json``) that blocked, as its outcome told it."""

    event: str
    hook_id: str
    hook_type: str
    origin: str
    reason: str

    @classmethod
    def of(cls, payload: dict[str, Any]) -> SettingsBlock | None:
        """The block a ``settings_hook_outcome`` event reports, or ``None`` when it did not
        block (non-blocking errors are notified by the settings hooks themselves)."""
        decided = (
            payload.get("kind") == "blocking"
            or payload.get("permission_decision") == "deny"
            or payload.get("continue_") is False
        )
        if not decided:
            return None
        return cls(
            event=str(payload.get("event")),
            hook_id=str(payload.get("hook_id")),
            hook_type=str(payload.get("hook_type")),
            origin=str(payload.get("origin") or ""),
            reason=str(payload.get("reason") or payload.get("permission_decision_reason") or ""),
        )


class RunningTool:
    """A call on screen while it runs: the tail of its output, never all of it."""

    __slots__ = ("args", "blockers", "details", "lines", "name", "output")

    def __init__(self, name: str, args: Any) -> None:
        self.name = name
        self.args = args
        #: The last lines of output (``render.LIVE_TAIL_LINES``), and how many lines came.
        self.output = ""
        self.lines = 0
        #: The details of the latest partial result (a tool's own renderer reads them).
        self.details: Any = None
        #: The settings hooks (PreToolUse) that blocked this call.
        self.blockers: list[SettingsBlock] = []

    def add_output(self, new: str) -> None:
        """More output (a tool's update carries what is new since the one before)."""
        self.lines += new.count("\n")
        self.output = render.keep_tail(self.output + new, render.LIVE_TAIL_LINES)


@dataclass(frozen=True, slots=True)
class Approval:
    """A call the agent is about to ask you about (its ``permission_request`` event),
    until the call runs or ends: what the dialog's preview shows."""

    call_id: str
    tool_name: str
    args: dict[str, Any]


# -- what an event finished: the blocks the transcript prints ---------------------


@dataclass(frozen=True, slots=True)
class UserText:
    """One of your messages."""

    text: str


@dataclass(frozen=True, slots=True)
class AnswerEnded:
    """The assistant's message, whole; ``stop_reason`` says how it ended."""

    text: str
    stop_reason: str | None


@dataclass(frozen=True, slots=True)
class ToolEnded:
    """A call's result landed (its block says who blocked it, if anyone did)."""

    call_id: str
    tool: RunningTool
    text: str
    is_error: bool
    #: The result's typed details (a tool's own renderer reads them).
    details: Any = None


@dataclass(frozen=True, slots=True)
class CustomShown:
    """A hook's custom message with ``display`` on (its renderer draws it)."""

    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Notice:
    """A line about what happened (a model call retried)."""

    text: str
    kind: str = "info"


@dataclass(frozen=True, slots=True)
class SettingsBlocked:
    """A settings hook blocked something that is not a running call (a prompt, a stop)."""

    block: SettingsBlock


Shown = UserText | AnswerEnded | ToolEnded | CustomShown | Notice | SettingsBlocked


@dataclass(frozen=True, slots=True)
class Update:
    """What one event changed, for the app to draw."""

    #: Blocks to print into the transcript, in order.
    shown: tuple[Shown, ...] = ()
    #: The streaming answer grew: its tail is rendered again (the render redraws when done).
    answer: bool = False
    #: A call started or ended: the live area is drawn now (new output waits for the
    #: spinner's tick, so a flood of output costs ten frames a second).
    calls: bool = False
    #: The session's messages or model changed: the footer's counts are measured again.
    usage: bool = False


_NOTHING = Update()


@dataclass(slots=True)
class Activity:
    """The live state of one session on screen; ``apply`` moves it on by one event."""

    #: The answer streaming now (empty between answers).
    answer: str = ""
    #: Which answer is streaming: a tail rendered for an earlier one is stale.
    answer_number: int = 0
    #: Calls running, by call id, in the order they started.
    running: dict[str, RunningTool] = field(default_factory=dict)
    #: Calls whose execution ended, shown once their result message (and any denial) lands.
    ended: dict[str, RunningTool] = field(default_factory=dict)
    #: The call waiting for its approval, if one is.
    approval: Approval | None = None

    def apply(self, payload: dict[str, Any]) -> Update:
        """Take one agent event (as ``Agent.subscribe`` sends it)."""
        kind = payload.get("type")
        if kind == "text_delta":
            self.answer += str(payload.get("text", ""))
            return Update(answer=True)
        if kind == "message":
            return self.message(payload["message"])
        if kind == "tool_execution_start":
            call_id = str(payload.get("tool_call_id"))
            self.running[call_id] = RunningTool(str(payload.get("tool_name")), payload.get("input"))
            return Update(calls=True)
        if kind == "permission_request":
            args = payload.get("input")
            self.approval = Approval(
                str(payload.get("tool_call_id")),
                str(payload.get("tool_name")),
                args if isinstance(args, dict) else {},
            )
            return Update(calls=True)
        if kind == "tool_execution_update":
            self._settled(str(payload.get("tool_call_id")))
            tool = self.running.get(str(payload.get("tool_call_id")))
            if tool is not None:
                partial = payload.get("partial_result")
                tool.add_output(_partial_text(partial))
                if isinstance(partial, dict):
                    tool.details = partial.get("details")
            return _NOTHING
        if kind == "tool_execution_end":
            call_id = str(payload.get("tool_call_id"))
            self._settled(call_id)
            ended = self.running.pop(call_id, None)
            if ended is not None:
                self.ended[call_id] = ended
            return Update(calls=True)
        if kind == "settings_hook_outcome":
            return self._settings_outcome(payload)
        if kind == "auto_retry_start":
            retry = Notice(
                f"model call failed ({payload.get('error')}); retry {payload.get('attempt')}"
                f"/{payload.get('max_attempts')} in {int(payload.get('delay_ms') or 0)} ms",
                "warning",
            )
            return Update(shown=(retry,))
        if kind == "agent_end":
            self.approval = None
        if kind in SESSION_CHANGES:
            return Update(usage=True)
        return _NOTHING

    def _settled(self, call_id: str) -> None:
        """The call runs or ended: no approval is pending for it any more."""
        if self.approval is not None and self.approval.call_id == call_id:
            self.approval = None

    def message(self, message: dict[str, Any]) -> Update:
        """A message landed (or is replayed after ``/resume``): what it prints."""
        role = message.get("role")
        shown: tuple[Shown, ...] = ()
        if role == "user":
            shown = (UserText(content_text(message["content"])),)
        elif role == "assistant":
            self.answer = ""
            self.answer_number += 1
            text = content_text(message["content"]).strip()
            shown = (AnswerEnded(text, message.get("stop_reason")),)
        elif role == "tool":
            shown = (self._tool_ended(message),)
        elif role == "custom" and message.get("display", True):
            shown = (CustomShown(message),)
        return Update(shown=shown, usage=True)

    def replayed(self, message: dict[str, Any]) -> Update:
        """A message of a resumed conversation: as ``message``, its tool calls remembered
        so each result shows the call it answers (no execution events come for them)."""
        if message.get("role") == "assistant":
            for call in message.get("content") or []:
                if call.get("type") == "tool_call":
                    self.ended[str(call["id"])] = RunningTool(call["name"], call["arguments"])
        return self.message(message)

    def _tool_ended(self, message: dict[str, Any]) -> ToolEnded:
        call_id = str(message.get("tool_call_id"))
        tool = (
            self.ended.pop(call_id, None)
            or self.running.pop(call_id, None)
            or RunningTool(str(message.get("tool_name")), {})
        )
        text = content_text(message.get("content") or [])
        is_error = bool(message.get("is_error"))
        return ToolEnded(call_id, tool, text, is_error, message.get("details"))

    def _settings_outcome(self, payload: dict[str, Any]) -> Update:
        """A settings hook that blocked: on its tool call (PreToolUse), else a block of its own."""
        block = SettingsBlock.of(payload)
        if block is None:
            return _NOTHING
        running = list(self.running.values())
        if block.event == "PreToolUse" and running:
            running[-1].blockers.append(block)  # calls run one at a time: the last started
            return _NOTHING
        return Update(shown=(SettingsBlocked(block),))


def _partial_text(partial: Any) -> str:
    """A tool update's new output: ``{"content": [...], "details": ...}`` or plain text."""
    if isinstance(partial, dict):
        partial = content_text(partial.get("content") or [])
    return partial if isinstance(partial, str) else str(partial or "")
