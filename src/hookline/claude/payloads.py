"""The stdin JSON of each Claude event, built from hookline's internal events.

Field names are exactly Claude Code's hook input fields. Base fields come first: ``session_id``,
``transcript_path``, ``cwd`` and ``permission_mode`` — the last one omitted
when unknown, as Claude Code does outside the REPL. Tool names and inputs are
in Claude's vocabulary (``names.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hookline.claude.names import to_claude_input, to_claude_tool_name
from hookline.core.events import (
    InstructionsLoadedEvent,
    NotificationEvent,
    PermissionRequestEvent,
    SessionBeforeCompactEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    StopEvent,
    SubagentStartEvent,
    SubagentStopEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from hookline.core.messages import Content


@dataclass(frozen=True, slots=True)
class BaseFields:
    """What every hook input starts with."""

    session_id: str
    transcript_path: str
    cwd: str
    permission_mode: str | None = None


def build_payload(event: str, base: BaseFields, fields: dict[str, Any]) -> dict[str, Any]:
    """``base`` + ``hook_event_name`` + the event's own fields, in that order."""
    out: dict[str, Any] = {
        "session_id": base.session_id,
        "transcript_path": base.transcript_path,
        "cwd": base.cwd,
    }
    if base.permission_mode is not None:
        out["permission_mode"] = base.permission_mode
    out["hook_event_name"] = event
    out.update(fields)
    return out


# -- per event ----------------------------------------------------------------------


def _tool(name: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"tool_name": to_claude_tool_name(name), "tool_input": to_claude_input(name, data)}


def _in_agent(ev: ToolCallEvent | ToolResultEvent) -> dict[str, Any]:
    """``agent_id``/``agent_type`` for a call made inside a sub-agent (the ``task`` tool)."""
    if ev.agent_id is None:
        return {}
    return {"agent_id": ev.agent_id, "agent_type": ev.agent_type or ""}


def pre_tool_use(ev: ToolCallEvent) -> dict[str, Any]:
    return {**_tool(ev.tool_name, ev.input), "tool_use_id": ev.tool_call_id, **_in_agent(ev)}


def content_text(content: list[Content]) -> str:
    """The text blocks of a tool result joined (images are left out)."""
    return "\n".join(c["text"] for c in content if c.get("type") == "text")  # type: ignore[typeddict-item]


def tool_response(ev: ToolResultEvent) -> dict[str, Any]:
    """A Claude-like ``tool_response`` object.

    Claude's responses are tool-specific objects; hookline gives the text
    under ``output`` for every tool, plus the keys Claude hooks most often
    read: ``stdout``/``stderr``/``interrupted`` for Bash, ``filePath`` and
    ``success`` for Write/Edit, ``file.filePath``/``file.content`` for Read.
    """
    text = content_text(ev.content)
    out: dict[str, Any] = {"output": text}
    path = ev.input.get("path")
    if ev.tool_name == "bash":
        out.update(stdout=text, stderr="", interrupted=False, isImage=False)
    elif ev.tool_name in ("write", "edit"):
        out.update(filePath=path, success=not ev.is_error)
    elif ev.tool_name == "read":
        out["file"] = {"filePath": path, "content": text}
    return out


def post_tool_use(ev: ToolResultEvent) -> dict[str, Any]:
    return {
        **_tool(ev.tool_name, ev.input),
        "tool_response": tool_response(ev),
        "tool_use_id": ev.tool_call_id,
        **_in_agent(ev),
    }


def post_tool_use_failure(ev: ToolResultEvent) -> dict[str, Any]:
    details = ev.details if isinstance(ev.details, dict) else {}
    return {
        **_tool(ev.tool_name, ev.input),
        "tool_use_id": ev.tool_call_id,
        "error": content_text(ev.content),
        "is_interrupt": bool(details.get("aborted") or details.get("interrupted")),
        **_in_agent(ev),
    }


def permission_request(ev: PermissionRequestEvent) -> dict[str, Any]:
    return {**_tool(ev.tool_name, ev.input), "permission_suggestions": ev.permission_suggestions}


def notification(ev: NotificationEvent) -> dict[str, Any]:
    return {"message": ev.message, "title": ev.title, "notification_type": ev.notification_type}


def user_prompt_submit(text: str) -> dict[str, Any]:
    return {"prompt": text}


def session_start(ev: SessionStartEvent) -> dict[str, Any]:
    return {"source": ev.source}


#: hookline's shutdown reasons in Claude's SessionEnd vocabulary.
_END_REASONS = {"exit": "prompt_input_exit", "sigterm": "other"}


def session_end(ev: SessionShutdownEvent) -> dict[str, Any]:
    return {"reason": _END_REASONS.get(ev.reason, ev.reason)}


def subagent_start(ev: SubagentStartEvent) -> dict[str, Any]:
    return {"agent_id": ev.agent_id, "agent_type": ev.agent_type}


def stop(ev: StopEvent) -> dict[str, Any]:
    return {"stop_hook_active": ev.stop_hook_active}


def subagent_stop(ev: SubagentStopEvent) -> dict[str, Any]:
    return {
        "stop_hook_active": ev.stop_hook_active,
        "agent_id": ev.agent_id,
        **({"agent_type": ev.agent_type} if ev.agent_type is not None else {}),
        "agent_transcript_path": ev.agent_transcript_path or "",
    }


def pre_compact(ev: SessionBeforeCompactEvent) -> dict[str, Any]:
    return {"trigger": ev.trigger, "custom_instructions": ev.custom_instructions or ""}


def instructions_loaded(ev: InstructionsLoadedEvent) -> dict[str, Any]:
    out: dict[str, Any] = {
        "file_path": ev.file_path,
        "memory_type": ev.memory_type,
        "load_reason": ev.load_reason,
    }
    if ev.parent_file_path is not None:
        out["parent_file_path"] = ev.parent_file_path
    return out
