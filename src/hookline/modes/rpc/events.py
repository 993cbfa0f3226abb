"""hookline's stream payloads in pi's RPC vocabulary: camelCase names, pi's message shapes.

The agent publishes snake_case dicts (the JSON mode's contract); RPC mode
speaks the protocol pi's clients are written for. Only names chosen by
hookline are renamed: a tool's ``arguments``, a result's ``details`` and a
hook's own data keep their keys, since the tool or hook chose them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from hookline.agent.blocks import PartialMessage

#: Keys whose values are somebody else's data: never renamed inside.
_OPAQUE = frozenset({"arguments", "details", "input", "args", "data", "partial_result", "env"})
_ROLES = {"tool": "toolResult"}
_STOP_REASONS = {"tool_use": "toolUse"}
_BLOCKS = {"tool_call": "toolCall"}
_HAS_ARGS = frozenset({"tool_execution_start", "tool_execution_update"})
#: The event lines pi's RPC document lists: all a pi client is sent by default (hookline's
#: hook events, ``session_start``, ``tool_call`` ..., only when it asks: ``--rpc-events all``).
PI_EVENTS = frozenset(
    {
        "agent_start",
        "agent_end",
        "turn_start",
        "turn_end",
        "message_start",
        "message_update",
        "message_end",
        "tool_execution_start",
        "tool_execution_update",
        "tool_execution_end",
        "queue_update",
        "compaction_start",
        "compaction_end",
        "auto_retry_start",
        "auto_retry_end",
        "extension_error",
    }
)
#: hookline's automatic compaction events under pi's names.
_COMPACTION = {"auto_compaction_start": "compaction_start", "auto_compaction_end": "compaction_end"}


def camel(name: str) -> str:
    """``tool_call_id`` → ``toolCallId``; a name without ``_`` is unchanged."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def camel_keys(value: Mapping[str, Any]) -> dict[str, Any]:
    """A dict's own keys in camelCase (values untouched)."""
    return {camel(k): v for k, v in value.items()}


def wire_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """A hookline message as pi's ``AgentMessage``: roles, block types, ms timestamps."""
    out: dict[str, Any] = {}
    for key, value in message.items():
        if key == "role":
            out["role"] = _ROLES.get(value, value)
        elif key == "content" and isinstance(value, list):
            out["content"] = [_wire_block(b) if isinstance(b, Mapping) else b for b in value]
        elif key == "timestamp" and isinstance(value, int | float):
            out["timestamp"] = int(value * 1000)
        elif key == "stop_reason":
            out["stopReason"] = _STOP_REASONS.get(value, value)
        elif key == "usage" and isinstance(value, Mapping):
            out["usage"] = wire_usage(value)
        else:
            out[camel(key)] = value
    return out


def _wire_block(block: Mapping[str, Any]) -> dict[str, Any]:
    kind = block.get("type")
    out = camel_keys(block)
    if isinstance(kind, str):
        out["type"] = _BLOCKS.get(kind, kind)
    return out


def wire_usage(usage: Mapping[str, Any]) -> dict[str, Any]:
    """Token counts under pi's names (``input``, ``output``, ``cacheRead``, ``cacheWrite``)."""
    names = {
        "input_tokens": "input",
        "output_tokens": "output",
        "cache_read_tokens": "cacheRead",
        "cache_write_tokens": "cacheWrite",
    }
    return {names.get(k, camel(k)): v for k, v in usage.items()}


class PiWire:
    """Translates one agent's payloads in order; remembers an assistant message in flight.

    hookline publishes an assistant message when it is complete, after its
    block events; pi opens it first. So the first block event opens it
    (``message_start``), each is a ``message_update`` with the message so far,
    and the complete message only closes it. The agent's echoes of the
    ``message_start``/``message_update``/``message_end`` hook events are not
    sent: these lines are pi's.
    """

    def __init__(self) -> None:
        self._partial: PartialMessage | None = None  # the open assistant message
        #: The messages since ``agent_start`` and since ``turn_start``: pi's ``agent_end``
        #: and ``turn_end`` carry them (hookline's stream sent each once already).
        self._run: list[dict[str, Any]] = []
        self._turn: list[dict[str, Any]] = []
        #: The running automatic compaction's reason: pi's ``compaction_end`` repeats it.
        self._compaction_reason = "threshold"

    def lines(self, payload: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        """The pi RPC lines for one published payload."""
        kind = payload.get("type")
        if kind == "message" and isinstance(payload.get("message"), Mapping):
            message = wire_message(payload["message"])
            self._run.append(message)
            self._turn.append(message)
            if not (self._partial is not None and message.get("role") == "assistant"):
                yield {"type": "message_start", "message": message}
            self._partial = None
            yield {"type": "message_end", "message": message}
            return
        if kind == "assistant_message_event" and isinstance(payload.get("event"), Mapping):
            yield from self._update(payload["event"])
            return
        if kind in _SUPERSEDED:
            return
        line = wire_payload(payload)
        if kind in _COMPACTION:
            line["type"] = _COMPACTION[kind]
            if kind == "auto_compaction_start":
                self._compaction_reason = line.get("reason", "threshold")
            else:
                line.setdefault("reason", self._compaction_reason)
                line.setdefault("willRetry", False)
        if kind == "turn_start":
            self._turn = []
        elif kind == "turn_end":
            assistant = [m for m in self._turn if m.get("role") == "assistant"]
            line["message"] = assistant[-1] if assistant else None
            line["toolResults"] = [m for m in self._turn if m.get("role") == "toolResult"]
        elif kind == "agent_end":
            line["messages"], self._run = self._run, []  # from the prompt's message on
        yield line

    def _update(self, event: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        if self._partial is None:
            self._partial = PartialMessage()
            yield {"type": "message_start", "message": wire_message(self._partial.message())}
        self._partial.apply(event)
        partial = wire_message(self._partial.message())
        wired = camel_keys(event)
        if isinstance(event.get("tool_call"), Mapping):
            wired["toolCall"] = _wire_block(event["tool_call"])
        wired["partial"] = partial
        yield {"type": "message_update", "message": partial, "assistantMessageEvent": wired}


#: Payloads pi's lines replace: text deltas (in ``assistant_message_event``s) and the
#: hook events' echoes (the message lines are built from the messages themselves).
_SUPERSEDED = frozenset({"text_delta", "message_start", "message_update", "message_end"})


def wire_payload(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Any other payload: camelCase names; nested messages in pi's shape; opaque data kept."""
    out: dict[str, Any] = {}
    for key, value in payload.items():
        if key in ("message", "assistant_message") and isinstance(value, Mapping):
            out[camel(key)] = wire_message(value)
        elif key in ("messages", "messages_added", "tool_results") and isinstance(value, list):
            out[camel(key)] = [wire_message(m) if isinstance(m, Mapping) else m for m in value]
        elif key in _OPAQUE or not isinstance(value, Mapping):
            out[camel(key)] = value
        else:
            out[camel(key)] = wire_payload(value)
    if payload.get("type") in _HAS_ARGS and "input" in payload:
        out["args"] = out.pop("input")  # pi's name for a call's arguments
    if payload.get("type") == "auto_retry_start" and "error" in out:
        out["errorMessage"] = out.pop("error")  # pi's name
    return out
