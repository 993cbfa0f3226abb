"""A deterministic model that replays a script of assistant turns.

It is the embedded default model: the demo, the tests and hook authors use it
to drive the agent through tool calls, errors and retries with no network.
The file format is in ``script_file``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookline.agent.blocks import StreamBlocks
from hookline.agent.provider import THINKING_LEVELS, ModelRequest, ProviderError, TextDelta
from hookline.agent.providers._common import PartialReply, run_abortable
from hookline.agent.providers.script_file import (
    SCRIPT_KEYS,
    ScriptedTurn,
    ScriptError,
    load_script,
    parse_turns,
)
from hookline.core.messages import (
    AssistantContent,
    AssistantMessage,
    Message,
    ToolCallContent,
    content_text,
)

__all__ = ["SCRIPT_KEYS", "ScriptError", "ScriptedProvider", "ScriptedTurn"]

_ENDED_TEXT = "(script ended)"
_WORDS_PER_CHUNK = 4
#: Characters per streamed piece of a tool call's argument JSON.
_JSON_CHUNK = 16


class ScriptedProvider:
    """Replays ``turns`` in order, one per ``complete()`` call.

    ``requests`` records every request it answered, so tests can check what
    the model was shown.
    """

    def __init__(self, path: str | Path) -> None:
        self._start(str(path), load_script(path))

    def _start(self, file: str, turns: list[ScriptedTurn]) -> None:
        self._file = file
        self._turns = turns
        self._next = 0
        self._calls = 0
        self.requests: list[ModelRequest] = []

    @classmethod
    def from_turns(
        cls, turns: Sequence[ScriptedTurn | Mapping[str, Any] | str], name: str = "<inline>"
    ) -> ScriptedProvider:
        """A provider from in-memory turns: a string is a text turn, a ``ScriptedTurn`` is
        played as it is, a mapping is validated like a file's turn."""
        self = cls.__new__(cls)
        self._start(name, parse_turns(turns, name))
        return self

    @property
    def model_id(self) -> str:
        return f"scripted:{self._file}"

    @property
    def remaining(self) -> int:
        """Turns not yet replayed."""
        return len(self._turns) - self._next

    async def complete(
        self, request: ModelRequest, on_text: TextDelta | None = None
    ) -> AssistantMessage:
        """The next turn as an assistant message (text streamed to ``on_text``).

        ``before_provider_request`` sees the request as a payload (``system``,
        ``messages``, ``tools``, ``thinking``); a replacement is what is recorded
        in ``requests`` (what this model "received").
        """
        if request.on_payload is not None:
            request = await _replayed_payload(request)
        self.requests.append(request)
        if request.on_response is not None:
            request_id = f"scripted-{self._next}"
            await request.on_response(200, {"x-request-id": request_id}, request_id, "scripted")
        if self._next >= len(self._turns):
            ended = ScriptedTurn(text=_ENDED_TEXT)
            return await self._play(ended, -1, request, on_text)
        index = self._next
        self._next += 1
        return await self._play(self._turns[index], index, request, on_text)

    async def _play(
        self, turn: ScriptedTurn, index: int, request: ModelRequest, on_text: TextDelta | None
    ) -> AssistantMessage:
        self._check_expectations(turn, index, request.messages)
        for needle in turn.expect_system_contains:
            if needle not in request.system_prompt:
                raise ProviderError(
                    f"script {self._file}: turns[{index}].expect_system_contains: expected the "
                    f"system prompt to contain {needle!r}, got {request.system_prompt[:200]!r}",
                    transient=False,
                )
        partial = PartialReply(model="scripted")
        blocks = request.blocks or StreamBlocks(on_text=on_text)
        aborted, message = await run_abortable(self._stream(turn, partial, blocks), request.signal)
        if aborted or message is None:
            return partial.aborted()
        return message

    async def _stream(
        self, turn: ScriptedTurn, partial: PartialReply, blocks: StreamBlocks
    ) -> AssistantMessage:
        """Streams like a real model: thinking, then text, then each tool call's JSON, in
        chunks (a ``delay_ms`` first)."""
        if turn.delay_ms:
            await asyncio.sleep(turn.delay_ms / 1000)
        for chunk in _chunks(turn.thinking or ""):
            partial.thinking.append(chunk)
            blocks.thinking(chunk)
            await asyncio.sleep(0)
        for chunk in _chunks(turn.text):
            partial.text.append(chunk)
            blocks.text(chunk)
            await asyncio.sleep(0)
        if turn.error is not None:
            err = turn.error  # a fresh exception per raise: no traceback carried over
            raise ProviderError(str(err), transient=err.transient, status=err.status)
        content: list[AssistantContent] = []
        if turn.thinking:
            content.append({"type": "thinking", "thinking": turn.thinking})
        if turn.text:
            content.append({"type": "text", "text": turn.text})
        for key, call in enumerate(turn.tool_calls):
            self._calls += 1
            block: ToolCallContent = {
                "type": "tool_call",
                "id": call.id or f"call_{self._calls}",
                "name": call.name,
                "arguments": json.loads(json.dumps(call.arguments)),
            }
            blocks.tool_call(key, block["id"], block["name"])
            for piece in _pieces(json.dumps(block["arguments"]), _JSON_CHUNK):
                blocks.tool_arguments(key, piece)
                await asyncio.sleep(0)
            content.append(block)
        blocks.end()
        message: AssistantMessage = {
            "role": "assistant",
            "content": content,
            "model": "scripted",
            "stop_reason": turn.stop_reason or ("tool_use" if turn.tool_calls else "stop"),
        }
        if turn.usage is not None:
            message["usage"] = dict(turn.usage)  # type: ignore[typeddict-item]
        return message

    def _check_expectations(self, turn: ScriptedTurn, index: int, messages: list[Message]) -> None:
        checks = (
            ("expect_user_contains", turn.expect_user_contains, ("user", "custom"), "user"),
            ("expect_tool_result_contains", turn.expect_tool_result_contains, ("tool",), "tool"),
        )
        for key, wanted, roles, label in checks:
            if not wanted:
                continue
            last = next((m for m in reversed(messages) if m["role"] in roles), None)
            seen = content_text(last["content"]) if last is not None else ""  # type: ignore[arg-type]
            for needle in wanted:
                if needle not in seen:
                    shown = repr(seen) if last is not None else f"no {label} message"
                    raise ProviderError(
                        f"script {self._file}: turns[{index}].{key}: expected the last "
                        f"{label} message to contain {needle!r}, got {shown}",
                        transient=False,
                    )


