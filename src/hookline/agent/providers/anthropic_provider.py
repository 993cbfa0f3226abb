"""``anthropic:NAME``: the Messages API, streamed, spoken over ``httpx2``.

No SDK: ``anthropic_http`` sends the request and reads its events (the SDK's
import alone took longer than the rest of start-up), ``anthropic_events``
folds them into the message. The conversion functions here are pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from hookline.agent.blocks import StreamBlocks
from hookline.agent.provider import ModelRequest, TextDelta, ToolSpec
from hookline.agent.providers._common import (
    PartialReply,
    custom_content,
    prepare_history,
    run_abortable,
)
from hookline.agent.providers.anthropic_events import StreamedMessage
from hookline.agent.providers.anthropic_http import Credentials, MessagesApi, messages_url
from hookline.agent.providers.sdk_import import SdkImport
from hookline.core.messages import AssistantContent, AssistantMessage, Content, Message


class AnthropicProvider:
    """``anthropic:NAME`` — streams text to ``on_text``, returns the final message.

    The key is ``api_key``, else ``ANTHROPIC_API_KEY``, else ``ANTHROPIC_AUTH_TOKEN``
    (a bearer token); the base URL ``base_url``, else ``ANTHROPIC_BASE_URL``. A
    failed call raises a ``ProviderError``; ``complete_with_retry`` retries the
    transient ones. ``prefetch``: import ``httpx2`` in a thread until the first
    request (the terminal app, which reads keys meanwhile), else now. ``headers`` go
    with every request, over the provider's own (a registered provider's).
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        prefetch: bool = False,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.model = model
        credentials = Credentials.find(api_key, model)
        http = SdkImport("httpx2", in_thread=prefetch)
        self._api = MessagesApi(messages_url(base_url), credentials, http, headers)

    @property
    def model_id(self) -> str:
        return f"anthropic:{self.model}"

    async def aclose(self) -> None:
        """Close the HTTP connections (optional; not part of ``Provider``)."""
        await self._api.aclose()

    async def complete(
        self, request: ModelRequest, on_text: TextDelta | None = None
    ) -> AssistantMessage:
        """One streamed Messages API call; abort via ``request.signal``."""
        params = build_params(self.model, request)
        partial = PartialReply(model=self.model)
        aborted, message = await run_abortable(
            self._stream(params, partial, on_text, request), request.signal
        )
        if aborted or message is None:
            return partial.aborted()
        return message

    async def _stream(
        self,
        params: dict[str, Any],
        partial: PartialReply,
        on_text: TextDelta | None,
        request: ModelRequest,
    ) -> AssistantMessage:
        if request.on_payload is not None:
            params = await request.on_payload(params, "anthropic")
        async with self._api.stream({**params, "stream": True}) as events:
            if request.on_response is not None:
                headers = events.headers
                await request.on_response(
                    events.status_code, headers, headers.get("request-id"), "anthropic"
                )
            blocks = request.blocks or StreamBlocks(on_text=on_text)
            reply = StreamedMessage(self.model, partial, blocks)
            async for event in events:
                reply.add(event)
        return reply.result()


# -- hookline → Anthropic -------------------------------------------------------


def build_params(model: str, request: ModelRequest) -> dict[str, Any]:
    """The Messages API request body, what payload hooks see (``stream`` is added when it
    is sent)."""
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": request.max_tokens,
        "messages": to_anthropic_messages(request.messages),
    }
    if request.system_prompt:
        params["system"] = request.system_prompt
    if request.tools:
        params["tools"] = to_anthropic_tools(request.tools)
    budget = THINKING_BUDGET.get(request.thinking)
    if budget is not None:
        # The budget must stay below max_tokens; the answer needs room after it.
        params["max_tokens"] = max(request.max_tokens, budget + 4096)
        params["thinking"] = {"type": "enabled", "budget_tokens": budget}
    return params


#: ``ModelRequest.thinking`` → extended thinking's ``budget_tokens`` (``off``: not sent).
THINKING_BUDGET = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384, "xhigh": 32768}


def to_anthropic_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "name": t.name,
            "description": t.description,
            "input_schema": t.json_schema() or {"type": "object", "properties": {}},
        }
        for t in tools
    ]


def to_anthropic_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Anthropic ``messages``: alternating roles, tool results as user ``tool_result`` blocks.

    Consecutive messages of one role are merged (tool results of one turn go
    in one user message, before any text, as the API requires).
    """
    out: list[dict[str, Any]] = []
    for msg in prepare_history(messages):
        if msg["role"] == "assistant":
            _append(out, "assistant", [b for b in map(_assistant_block, msg["content"]) if b])
        elif msg["role"] == "tool":
            result: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": msg["tool_call_id"],
                "is_error": bool(msg["is_error"]),
            }
            blocks = _blocks(msg["content"])
            if blocks:
                result["content"] = blocks
            _append(out, "user", [result])
        elif msg["role"] == "user":
            _append(out, "user", _blocks(msg["content"]))
        else:
            _append(out, "user", _blocks(custom_content(msg["content"])))
    for item in out:
        if item["role"] == "user":
            item["content"].sort(key=lambda b: b["type"] != "tool_result")
    return out


def _append(out: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    if not blocks:
        return
    if out and out[-1]["role"] == role:
        out[-1]["content"].extend(blocks)
    else:
        out.append({"role": role, "content": blocks})


def _blocks(content: list[Content]) -> list[dict[str, Any]]:
    return [b for b in map(_content_block, content) if b is not None]


def _content_block(block: Content) -> dict[str, Any] | None:
    if block["type"] == "text":
        return {"type": "text", "text": block["text"]} if block["text"] else None
    source = {"type": "base64", "media_type": block["mime_type"], "data": block["data"]}
    return {"type": "image", "source": source}


def _assistant_block(block: AssistantContent) -> dict[str, Any] | None:
    if block["type"] == "text":
        return {"type": "text", "text": block["text"]} if block["text"] else None
    if block["type"] == "thinking":
        # Only thinking Anthropic signed can be sent back; other thinking is dropped.
        signature = cast(dict[str, Any], block).get("signature")
        if not signature:
            return None
        return {"type": "thinking", "thinking": block["thinking"], "signature": signature}
    return {
        "type": "tool_use",
        "id": block["id"],
        "name": block["name"],
        "input": block["arguments"],
    }
