"""The one interface every model sits behind: scripted, Anthropic, OpenAI."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from hookline.core.messages import AssistantMessage, Message


@dataclass(slots=True)
class ToolSpec:
    """What the model is told about a tool."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(slots=True)
class ModelRequest:
    """One model call: the system prompt, the (hook-filtered) messages and the tools."""

    system_prompt: str
    messages: list[Message]
    tools: list[ToolSpec] = field(default_factory=list)
    max_tokens: int = 8192
    signal: asyncio.Event | None = None


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
