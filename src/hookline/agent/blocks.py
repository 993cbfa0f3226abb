"""A streamed reply as pi's ``assistantMessageEvent``s: blocks that start, grow and end.

Providers report what streams in (text, thinking, a tool call's name and its
argument JSON in pieces) to a ``StreamBlocks``; it numbers the content blocks
and sends one event per step to its sink, in pi's vocabulary with hookline's
snake_case names::

    {"type": "thinking_start", "content_index": 0}
    {"type": "thinking_delta", "content_index": 0, "delta": "Let me"}
    {"type": "thinking_end", "content_index": 0, "content": "Let me see."}
    {"type": "text_start", "content_index": 1} ... {"type": "text_end", ..., "content": "Hi"}
    {"type": "toolcall_start", "content_index": 2, "id": "call_1", "name": "ls"}
    {"type": "toolcall_delta", "content_index": 2, "delta": "{\\"path\\": "}
    {"type": "toolcall_end", "content_index": 2, "tool_call": {"type": "tool_call", ...}}

``PartialMessage`` replays those events into the message so far: the hook
events' ``message`` and the RPC wire's ``partial`` are built from it, so
every reader sees the same blocks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from hookline.core.messages import AssistantContent, AssistantMessage, ToolCallContent

#: Receives each event as it happens.
BlockSink = Callable[[dict[str, Any]], None]
#: Receives streamed text (the provider interface's ``on_text``).
TextSink = Callable[[str], None]

_KINDS = ("text", "thinking", "toolcall")


def parse_tool_arguments(raw: str) -> dict[str, Any]:
    """A tool call's arguments from their streamed JSON; bad JSON is kept so the tool can
    report it (``_invalid_json``), a non-object under ``_value``."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        return {"_invalid_json": raw}
    return value if isinstance(value, dict) else {"_value": value}


class PartialMessage:
    """The assistant message so far, rebuilt from block events."""

    def __init__(self) -> None:
        self.content: list[AssistantContent] = []
        self._raw_args: dict[int, list[str]] = {}

    def apply(self, event: Mapping[str, Any]) -> None:
        kind = str(event.get("type", ""))
        index = event.get("content_index")
        if not isinstance(index, int) or index < 0:
            return
        if kind.endswith("_start"):
            if index == 0:
                self.content, self._raw_args = [], {}  # a new attempt starts a new message
            while len(self.content) <= index:
                self.content.append({"type": "text", "text": ""})
            self.content[index] = _empty(kind.removesuffix("_start"), event)
            return
        if index >= len(self.content):
            return
        block = self.content[index]
        if kind == "text_delta" and block["type"] == "text":
            block["text"] += str(event.get("delta", ""))
        elif kind == "thinking_delta" and block["type"] == "thinking":
            block["thinking"] += str(event.get("delta", ""))
        elif kind == "toolcall_delta" and block["type"] == "tool_call":
            self._raw_args.setdefault(index, []).append(str(event.get("delta", "")))
        elif kind == "text_end" and block["type"] == "text":
            block["text"] = str(event.get("content", block["text"]))
        elif kind == "thinking_end" and block["type"] == "thinking":
            block["thinking"] = str(event.get("content", block["thinking"]))
        elif kind == "toolcall_end" and isinstance(event.get("tool_call"), Mapping):
            call = event["tool_call"]
            self.content[index] = {
                "type": "tool_call",
                "id": str(call.get("id", "")),
                "name": str(call.get("name", "")),
                "arguments": dict(call.get("arguments") or {}),
            }

    def message(self) -> AssistantMessage:
        """A copy of the message so far (blocks copied: later events do not change it)."""
        return {"role": "assistant", "content": [dict(b) for b in self.content]}  # type: ignore[misc]


def _empty(kind: str, event: Mapping[str, Any]) -> AssistantContent:
    if kind == "thinking":
        return {"type": "thinking", "thinking": ""}
    if kind == "toolcall":
        return {
            "type": "tool_call",
            "id": str(event.get("id", "")),
            "name": str(event.get("name", "")),
            "arguments": {},
        }
    return {"type": "text", "text": ""}


class StreamBlocks:
    """What a provider streams, as numbered blocks and their events.

    One block is open at a time: starting another kind (or another tool call)
    ends the open one. ``finish`` ends the last. ``on_text`` still receives
    every text delta, so a reader that only wants text needs nothing else.
    """

    def __init__(self, sink: BlockSink | None = None, on_text: TextSink | None = None) -> None:
        self._sink = sink
        self._on_text = on_text
        self.partial = PartialMessage()
        self._open: str | None = None  # "text" | "thinking" | "toolcall"
        self._index = -1
        self._key: object = None  # which tool call is open
        self._pieces: list[str] = []
        self._call: dict[str, str] = {}

    def _emit(self, event: dict[str, Any]) -> None:
        self.partial.apply(event)
        if self._sink is not None:
            self._sink(event)

    def _start(self, kind: str, **fields: Any) -> None:
        self.end()
        self._index += 1
        self._open = kind
        self._pieces = []
        self._emit({"type": f"{kind}_start", "content_index": self._index, **fields})

    def text(self, delta: str) -> None:
        """Streamed text (opens a text block when another kind is open)."""
        if not delta:
            return
        if self._open != "text":
            self._start("text")
        self._pieces.append(delta)
        self._emit({"type": "text_delta", "content_index": self._index, "delta": delta})
        if self._on_text is not None:
            self._on_text(delta)

    def thinking(self, delta: str) -> None:
        """Streamed reasoning."""
        if not delta:
            return
        if self._open != "thinking":
            self._start("thinking")
        self._pieces.append(delta)
        self._emit({"type": "thinking_delta", "content_index": self._index, "delta": delta})

    def tool_call(self, key: object, call_id: str = "", name: str = "") -> None:
        """A tool call begins (``key`` tells calls apart: the stream's index for it)."""
        if self._open == "toolcall" and self._key == key:
            self._call["id"] = call_id or self._call["id"]
            self._call["name"] = name or self._call["name"]
            return
        self.end()  # the call before, with its own id and name
        self._key = key
        self._call = {"id": call_id, "name": name}
        self._start("toolcall", id=call_id, name=name)

    def tool_arguments(self, key: object, piece: str) -> None:
        """A piece of the open tool call's argument JSON."""
        if self._open != "toolcall" or self._key != key:
            self.tool_call(key)
        if piece:
            self._pieces.append(piece)
            self._emit({"type": "toolcall_delta", "content_index": self._index, "delta": piece})

    def end(self) -> None:
        """End the open block, if any (its ``*_end`` event carries the whole block)."""
        kind, self._open = self._open, None
        if kind is None:
            return
        whole = "".join(self._pieces)
        event: dict[str, Any] = {"type": f"{kind}_end", "content_index": self._index}
        if kind == "toolcall":
            call: ToolCallContent = {
                "type": "tool_call",
                "id": self._call.get("id") or f"call_{self._index}",
                "name": self._call.get("name", ""),
                "arguments": parse_tool_arguments(whole),
            }
            event["tool_call"] = call
        else:
            event["content"] = whole
        self._emit(event)

    def restart(self) -> None:
        """A new attempt (a retry): the open block ends, numbering starts again."""
        self.end()
        self._index = -1
        self._key = None


def block_kind(event: Mapping[str, Any]) -> str:
    """``text`` | ``thinking`` | ``toolcall`` for an event (its ``delta_type`` for hooks)."""
    kind = str(event.get("type", "")).rpartition("_")[0]
    return kind if kind in _KINDS else "text"
