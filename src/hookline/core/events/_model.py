"""Message and provider events: what goes to and comes from the model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hookline.core.events._base import Event
from hookline.core.messages import AssistantMessage


@dataclass(slots=True, kw_only=True)
class MessageStartEvent(Event):
    """An assistant message starts streaming from the model."""

    type: ClassVar[str] = "message_start"
    #: The assistant message, empty so far.
    message: AssistantMessage


@dataclass(slots=True, kw_only=True)
class MessageUpdateEvent(Event):
    """A piece of the assistant message arrived while it streams."""

    type: ClassVar[str] = "message_update"
    #: The message so far.
    message: AssistantMessage
    #: The new text; ``""`` for a start or end.
    delta: str
    #: ``text``, ``thinking`` or ``toolcall``.
    delta_type: str = "text"
    #: pi's event: ``text_start``/``text_delta``/``text_end``, ``thinking_*``, ``toolcall_*``, with
    #: ``content_index`` and its ``delta``, or at the end the whole ``content``/``tool_call``.
    assistant_message_event: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class MessageEndEvent(Event):
    """The assistant message is complete, before it is stored and acted on.

    A plain string returned is the new text.
    """

    type: ClassVar[str] = "message_end"
    #: The whole assistant message.
    message: AssistantMessage


@dataclass(slots=True, kw_only=True)
class BeforeProviderRequestEvent(Event):
    """A request is about to be sent to the model provider.

    A dict returned is the new payload itself (pi's form), not a result with a ``payload``
    key; return ``BeforeProviderRequestResult(payload=...)`` to use the key.
    """

    type: ClassVar[str] = "before_provider_request"
    #: The SDK request arguments (a copy).
    payload: dict[str, Any]
    #: ``anthropic``, ``openai`` or ``scripted``.
    provider: str = ""


@dataclass(slots=True, kw_only=True)
class AfterProviderResponseEvent(Event):
    """The model provider answered a request (before its stream is read)."""

    type: ClassVar[str] = "after_provider_response"
    #: The HTTP status.
    status: int | None = None
    #: The response headers.
    headers: dict[str, str] = field(default_factory=dict)
    #: The provider's request id, when it sent one.
    request_id: str | None = None
    #: ``anthropic``, ``openai`` or ``scripted``.
    provider: str = ""
