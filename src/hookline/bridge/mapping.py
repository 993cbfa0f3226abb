"""Claude Code hook input → a hookline event; the hooks' result → Claude Code's answer.

The reverse of ``hookline.claude``: there Claude-style settings hooks run
inside hookline; here hookline's Python hook modules run inside Claude Code
(or any agent speaking its hook format: OpenHands, Goose).

=====================  =======================  ===========================================
Claude event           hookline event           answer
=====================  =======================  ===========================================
PreToolUse             tool_call                block → ``permissionDecision: deny``;
                                                ``input`` → ``updatedInput`` (Claude keys);
                                                ``permission`` → ``permissionDecision``
PermissionRequest      permission_request       ``decision`` → ``{behavior, message,
                                                updatedInput}``
PostToolUse            tool_result              ``content`` → ``updatedToolOutput``;
                                                ``is_error`` → ``decision: block``;
                                                ``append`` → ``additionalContext``
UserPromptSubmit       input                    ``handled`` → ``decision: block``
Stop / SubagentStop    stop / subagent_stop     block → ``decision: block`` + reason
SessionStart           session_start            notification
SessionEnd             session_shutdown         notification
SubagentStart          subagent_start           notification
Notification           notification             notification
PreCompact             session_before_compact   ``cancel`` → ``decision: block``
=====================  =======================  ===========================================

Text a hook sends with ``pi.send_message`` while handling the event becomes
``additionalContext`` (PreToolUse, PostToolUse, UserPromptSubmit,
SessionStart): a ``session_start`` hook can brief the model.

Other events are answered with exit 0 and nothing: they have no moment in
hookline's vocabulary. Anything the bridge itself cannot do (bad input JSON,
a hook module that failed to load) fails closed where Claude can block
(``PreToolUse``, ``PermissionRequest``: deny) and is a non-blocking error
(exit 1, shown to the user) elsewhere — a failed Stop hook must not keep
the agent running.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from hookline.claude.names import from_claude_input, from_claude_tool_name, to_claude_input
from hookline.core import events
from hookline.core.events import Event
from hookline.core.vocabulary import HOOKLINE_EVENT_NAMES

if TYPE_CHECKING:
    from hookline.core.events import (
        InputEvent,
        PermissionRequestEvent,
        ToolCallEvent,
        ToolResultEvent,
    )
from hookline.core.messages import Content

#: Events where a failure of the bridge itself denies (fail closed).
FAIL_CLOSED = frozenset({"PreToolUse", "PermissionRequest"})

#: Claude's SessionEnd reasons in hookline's ``session_shutdown`` vocabulary.
_END_REASONS = {"prompt_input_exit": "quit", "clear": "clear", "logout": "logout"}


class BridgeInputError(ValueError):
    """Hook input that is not Claude Code's format; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class ClaudeAnswer:
    """What a command hook answers: exit code, stdout (JSON or empty), stderr.

    An ``http`` hook sends ``output`` as the response body; the exit code has
    no place there, so a blocking answer always carries its decision JSON.
    """

    exit_code: int = 0
    output: Mapping[str, Any] = field(default_factory=dict)
    stderr: str = ""

    @property
    def stdout(self) -> str:
        return json.dumps(self.output, allow_nan=False) if self.output else ""  # strict JSON


def claude_event_name(payload: Mapping[str, Any]) -> str:
    """``hook_event_name`` of a hook input; a clear error when it is missing."""
    name = payload.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise BridgeInputError(
            "hook input has no `hook_event_name`: expected Claude Code's hook input JSON "
            '(e.g. {"hook_event_name": "PreToolUse", "tool_name": "Bash", ...})'
        )
    return name


