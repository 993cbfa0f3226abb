"""Context filter: prune what the model sees before each LLM call.

The Python version of oh-my-pi's "context filter" example (and its
``debug-only`` example). A ``context`` handler, run before every model call
on the messages about to be sent:

- drops custom messages (``send_message``) whose ``custom_type`` is
  ``"debug-only"``: they stay in the session file and the UI, the model never
  reads them;
- cuts each text block of a tool result (``role == "tool"``) longer than
  8,000 characters to its first 8,000, followed by a marker line.

The session itself is not changed, only this call's copy. When nothing needs
pruning the handler returns ``None`` and the messages pass through as they
are (``context`` handlers chain: the next hook sees this one's output).
"""

from __future__ import annotations

from typing import Any

from hookline import ContextEvent, HookAPI, HookContext

MAX_TOOL_OUTPUT_CHARS = 8_000
DEBUG_TYPE = "debug-only"
MARKER = "\n[... truncated by context-filter hook]"


def _trim_tool_message(msg: Any) -> Any:
    content = msg.get("content")
    if not isinstance(content, list):
        return msg
    trimmed: list[Any] = []
    changed = False
    for chunk in content:
        if chunk.get("type") == "text" and len(chunk["text"]) > MAX_TOOL_OUTPUT_CHARS:
            trimmed.append({**chunk, "text": chunk["text"][:MAX_TOOL_OUTPUT_CHARS] + MARKER})
            changed = True
        else:
            trimmed.append(chunk)
    return {**msg, "content": trimmed} if changed else msg


def filter_messages(messages: list[Any]) -> list[Any] | None:
    """The pruned messages, or ``None`` when nothing had to change."""
    out: list[Any] = []
    changed = False
    for msg in messages:
        if msg.get("role") == "custom" and msg.get("custom_type") == DEBUG_TYPE:
            changed = True
            continue
        if msg.get("role") == "tool":
            new = _trim_tool_message(msg)
            changed = changed or new is not msg
            out.append(new)
        else:
            out.append(msg)
    return out if changed else None


def register(pi: HookAPI) -> None:
    @pi.on("context")
    async def prune(event: ContextEvent, ctx: HookContext) -> dict[str, Any] | None:
        messages = filter_messages(list(event.messages))
        return None if messages is None else {"messages": messages}
