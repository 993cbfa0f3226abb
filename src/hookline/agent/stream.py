"""The JSON/RPC event stream's shape: each line carries what is new, never lists already sent.

Every appended message is published once, as a ``message`` line. Events that
hold message lists are shown by reference to them:

- ``context`` (each model call): ``messages_added`` — the messages after the
  part of the list already published — and ``message_count``; when a hook
  rewrote the earlier part (or compaction did), ``messages`` holds the whole
  list once, with ``reset: true``. ``verbose_context`` (``--verbose-context``)
  puts the whole list on every call, for debugging and exact checks.
- ``turn_end``: ``turn_index``, the assistant's ``stop_reason`` and the
  ``tool_call_ids`` of its results (their content was in ``message`` lines).
- ``agent_end``: ``message_count`` and ``denials``.
- ``message_start`` / ``message_end``: the type only (the final message is its
  own ``message`` line); ``message_update``: the ``delta``, never the message so
  far.
- While a reply streams, each block step is an ``assistant_message_event`` line
  whose ``event`` is pi's (``thinking_start``/``_delta``/``_end``, ``text_*``,
  ``toolcall_*``, with ``content_index`` and the ``delta``; the ``*_end`` event
  the whole block): a reader rebuilds the message so far from them
  (``hookline.agent.blocks.PartialMessage``). The agent's ``text_delta``
  payloads (the text alone, for the terminal app) are not written: each delta
  is sent once.
- ``before_provider_request``: the ``provider`` and the payload's keys, not its
  messages (the ``context`` line has them).

So the stream grows with the work done, not with the square of the turns.
"""

from __future__ import annotations

from typing import Any

from hookline.core.events import (
    AgentEndEvent,
    BeforeProviderRequestEvent,
    Event,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    TurnEndEvent,
)
from hookline.core.messages import Message


class StreamShaper:
    """Turns events into stream payloads; remembers the last published context."""

    def __init__(self, verbose_context: bool = False) -> None:
        self.verbose_context = verbose_context
        self._published: list[Message] = []

    def event(self, event: Event) -> dict[str, Any]:
        if isinstance(event, TurnEndEvent):
            message = event.message
            return {
                "type": event.type,
                "turn_index": event.turn_index,
                "stop_reason": message.get("stop_reason") if message is not None else None,
                "tool_call_ids": [r["tool_call_id"] for r in event.tool_results],
            }
        if isinstance(event, MessageStartEvent | MessageEndEvent):
            return {"type": event.type}
        if isinstance(event, MessageUpdateEvent):
            return {"type": event.type, "delta": event.delta, "delta_type": event.delta_type}
        if isinstance(event, BeforeProviderRequestEvent):
            return {
                "type": event.type,
                "provider": event.provider,
                "payload_keys": sorted(event.payload),
            }
        if isinstance(event, AgentEndEvent):
            return {
                "type": event.type,
                "message_count": len(event.messages),
                "denials": event.denials,
            }
        return event.to_dict()

    def context(self, messages: list[Message]) -> dict[str, Any]:
        """The ``context`` line of one model call (see the module doc)."""
        previous, self._published = self._published, list(messages)
        count = len(messages)
        if self.verbose_context:
            return {"type": "context", "messages": messages, "message_count": count}
        kept = len(previous)
        if kept <= count and all(
            a is b or a == b for a, b in zip(previous, messages[:kept], strict=True)
        ):
            return {"type": "context", "messages_added": messages[kept:], "message_count": count}
        return {"type": "context", "messages": messages, "message_count": count, "reset": True}
