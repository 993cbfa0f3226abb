"""Compaction without a model: token estimates, the cut point, an extractive summary.

The agent emits ``session_before_compact`` with what ``prepare_compaction``
returns; a hook (or later a model) may replace ``default_summary``'s text.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hookline.core.messages import Message, content_text, tool_calls
from hookline.session.context import COMPACTION_SUMMARY_TYPE, context_items

if TYPE_CHECKING:
    from hookline.session.manager import SessionManager

#: An image costs about this many tokens whatever its size (providers' flat rate).
IMAGE_TOKENS = 1200
DEFAULT_KEEP_RECENT_TOKENS = 20_000
_LINE_CHARS = 200
_MAX_ITEMS = 50


def _message_chars(message: Message) -> int:
    content: Any = message.get("content", "")
    if isinstance(content, str):
        return len(content)
    chars = 0
    for block in content:
        kind = block.get("type")
        if kind == "text":
            chars += len(block["text"])
        elif kind == "thinking":
            chars += len(block["thinking"])
        elif kind == "tool_call":
            chars += len(block["name"]) + len(json.dumps(block.get("arguments", {})))
        elif kind == "image":
            chars += IMAGE_TOKENS * 4
    return chars


def estimate_tokens(messages: list[Message]) -> int:
    """About how many tokens ``messages`` cost: characters / 4, rounded up."""
    return -(-sum(_message_chars(m) for m in messages) // 4)


def should_compact(context_tokens: int, context_window: int, threshold: float = 0.8) -> bool:
    """True once the context fills ``threshold`` of the window (never for a 0 window)."""
    return context_window > 0 and context_tokens >= context_window * threshold


@dataclass(frozen=True)
class CompactionPreparation:
    """What a compaction at the current leaf would summarise and keep."""

    messages_to_summarize: list[Message]
    first_kept_entry_id: str | None
    tokens_before: int
    tokens_kept: int = 0


def _is_cut_point(entry_type: str, message: Message) -> bool:
    """Kept context may start at a user/assistant/custom message, never at a tool result
    (its tool call would be summarised away) and never at a compaction summary."""
    if entry_type == "compaction":
        return False
    return message["role"] != "tool"


def prepare_compaction(
    manager: SessionManager, keep_recent_tokens: int = DEFAULT_KEEP_RECENT_TOKENS
) -> CompactionPreparation:
    """Split the current context: keep at least ``keep_recent_tokens`` of the newest
    messages (cut at a valid point), summarise the rest.

    The previous compaction's summary, when there is one, is among the messages
    to summarise, so what it said is carried into the new summary.
    """
    items = context_items(manager.get_branch())
    messages = [m for _, m in items]
    costs = [_message_chars(m) / 4 for m in messages]
    tokens_before = estimate_tokens(messages)
    kept = 0.0
    cut = 0
    for i in range(len(items) - 1, -1, -1):
        kept += costs[i]
        if kept >= keep_recent_tokens:
            cut = i
            break
    # Walk back to a valid cut point so a tool result keeps its tool call.
    while cut > 0 and not _is_cut_point(items[cut][0]["type"], items[cut][1]):
        cut -= 1
    if cut == 0 or (cut == 1 and items[0][0]["type"] == "compaction"):
        return CompactionPreparation([], None, tokens_before, tokens_before)
    return CompactionPreparation(
        messages_to_summarize=messages[:cut],
        first_kept_entry_id=items[cut][0]["id"],
        tokens_before=tokens_before,
        tokens_kept=estimate_tokens(messages[cut:]),
    )


def _first_line(text: str) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= _LINE_CHARS else line[: _LINE_CHARS - 1] + "…"


def default_summary(messages: list[Message]) -> str:
    """A deterministic extractive summary: earlier summaries, each user request's first
    line, the tools used and files touched, the last assistant reply. No model needed."""
    earlier: list[str] = []
    requests: list[str] = []
    tools: Counter[str] = Counter()
    files: dict[str, None] = {}
    last_reply = ""
    for message in messages:
        if message["role"] == "custom":
            if message["custom_type"] == COMPACTION_SUMMARY_TYPE:
                text = content_text(message["content"])
                earlier.append(text.split("\n\n", 1)[-1].strip())
        elif message["role"] == "user":
            line = _first_line(content_text(message["content"]))
            if line:
                requests.append(line)
        elif message["role"] == "assistant":
            for call in tool_calls(message):
                tools[call["name"]] += 1
                path = call.get("arguments", {}).get("path")
                if isinstance(path, str):
                    files[path] = None
            reply = _first_line(content_text(message["content"]))
            if reply:
                last_reply = reply
    parts = [f"Summary of {len(messages)} earlier messages (extractive):"]
    if earlier:
        parts.append("Earlier summary:\n" + "\n".join(earlier))
    if requests:
        shown = requests[-_MAX_ITEMS:]
        skipped = len(requests) - len(shown)
        lines = [f"- {r}" for r in shown]
        if skipped:
            lines.insert(0, f"- ({skipped} earlier requests omitted)")
        parts.append("User requests:\n" + "\n".join(lines))
    if tools:
        used = ", ".join(f"{name} ×{count}" for name, count in sorted(tools.items()))
        parts.append(f"Tools used: {used}")
    if files:
        names = list(files)[-_MAX_ITEMS:]
        parts.append("Files touched: " + ", ".join(names))
    if last_reply:
        parts.append(f"Last assistant reply: {last_reply}")
    return "\n\n".join(parts)
