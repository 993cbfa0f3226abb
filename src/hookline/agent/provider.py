"""The one interface every model sits behind: scripted, Anthropic, OpenAI."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from hookline.agent.blocks import StreamBlocks
from hookline.core.messages import AssistantMessage, Message
from hookline.core.tool import ToolParameters
from hookline.core.tool_params import tool_json_schema


@dataclass(slots=True)
class ToolSpec:
    """What the model is told about a tool.

    ``parameters`` is the tool's own (a schema dict or a pydantic model class): a
    provider that sends schemas asks ``json_schema()``, so one that does not (the
    scripted model) never has a model's schema generated.
    """

    name: str
    description: str
    parameters: ToolParameters

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the parameters, as providers send it."""
        return tool_json_schema(self.parameters)


#: How hard a model reasons before it answers (pi's thinking levels; ``off``: not at all).
ThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh"]
#: The levels in order, least first.
THINKING_LEVELS: tuple[ThinkingLevel, ...] = ("off", "minimal", "low", "medium", "high", "xhigh")

PayloadHook = Callable[[dict[str, Any], str], Awaitable[dict[str, Any]]]
ResponseHook = Callable[[int | None, dict[str, str], str | None, str], Awaitable[None]]


@dataclass(slots=True)
class ModelRequest:
    """One model call: the system prompt, the (hook-filtered) messages and the tools."""

    system_prompt: str
    messages: list[Message]
    tools: list[ToolSpec] = field(default_factory=list)
    max_tokens: int = 8192
    signal: asyncio.Event | None = None
    #: Each provider maps it to its reasoning setting (``reasoning_effort``, a thinking
    #: budget).
    thinking: ThinkingLevel = "off"
    #: ``before_provider_request``: given the payload and the provider name, returns the
    #: payload to send.
    on_payload: PayloadHook | None = None
    #: ``after_provider_response``: status, headers, request id, provider name.
    on_response: ResponseHook | None = None
    #: Where a provider that streams blocks reports them (thinking, text, tool calls);
    #: it passes text on to ``on_text`` itself. Without it a provider builds its own
    #: around ``on_text``; a provider that only streams text just calls ``on_text``.
    blocks: StreamBlocks | None = None


#: Receives text as it streams in.
TextDelta = Callable[[str], None]


class ProviderError(Exception):
    """A model call failed; ``transient`` errors (429, 5xx, connection) are retried.

    ``retry_after`` is the server's ``retry-after`` in seconds when it sent one: the
    retry waits at least that long.
    """

    def __init__(
        self,
        message: str,
        *,
        transient: bool = False,
        status: int | None = None,
        retry_after: float | None = None,
    ):
        super().__init__(message)
        self.transient = transient
        self.status = status
        self.retry_after = retry_after


class Provider(Protocol):
    """A model. ``complete`` streams text deltas to ``on_text`` and returns the whole message.

    The returned message has ``role="assistant"``, its content blocks (text,
    thinking, tool_call with parsed ``arguments``), ``model``, ``stop_reason``
    ("stop" | "tool_use" | "length" | "aborted") and ``usage`` when known.
    """

    @property
    def model_id(self) -> str:
        """``provider:name``, as given to ``--model``."""
        ...

    async def complete(
        self, request: ModelRequest, on_text: TextDelta | None = None
    ) -> AssistantMessage: ...