#: Hook inputs larger than this are refused (denied): Claude's are a few KB.
MAX_INPUT = 8 * 1024 * 1024


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_input(text: str | bytes) -> dict[str, Any]:
    """The hook input JSON object; ``BridgeInputError`` for anything else.

    Strict JSON only: nesting too deep for the parser, ``NaN``/``Infinity``,
    invalid UTF-8 and lone surrogates are refused here, so no hook (and no
    answer) ever meets them.
    """
    if len(text) > MAX_INPUT:
        raise BridgeInputError(f"hook input is larger than {MAX_INPUT} bytes")
    try:
        payload = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BridgeInputError("hook input is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise BridgeInputError(f"hook input is not JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise BridgeInputError(f"hook input is a JSON {type(payload).__name__}, not an object")
    if b"\\u" in (text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text):
        _refuse_lone_surrogates(payload)
    claude_event_name(payload)
    return payload


def _refuse_lone_surrogates(payload: dict[str, Any]) -> None:
    """A ``\\ud800`` escape without its pair is no text: refused, not passed on."""
    try:
        json.dumps(payload, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BridgeInputError("hook input has a lone surrogate (not UTF-8 text)") from None
    except (RecursionError, ValueError):
        raise BridgeInputError("hook input is nested too deeply") from None


def failure_answer(claude_event: str, reason: str) -> ClaudeAnswer:
    """The bridge could not run the hooks: deny where Claude can block, else warn."""
    message = f"hookline claude-hook: {reason}"
    if claude_event in FAIL_CLOSED:
        # Exit 2 blocks even in an agent that does not read the decision JSON.
        denial = _deny(claude_event, message, message)
        return ClaudeAnswer(2, denial.output, message)
    return ClaudeAnswer(1, {}, message)


def input_failure(raw: str | bytes, reason: str) -> ClaudeAnswer:
    """The answer to hook input that could not be read: ``failure_answer`` for its event
    when the text names exactly one ``hook_event_name``, else ``unknown_event_answer``.

    A tool input may hold a key of that name too (the model chooses it), so two are
    no answer: Claude Code always sends its own.
    """
    import re

    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    found = re.findall(rb'"hook_event_name"\s*:\s*"([A-Za-z]{1,64})"', data[:MAX_INPUT])
    if len(found) == 1:
        return failure_answer(found[0].decode("ascii"), reason)
    return unknown_event_answer(reason)


def unknown_event_answer(reason: str) -> ClaudeAnswer:
    """Fail closed when the event is unknown: a ``PreToolUse`` deny as JSON with exit 0.

    Claude Code reads the JSON at exit 0 and denies a ``PreToolUse``; on any other event
    it ignores a ``hookSpecificOutput`` that names ``PreToolUse`` (exit 2 would block a
    prompt or keep a ``Stop`` running).
    """
    message = f"hookline claude-hook: {reason}"
    return ClaudeAnswer(0, _deny("PreToolUse", message).output, message)


# -- input → event --------------------------------------------------------------------


def _str(payload: Mapping[str, Any], key: str, default: str = "") -> str:
    value = payload.get(key, default)
    if not isinstance(value, str):
        raise BridgeInputError(f"hook input `{key}` must be a string, got {type(value).__name__}")
    return value


def _dict(payload: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = payload.get(key, {})
    if not isinstance(value, dict):
        raise BridgeInputError(f"hook input `{key}` must be an object, got {type(value).__name__}")
    return value


def _tool(payload: Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """(hookline tool name, call id, input in hookline's keys)."""
    name = from_claude_tool_name(_str(payload, "tool_name"))
    if not name:
        raise BridgeInputError("hook input has no `tool_name`")
    return name, _str(payload, "tool_use_id"), from_claude_input(name, _dict(payload, "tool_input"))


def response_text(tool: str, response: Any) -> str:
    """The text a Claude ``tool_response`` stands for (what hookline's tools return)."""
    if isinstance(response, str):
        return response
    if not isinstance(response, dict):
        return json.dumps(response)
    if tool == "bash" and isinstance(response.get("stdout"), str):
        err = response.get("stderr")
        return str(response["stdout"]) + (f"\n{err}" if isinstance(err, str) and err else "")
    file = response.get("file")
    if tool == "read" and isinstance(file, dict) and isinstance(file.get("content"), str):
        return str(file["content"])
    for key in ("output", "content", "result"):
        if isinstance(response.get(key), str):
            return str(response[key])
    return json.dumps(response)


def _text(text: str) -> list[Content]:
    return [{"type": "text", "text": text}]


def _tool_call_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    name, call_id, data = _tool(payload)
    return events.ToolCallEvent(tool_name=name, tool_call_id=call_id, input=data)


def _permission_request_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    name, call_id, data = _tool(payload)
    suggestions = payload.get("permission_suggestions")
    return events.PermissionRequestEvent(
        tool_name=name,
        tool_call_id=call_id,
        input=data,
        permission_suggestions=suggestions if isinstance(suggestions, list) else [],
    )


def _tool_result_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    name, call_id, data = _tool(payload)
    failed = claude_event == "PostToolUseFailure"
    response = payload.get("tool_response")
    text = _str(payload, "error") if failed else response_text(name, response)
    return events.ToolResultEvent(
        tool_name=name, tool_call_id=call_id, input=data, content=_text(text), is_error=failed
    )


def _input_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    return events.InputEvent(text=_str(payload, "prompt"), source="claude")


def _stop_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    return events.StopEvent(stop_hook_active=bool(payload.get("stop_hook_active")))


def _subagent_stop_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    return events.SubagentStopEvent(
        agent_id=_str(payload, "agent_id"),
        agent_transcript_path=_str(payload, "agent_transcript_path") or None,
        stop_hook_active=bool(payload.get("stop_hook_active")),
    )


def _subagent_start_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    return events.SubagentStartEvent(
        agent_id=_str(payload, "agent_id"), agent_type=_str(payload, "agent_type")
    )


def _session_start_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    return events.SessionStartEvent(
        source=_str(payload, "source", "startup"),
        session_file=_str(payload, "transcript_path") or None,
    )


def _session_shutdown_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    reason = _str(payload, "reason", "other")
    return events.SessionShutdownEvent(reason=_END_REASONS.get(reason, "other"))


def _notification_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    return events.NotificationEvent(
        message=_str(payload, "message"),
        title=_str(payload, "title"),
        notification_type=_str(payload, "notification_type", "info"),
    )


def _session_before_compact_event(claude_event: str, payload: Mapping[str, Any]) -> Event:
    trigger: Literal["manual", "auto"] = "auto" if payload.get("trigger") == "auto" else "manual"
    return events.SessionBeforeCompactEvent(
        trigger=trigger, custom_instructions=_str(payload, "custom_instructions") or None
    )


#: hookline event → how the bridge builds it from a Claude Code hook input. Classes are
#: read from the ``events`` package when built: families load on first use, so a process
#: that answers one ``PreToolUse`` builds only the tool events.
_BUILDERS: dict[str, Callable[[str, Mapping[str, Any]], Event]] = {
    "tool_call": _tool_call_event,
    "permission_request": _permission_request_event,
    "tool_result": _tool_result_event,
    "input": _input_event,
    "stop": _stop_event,
    "subagent_stop": _subagent_stop_event,
    "subagent_start": _subagent_start_event,
    "session_start": _session_start_event,
    "session_shutdown": _session_shutdown_event,
    "notification": _notification_event,
    "session_before_compact": _session_before_compact_event,
}

#: Claude Code event name → the hookline event its hooks run as: the vocabulary's map
#: (``HOOKLINE_EVENT_NAMES``), for the events the bridge can build.
EVENT_MAP: dict[str, str] = {
    claude: ours for claude, ours in HOOKLINE_EVENT_NAMES.items() if ours in _BUILDERS
}


def to_event(claude_event: str, payload: Mapping[str, Any]) -> Event | None:
    """The hookline event for one hook input; ``None`` for events without a moment here."""
    kind = EVENT_MAP.get(claude_event)
    return None if kind is None else _BUILDERS[kind](claude_event, payload)


# -- result → answer ------------------------------------------------------------------

#: Events whose answer may carry ``additionalContext`` (context for the model).
CONTEXT_EVENTS = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart"})


def _specific(claude_event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": claude_event, **fields}}


def _deny(claude_event: str, reason: str, stderr: str = "") -> ClaudeAnswer:
    if claude_event == "PermissionRequest":
        decision = {"behavior": "deny", "message": reason}
        return ClaudeAnswer(0, _specific(claude_event, decision=decision), stderr)
    fields = {"permissionDecision": "deny", "permissionDecisionReason": reason}
    return ClaudeAnswer(0, _specific(claude_event, **fields), stderr)


def _field(result: Any, name: str) -> Any:
    return getattr(result, name, None)


def to_answer(
    claude_event: str, payload: Mapping[str, Any], event: Event, result: Any
) -> ClaudeAnswer:
    """Claude's answer for the combined result of hookline's hooks (``None``: no opinion)."""
    if result is None:
        return ClaudeAnswer()
    kind = event.type
    if kind == "tool_call":
        return _pre_tool_use(claude_event, cast("ToolCallEvent", event), result)
    if kind == "permission_request":
        return _permission_request(claude_event, cast("PermissionRequestEvent", event), result)
    if kind == "tool_result":
        return _post_tool_use(claude_event, payload, cast("ToolResultEvent", event), result)
    if kind == "input":
        if _field(result, "handled"):
            reason = "the prompt was handled by a hookline hook"
            return ClaudeAnswer(0, {"decision": "block", "reason": reason})
        text = _field(result, "text")
        if isinstance(text, str) and text != cast("InputEvent", event).text:
            note = "a hookline hook rewrote the prompt; Claude Code cannot replace a prompt"
            return ClaudeAnswer(0, {}, note)
        return ClaudeAnswer()
    if kind in ("stop", "subagent_stop") and _field(result, "block"):
        reason = _field(result, "reason") or "a hookline hook asked to continue"
        return ClaudeAnswer(0, {"decision": "block", "reason": reason})
    if kind == "session_before_compact" and _field(result, "cancel"):
        return ClaudeAnswer(0, {"decision": "block", "reason": "cancelled by a hookline hook"})
    return ClaudeAnswer()


def _pre_tool_use(claude_event: str, event: ToolCallEvent, result: Any) -> ClaudeAnswer:
    if _field(result, "block"):
        return _deny(claude_event, _field(result, "reason") or "blocked by a hookline hook")
    fields: dict[str, Any] = {}
    permission = _field(result, "permission")
    if permission in ("allow", "ask"):
        fields["permissionDecision"] = permission
    new_input = _field(result, "input")
    if isinstance(new_input, dict):
        fields["updatedInput"] = to_claude_input(event.tool_name, new_input)
    return ClaudeAnswer(0, _specific(claude_event, **fields)) if fields else ClaudeAnswer()


def _permission_request(
    claude_event: str, event: PermissionRequestEvent, result: Any
) -> ClaudeAnswer:
    decision = _field(result, "decision")
    if decision == "deny":
        return _deny(claude_event, _field(result, "reason") or "denied by a hookline hook")
    if decision != "allow":
        return ClaudeAnswer()  # "ask" / no opinion: Claude Code asks as usual
    behavior: dict[str, Any] = {"behavior": "allow"}
    new_input = _field(result, "input")
    if isinstance(new_input, dict):
        behavior["updatedInput"] = to_claude_input(event.tool_name, new_input)
    return ClaudeAnswer(0, _specific(claude_event, decision=behavior))


def _post_tool_use(
    claude_event: str, payload: Mapping[str, Any], event: ToolResultEvent, result: Any
) -> ClaudeAnswer:
    out: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    content = _field(result, "content")
    new_text = None if content is None else _content_text(content)
    if _field(result, "is_error") and not event.is_error:
        out["decision"] = "block"
        out["reason"] = new_text if new_text is not None else _content_text(event.content)
    elif new_text is not None and claude_event == "PostToolUse":
        fields["updatedToolOutput"] = _updated_output(
            event.tool_name, payload.get("tool_response"), new_text
        )
    append = _field(result, "append")
    if append:
        fields["additionalContext"] = _content_text(append)
    if fields:
        out.update(_specific(claude_event, **fields))
    return ClaudeAnswer(0, out)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(
        str(c.get("text", "")) for c in content if isinstance(c, dict) and c.get("type") == "text"
    )


def _updated_output(tool: str, original: Any, text: str) -> Any:
    """``text`` in the shape of the tool's own output, so Claude Code accepts it."""
    if isinstance(original, dict):
        if tool == "bash" and "stdout" in original:
            return {**original, "stdout": text, "stderr": ""}
        file = original.get("file")
        if tool == "read" and isinstance(file, dict):
            return {**original, "file": {**file, "content": text}}
        for key in ("output", "content", "result"):
            if isinstance(original.get(key), str):
                return {**original, key: text}
    return text


def with_context(claude_event: str, answer: ClaudeAnswer, context: list[str]) -> ClaudeAnswer:
    """Text hooks sent with ``pi.send_message`` as ``additionalContext``, where Claude Code
    takes it (after any context the result already carries)."""
    texts = [t for t in context if t]
    if not texts or claude_event not in CONTEXT_EVENTS:
        return answer
    output = dict(answer.output)
    specific = dict(output.get("hookSpecificOutput") or {"hookEventName": claude_event})
    if specific.get("additionalContext"):
        texts.insert(0, specific["additionalContext"])
    specific["additionalContext"] = "\n".join(texts)
    output["hookSpecificOutput"] = specific
    return ClaudeAnswer(answer.exit_code, output, answer.stderr)
