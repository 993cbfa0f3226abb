"""A conversation as plain text, for a model asked to summarise it (pi's
``serializeConversation``).

Written as labelled paragraphs rather than sent as messages, so the model reads
the conversation instead of continuing it; long tool results are cut, since a
summary needs their gist, not their bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from hookline.core.messages import Message, content_text

#: A tool result's characters kept in the text (pi's limit).
TOOL_RESULT_MAX_CHARS = 2000


def serialize_conversation(messages: Iterable[Message]) -> str:
    """``[User]: …``, ``[Assistant thinking]: …``, ``[Assistant]: …``, ``[Assistant tool
    calls]: name(key=value, …)`` and ``[Tool result]: …`` paragraphs; a hook's custom message
    is user text, as the model sees it."""
    parts: list[str] = []
    for message in messages:
        if message["role"] in ("user", "custom"):
            text = content_text(message["content"])
            if text:
                parts.append(f"[User]: {text}")
        elif message["role"] == "assistant":
            texts: list[str] = []
            thinking: list[str] = []
            calls: list[str] = []
            for block in message["content"]:
                if block["type"] == "text":
                    texts.append(block["text"])
                elif block["type"] == "thinking":
                    thinking.append(block["thinking"])
                else:
                    args = ", ".join(f"{k}={json.dumps(v)}" for k, v in block["arguments"].items())
                    calls.append(f"{block['name']}({args})")
            if thinking:
                parts.append("[Assistant thinking]: " + "\n".join(thinking))
            if texts:
                parts.append("[Assistant]: " + "\n".join(texts))
            if calls:
                parts.append("[Assistant tool calls]: " + "; ".join(calls))
        else:
            text = content_text(message["content"])
            if text:
                parts.append(f"[Tool result]: {_truncated(text)}")
    return "\n\n".join(parts)


def _truncated(text: str) -> str:
    if len(text) <= TOOL_RESULT_MAX_CHARS:
        return text
    cut = len(text) - TOOL_RESULT_MAX_CHARS
    return f"{text[:TOOL_RESULT_MAX_CHARS]}\n\n[... {cut} more characters truncated]"
