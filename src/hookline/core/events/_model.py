"""Message and provider events, and ``context``: what goes to and comes from the model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hookline.core.events._base import Event
from hookline.core.messages import AssistantMessage


@dataclass(slots=True, kw_only=True)
class MessageStartEvent(Event):
    """An assistant message starts streaming from the model.

    Payload: ``message`` (the assistant message, empty so far).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "message_start"
    message: AssistantMessage


@dataclass(slots=True, kw_only=True)
class MessageUpdateEvent(Event):
    """A piece of the assistant message arrived while it streams.

    Payload: ``assistant_message_event`` (pi's event: ``text_start``/``text_delta``/
    ``text_end``, ``thinking_*``, ``toolcall_*``, with ``content_index`` and its
    ``delta``, or at the end the whole ``content``/``tool_call``), ``delta`` (its new
    text, ``""`` for a start or end), ``delta_type`` (``text`` | ``thinking`` |
    ``toolcall``), ``message`` (the message so far).

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "message_update"
    message: AssistantMessage
    delta: str
    delta_type: str = "text"
    assistant_message_event: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class MessageEndEvent(Event):
    """The assistant message is complete, before it is stored and acted on.

    Payload: ``message`` (the whole assistant message).

    Result: ``MessageEndResult`` (``text`` replaces the message's final text); a
    plain string is the new text.

    Combination: chained: each handler sees the previous rewrite; the last one is kept.
    """

    type: ClassVar[str] = "message_end"
    message: AssistantMessage


@dataclass(slots=True, kw_only=True)
class BeforeProviderRequestEvent(Event):
    """A request is about to be sent to the model provider.

    Payload: ``payload`` (the SDK request arguments, a copy), ``provider``
    (``anthropic``, ``openai`` or ``scripted``).

    Result: ``BeforeProviderRequestResult`` (``payload`` to send instead); a plain
    dict is the new payload.

    Combination: chained: each handler sees the previous replacement; the last one is sent.
    """

    type: ClassVar[str] = "before_provider_request"
    payload: dict[str, Any]
    provider: str = ""


@dataclass(slots=True, kw_only=True)
class AfterProviderResponseEvent(Event):
    """The model provider answered a request (before its stream is read).

    Payload: ``status`` (HTTP status), ``headers`` (response headers),
    ``request_id``, ``provider``.

    Result: none (a notification).

    Combination: every handler runs; failures are reported, the chain goes on.
    """

    type: ClassVar[str] = "after_provider_response"
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    request_id: str | None = None
    provider: str = ""
