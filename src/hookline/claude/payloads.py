"""The stdin JSON of each Claude event, built from hookline's internal events.

Field names are exactly Claude Code's hook input fields. Base fields come first: ``session_id``,
``transcript_path``, ``cwd`` and ``permission_mode`` — the last one omitted
when unknown, as Claude Code does outside the REPL. Tool names and inputs are
in Claude's vocabulary (``names.py``).
"""

from __future__ import annotations

from typing import Any

from hookline.claude.facts import SessionFacts
from hookline.claude.names import to_claude_input, to_claude_tool_name
from hookline.claude.responses import shape_response
from hookline.core.events import (
    NotificationEvent,
    PermissionRequestEvent,
    SessionBeforeCompactEvent,
    SessionCompactEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    StopEvent,
    SubagentStartEvent,
    SubagentStopEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from hookline.core.messages import AssistantMessage, Content, ToolResultMessage, tool_calls


def build_payload(event: str, base: SessionFacts, fields: dict[str, Any]) -> dict[str, Any]:
    """``base`` + ``hook_event_name`` + the event's own fields, in that order."""
    out: dict[str, Any] = {
        "session_id": base.session_id,
        "transcript_path": base.transcript_path,
        "cwd": base.cwd,
    }
    if base.permission_mode is not None:
        out["permission_mode"] = base.permission_mode
    if base.prompt_id is not None:
        out["prompt_id"] = base.prompt_id
    if base.effort is not None:
        out["effort"] = base.effort
    out["hook_event_name"] = event
    out.update(fields)
    return out


# -- per event ----------------------------------------------------------------------


def _tool(name: str, data: dict[str, Any], cwd: str | None) -> dict[str, Any]:
    return {
        "tool_name": to_claude_tool_name(name),
        "tool_input": to_claude_input(name, data, cwd=cwd),
    }


def _in_agent(ev: ToolCallEvent | ToolResultEvent) -> dict[str, Any]:
    """``agent_id``/``agent_type`` for a call made inside a sub-agent (the ``task`` tool)."""
    if ev.agent_id is None:
        return {}
    return {"agent_id": ev.agent_id, "agent_type": ev.agent_type or ""}


def pre_tool_use(ev: ToolCallEvent, cwd: str | None = None) -> dict[str, Any]:
    return {**_tool(ev.tool_name, ev.input, cwd), "tool_use_id": ev.tool_call_id, **_in_agent(ev)}


def content_text(content: list[Content]) -> str:
    """The text blocks of a tool result joined (images are left out)."""
    return "\n".join(c["text"] for c in content if c.get("type") == "text")  # type: ignore[typeddict-item]


def tool_response(ev: ToolResultEvent, cwd: str | None = None) -> dict[str, Any]:
    """``tool_response`` in the shape of Claude Code's tool results (``responses.py``)."""
    return shape_response(ev.tool_name, ev.input, content_text(ev.content), ev.details, cwd)


def post_tool_use(
    ev: ToolResultEvent, cwd: str | None = None, duration_ms: int | None = None
) -> dict[str, Any]:
    out = {
        **_tool(ev.tool_name, ev.input, cwd),
        "tool_response": tool_response(ev, cwd),
        "tool_use_id": ev.tool_call_id,
        **_in_agent(ev),
    }
    if duration_ms is not None:
        out["duration_ms"] = duration_ms
    return out


def post_tool_use_failure(
    ev: ToolResultEvent, cwd: str | None = None, duration_ms: int | None = None
) -> dict[str, Any]:
    details = ev.details if isinstance(ev.details, dict) else {}
    out = {
        **_tool(ev.tool_name, ev.input, cwd),
        "tool_use_id": ev.tool_call_id,
        "error": content_text(ev.content),
        "is_interrupt": bool(details.get("aborted") or details.get("interrupted")),
        **_in_agent(ev),
    }
    if duration_ms is not None:
        out["duration_ms"] = duration_ms
    return out


def post_tool_batch(
    message: AssistantMessage | None, results: list[ToolResultMessage], cwd: str | None = None
) -> dict[str, Any]:
    """One model turn's tool calls, each with its input and response, in call order."""
    inputs = (
        {c["id"]: dict(c.get("arguments") or {}) for c in tool_calls(message)} if message else {}
    )
    calls = []
    for r in results:
        name, data = r["tool_name"], inputs.get(r["tool_call_id"], {})
        calls.append(
            {
                **_tool(name, data, cwd),
                "tool_use_id": r["tool_call_id"],
                "tool_response": shape_response(
                    name, data, content_text(r["content"]), r.get("details"), cwd
                ),
                "is_error": bool(r.get("is_error")),
            }
        )
    return {"tool_calls": calls}


def permission_request(ev: PermissionRequestEvent, cwd: str | None = None) -> dict[str, Any]:
    return {
        **_tool(ev.tool_name, ev.input, cwd),
        "tool_use_id": ev.tool_call_id,
        "permission_suggestions": ev.permission_suggestions,
    }


def permission_denied(
    tool_name: str, tool_call_id: str, data: dict[str, Any], reason: str, cwd: str | None = None
) -> dict[str, Any]:
    """A call the rules, the mode, a hook or the user denied, with the reason given."""
    return {**_tool(tool_name, data, cwd), "tool_use_id": tool_call_id, "reason": reason}


def notification(ev: NotificationEvent) -> dict[str, Any]:
    return {"message": ev.message, "title": ev.title, "notification_type": ev.notification_type}


def user_prompt_submit(text: str) -> dict[str, Any]:
    return {"prompt": text}


def session_start(ev: SessionStartEvent, model: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"source": ev.source}
    if model:
        out["model"] = model
    return out


#: hookline's shutdown reasons in Claude's SessionEnd vocabulary.
_END_REASONS = {
    "quit": "prompt_input_exit",
    "exit": "prompt_input_exit",
    "new": "clear",
    "sigterm": "other",
}


def session_end(ev: SessionShutdownEvent) -> dict[str, Any]:
    return {"reason": _END_REASONS.get(ev.reason, ev.reason)}


def subagent_start(ev: SubagentStartEvent) -> dict[str, Any]:
    return {"agent_id": ev.agent_id, "agent_type": ev.agent_type}


def _last_text(message: AssistantMessage | None) -> str:
    if message is None:
        return ""
    return content_text(message["content"])  # type: ignore[arg-type]


def stop(ev: StopEvent) -> dict[str, Any]:
    return {
        "stop_hook_active": ev.stop_hook_active,
        "last_assistant_message": _last_text(ev.last_message),
    }


def stop_failure(message: AssistantMessage) -> dict[str, Any]:
    """A turn the model API ended with an error (``error`` is the matcher's field)."""
    details = str(message.get("error") or "")  # type: ignore[typeddict-item]
    return {
        "error": error_kind(details),
        "error_details": details,
        "last_assistant_message": _last_text(message),
    }


def error_kind(details: str) -> str:
    """Claude's StopFailure ``error`` values, read from the provider's error text."""
    low = details.lower()
    for kind, needles in _ERROR_KINDS:
        if any(n in low for n in needles):
            return kind
    return "unknown"


_ERROR_KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rate_limit", ("rate limit", "rate_limit", "429", "overloaded", "529")),
    ("authentication_failed", ("401", "authentication", "api key", "unauthorized")),
    ("billing_error", ("billing", "credit", "402")),
    ("max_output_tokens", ("max_tokens", "max output tokens")),
    ("invalid_request", ("400", "invalid_request", "invalid request")),
    ("server_error", ("500", "502", "503", "server error", "internal error")),
)