async def _replayed_payload(request: ModelRequest) -> ModelRequest:
    """The request after ``before_provider_request`` handlers rewrote its payload."""
    assert request.on_payload is not None
    payload: dict[str, Any] = {
        "model": "scripted",
        "system": request.system_prompt,
        "messages": list(request.messages),
        "tools": [{"name": t.name, "description": t.description} for t in request.tools],
        "thinking": request.thinking,
    }
    sent = await request.on_payload(payload, "scripted")
    if sent is payload:
        return request
    kept = {t.name for t in request.tools}
    names = {t.get("name") for t in sent.get("tools", []) if isinstance(t, dict)}
    level = str(sent.get("thinking", request.thinking))
    return dataclasses.replace(
        request,
        system_prompt=str(sent.get("system", request.system_prompt)),
        messages=list(sent.get("messages", request.messages)),
        tools=[t for t in request.tools if t.name in names & kept],
        # a level no model takes is not one this model was asked for
        thinking=level if level in THINKING_LEVELS else request.thinking,
    )


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _chunks(text: str) -> list[str]:
    """``text`` split on word boundaries into a few deltas that join back exactly."""
    tokens = re.findall(r"\s*\S+\s*|\s+", text)
    return [
        "".join(tokens[i : i + _WORDS_PER_CHUNK]) for i in range(0, len(tokens), _WORDS_PER_CHUNK)
    ]
