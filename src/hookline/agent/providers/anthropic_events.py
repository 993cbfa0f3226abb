"""The Messages API's stream events, folded into the message they describe.

What the SDK's ``get_final_message`` did: ``message_start`` opens the message,
``content_block_start``/``_delta``/``_stop`` build its blocks (text, thinking
and its signature, a tool call's input JSON in pieces), ``message_delta``
brings the stop reason and the usage totals, ``message_stop`` ends it. Each
step is also reported as it happens, to the ``StreamBlocks`` and the
``PartialReply`` an abort returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from hookline.agent.blocks import StreamBlocks, parse_tool_arguments
from hookline.agent.provider import ProviderError
from hookline.agent.providers._common import PartialReply, usage_dict
from hookline.core.messages import AssistantContent, AssistantMessage, ThinkingContent

STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "refusal": "stop",
    "tool_use": "tool_use",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
}
#: ``message_delta`` usage counts are running totals: each one seen replaces the last.
_USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
)


@dataclass
class StreamedMessage:
    """The message so far; ``add`` each event in order, then ``result``."""

    model: str
    partial: PartialReply
    blocks: StreamBlocks
    content: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: A tool call's input JSON so far, by block index.
    tool_json: dict[int, list[str]] = field(default_factory=dict)
    usage: dict[str, int] = field(default_factory=dict)
    stop_reason: str | None = None
    stopped: bool = False

    def add(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "message_start":
            message = event.get("message") or {}
            self.model = message.get("model") or self.model
            self._count(message.get("usage"))
        elif kind == "content_block_start":
            self._start(int(event["index"]), dict(event.get("content_block") or {}))
        elif kind == "content_block_delta":
            self._delta(int(event["index"]), event.get("delta") or {})
        elif kind == "content_block_stop":
            self.blocks.end()
        elif kind == "message_delta":
            self.stop_reason = (event.get("delta") or {}).get("stop_reason") or self.stop_reason
            self._count(event.get("usage"))
        elif kind == "message_stop":
            self.stopped = True

    def _start(self, index: int, block: dict[str, Any]) -> None:
        if block.get("type") == "tool_use":
            self.tool_json[index] = []
            self.blocks.tool_call(index, str(block.get("id", "")), str(block.get("name", "")))
        self.content[index] = block

    def _delta(self, index: int, delta: Mapping[str, Any]) -> None:
        block = self.content.get(index)
        kind = delta.get("type")
        if block is None:
            return
        if kind == "text_delta" and block.get("type") == "text":
            text = str(delta.get("text", ""))
            block["text"] = block.get("text", "") + text
            self.partial.text.append(text)
            self.blocks.text(text)
        elif kind == "thinking_delta" and block.get("type") == "thinking":
            thinking = str(delta.get("thinking", ""))
            block["thinking"] = block.get("thinking", "") + thinking
            self.partial.thinking.append(thinking)
            self.blocks.thinking(thinking)
        elif kind == "signature_delta" and block.get("type") == "thinking":
            block["signature"] = str(delta.get("signature", ""))
        elif kind == "input_json_delta" and index in self.tool_json:
            piece = str(delta.get("partial_json", ""))
            self.tool_json[index].append(piece)
            self.blocks.tool_arguments(index, piece)

    def _count(self, usage: object) -> None:
        if isinstance(usage, Mapping):
            for key in _USAGE_KEYS:
                if isinstance(usage.get(key), int):
                    self.usage[key] = usage[key]

    def result(self) -> AssistantMessage:
        """The whole message; a stream that ended before ``message_stop`` was cut short (a
        dropped connection), which a retry may mend."""
        self.blocks.end()
        if not self.stopped:
            raise ProviderError(
                "anthropic connection error: the stream ended before message_stop",
                transient=True,
            )
        content = [
            block
            for i in sorted(self.content)
            if (block := _content(self.content[i], self.tool_json.get(i, []))) is not None
        ]
        message: AssistantMessage = {
            "role": "assistant",
            "content": content,
            "model": self.model,
            "stop_reason": STOP_REASONS.get(self.stop_reason or "", "stop"),
        }
        if self.usage:
            message["usage"] = usage_dict(
                input_tokens=self.usage.get("input_tokens"),
                output_tokens=self.usage.get("output_tokens"),
                cache_read_tokens=self.usage.get("cache_read_input_tokens"),
                cache_write_tokens=self.usage.get("cache_creation_input_tokens"),
            )
        return message


def _content(block: Mapping[str, Any], tool_json: list[str]) -> AssistantContent | None:
    """One finished block as hookline content (blocks of other types are not kept);
    ``tool_json``: a tool call's input as it streamed in."""
    if block.get("type") == "text":
        return {"type": "text", "text": str(block.get("text", ""))}
    if block.get("type") == "thinking":
        # ``signature`` rides along (not in ThinkingContent) so the block can be sent back.
        thinking = {
            "type": "thinking",
            "thinking": str(block.get("thinking", "")),
            "signature": str(block.get("signature", "")),
        }
        return cast(ThinkingContent, thinking)
    if block.get("type") == "tool_use":
        start = block.get("input")
        if tool_json:
            arguments = parse_tool_arguments("".join(tool_json))
        else:  # no delta: the input came whole with the block's start
            arguments = dict(start) if isinstance(start, dict) else {}
        return {
            "type": "tool_call",
            "id": str(block.get("id", "")),
            "name": str(block.get("name", "")),
            "arguments": arguments,
        }
    return None
