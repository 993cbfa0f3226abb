"""Message and content shapes shared by hooks, tools, sessions and providers.

They are ``TypedDict``s: plain JSON-ready dicts at run time (cheap to copy,
write to a session file, or hand to a hook as ``{**chunk, "text": ...}``),
typed for mypy.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias

from typing_extensions import TypedDict


class TextContent(TypedDict):
    type: Literal["text"]
    text: str


class ImageContent(TypedDict):
    type: Literal["image"]
    data: str  # base64
    mime_type: str


class ThinkingContent(TypedDict):
    type: Literal["thinking"]
    thinking: str


class ToolCallContent(TypedDict):
    type: Literal["tool_call"]
    id: str
    name: str
    arguments: dict[str, Any]


Content: TypeAlias = TextContent | ImageContent
#: Who asked for a hook's message: the user (a command, a prompt) or the agent itself.
Attribution: TypeAlias = Literal["user", "agent"]
AssistantContent: TypeAlias = TextContent | ThinkingContent | ToolCallContent


class Usage(TypedDict, total=False):
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int


class UserMessage(TypedDict):
    role: Literal["user"]
    content: list[Content]
    timestamp: NotRequired[float]


class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: list[AssistantContent]
    model: NotRequired[str]
    stop_reason: NotRequired[str]  # "stop" | "tool_use" | "length" | "error" | "aborted"
    usage: NotRequired[Usage]
    error: NotRequired[str]
    timestamp: NotRequired[float]


class ToolResultMessage(TypedDict):
    role: Literal["tool"]
    tool_call_id: str
    tool_name: str
    content: list[Content]
    details: NotRequired[Any]
    is_error: bool
    timestamp: NotRequired[float]


class CustomMessage(TypedDict):
    """A message a hook adds (``send_message``); the model sees it as user text."""

    role: Literal["custom"]
    custom_type: str
    content: str | list[Content]
    display: bool
    details: NotRequired[Any]
    timestamp: NotRequired[float]
    #: Who asked for it (``user`` or ``agent``), for billing and display.
    attribution: NotRequired[Attribution]


Message: TypeAlias = UserMessage | AssistantMessage | ToolResultMessage | CustomMessage


def text(value: str) -> TextContent:
    """One text content block."""
    return {"type": "text", "text": value}


def user_message(value: str | list[Content], timestamp: float | None = None) -> UserMessage:
    """A user message from plain text or content blocks."""
    content: list[Content] = [text(value)] if isinstance(value, str) else list(value)
    msg: UserMessage = {"role": "user", "content": content}
    if timestamp is not None:
        msg["timestamp"] = timestamp
    return msg


def content_text(content: str | list[Content] | list[AssistantContent]) -> str:
    """The text blocks of ``content`` joined by newlines (images and tool calls skipped)."""
    if isinstance(content, str):
        return content
    return "\n".join(c["text"] for c in content if c.get("type") == "text")  # type: ignore[typeddict-item]


def tool_calls(message: AssistantMessage) -> list[ToolCallContent]:
    """The tool calls of an assistant message, in order."""
    return [c for c in message["content"] if c["type"] == "tool_call"]  # type: ignore[misc]
