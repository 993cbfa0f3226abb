"""Pieces every provider shares: history repair, abort racing, partial-message building.

Kept SDK-free so the scripted provider (the default) never pays for an SDK import.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hookline.core.messages import (
    AssistantContent,
    AssistantMessage,
    Content,
    Message,
    ToolResultMessage,
    Usage,
)

_T = TypeVar("_T")

#: What a tool call with no recorded result is answered with, so the API accepts the history
#: (pi's words, so a ``context`` hook that drops a result reads the same in both agents).
MISSING_RESULT_TEXT = "No result provided"

#: HTTP statuses worth retrying: timeouts, conflicts, rate limits and every 5xx.
_TRANSIENT_STATUSES = frozenset({408, 409, 429})


def retry_after_seconds(headers: Any) -> float | None:
    """The server's ``retry-after-ms`` / ``retry-after`` header as seconds (None if absent or
    not a plain number of seconds; an HTTP date is ignored)."""
    if headers is None:
        return None
    try:
        millis = headers.get("retry-after-ms")
        if millis is not None:
            value = float(millis) / 1000
        else:
            raw = headers.get("retry-after")
            if raw is None:
                return None
            value = float(raw)
    except (TypeError, ValueError, AttributeError):
        return None
    return value if value >= 0 else None


def is_transient_status(status: int | None) -> bool:
    """True for statuses a retry may fix (408/409/429 and 5xx, including Anthropic's 529)."""
    return status is not None and (status in _TRANSIENT_STATUSES or status >= 500)


def prepare_history(messages: list[Message]) -> list[Message]:
    """The messages an API will accept: every tool call answered, no orphan results.

    Drops assistant messages that only record a failed call (``stop_reason ==
    "error"``): the model never said them. A tool call without a result (an
    aborted turn) gets a synthetic error result; a result whose call is not in
    the preceding assistant message is dropped. Both APIs reject either case.
    """
    out: list[Message] = []
    pending: dict[str, str] = {}

    def flush() -> None:
        for call_id, name in pending.items():
            out.append(_missing_result(call_id, name))
        pending.clear()

    for msg in messages:
        if msg["role"] == "tool":
            if msg["tool_call_id"] in pending:
                del pending[msg["tool_call_id"]]
                out.append(msg)
            continue
        flush()
        if msg["role"] == "assistant":
            if msg.get("stop_reason") == "error":
                continue
            for block in msg["content"]:
                if block["type"] == "tool_call":
                    pending[block["id"]] = block["name"]
        out.append(msg)
    flush()
    return out


def _missing_result(call_id: str, name: str) -> ToolResultMessage:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "tool_name": name,
        "content": [{"type": "text", "text": MISSING_RESULT_TEXT}],
        "is_error": True,
    }


def custom_content(content: str | list[Content]) -> list[Content]:
    """A custom message's content as blocks (the model sees it as user input)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content)


@dataclass(slots=True)
class PartialReply:
    """What has streamed in so far; becomes the message if the call is aborted."""

    model: str
    text: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)

    def aborted(self) -> AssistantMessage:
        """The partial message with ``stop_reason="aborted"``."""
        content: list[AssistantContent] = []
        if self.thinking:
            content.append({"type": "thinking", "thinking": "".join(self.thinking)})
        if self.text:
            content.append({"type": "text", "text": "".join(self.text)})
        return {
            "role": "assistant",
            "content": content,
            "model": self.model,
            "stop_reason": "aborted",
        }


async def run_abortable(
    coro: Coroutine[Any, Any, _T], signal: asyncio.Event | None
) -> tuple[bool, _T | None]:
    """Run ``coro`` until it finishes or ``signal`` is set; ``(aborted, result)``.

    On abort the coroutine is cancelled (closing the HTTP stream), so the caller
    can return what had streamed so far.
    """
    if signal is None:
        return False, await coro
    if signal.is_set():
        coro.close()
        return True, None
    task = asyncio.ensure_future(coro)
    waiter = asyncio.ensure_future(signal.wait())
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if task.cancelled():
        return True, None
    return False, task.result()


def usage_dict(**counts: int | None) -> Usage:
    """A ``Usage`` with only the counts the API reported."""
    return {k: v for k, v in counts.items() if v is not None}  # type: ignore[return-value]