def subagent_stop(ev: SubagentStopEvent) -> dict[str, Any]:
    return {
        "stop_hook_active": ev.stop_hook_active,
        "agent_id": ev.agent_id,
        "agent_type": ev.agent_type,
        "agent_transcript_path": ev.agent_transcript_path or "",
        "last_assistant_message": _last_text(ev.last_message),
    }


def instructions_loaded(
    file_path: str,
    memory_type: str,
    load_reason: str,
    *,
    globs: list[str] | None = None,
    trigger_file_path: str | None = None,
    parent_file_path: str | None = None,
) -> dict[str, Any]:
    """A memory file read into the system prompt (``CLAUDE.md``, ``AGENTS.md``, an ``@import``).

    ``memory_type``: ``User`` | ``Project`` | ``Local`` | ``Managed``; ``load_reason``
    (the matcher's field): ``session_start`` | ``nested_traversal`` | ``path_glob_match``
    | ``include`` | ``compact``. Optional fields are left out when not known.
    """
    out: dict[str, Any] = {
        "file_path": file_path,
        "memory_type": memory_type,
        "load_reason": load_reason,
    }
    extra = {
        "globs": globs,
        "trigger_file_path": trigger_file_path,
        "parent_file_path": parent_file_path,
    }
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def pre_compact(ev: SessionBeforeCompactEvent) -> dict[str, Any]:
    return {"trigger": ev.trigger, "custom_instructions": ev.custom_instructions or ""}


def post_compact(ev: SessionCompactEvent) -> dict[str, Any]:
    return {"trigger": ev.trigger, "compact_summary": ev.summary}
