"""Anthropic Messages API through the official ``anthropic`` SDK (streaming).

The SDK is never imported at module import: it costs ~1.2 s and only a run
that uses this model pays it. The constructor starts importing it in a thread
(``SdkImport``) and the first request waits for it, so start-up overlaps it.
The conversion functions are pure and SDK-free.
"""

from __future__ import annotations

import os
from typing import Any, cast

from hookline.agent.blocks import StreamBlocks
from hookline.agent.provider import ModelRequest, ProviderError, TextDelta, ToolSpec
from hookline.agent.providers._common import (
    PartialReply,
    custom_content,
    is_transient_status,
    prepare_history,
    retry_after_seconds,
    run_abortable,
    usage_dict,
)
from hookline.agent.providers.sdk_import import SdkImport
from hookline.core.messages import (
    AssistantContent,
    AssistantMessage,
    Content,
    Message,
    ThinkingContent,
)

API_KEY_ENV = "ANTHROPIC_API_KEY"

_STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "refusal": "stop",
    "tool_use": "tool_use",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
}
#: In-stream ``event: error`` arrives on an HTTP 200; these give it the status it stands for.
_ERROR_TYPE_STATUS = {"overloaded_error": 529, "api_error": 500, "rate_limit_error": 429}


class AnthropicProvider:
    """``anthropic:NAME`` — streams text to ``on_text``, returns the final message.

    ``max_retries`` is the SDK's own retry count; it defaults to 0 so retries
    go through ``complete_with_retry`` and are reported as events.
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 0,
        client: Any = None,
        prefetch: bool = False,
    ) -> None:
        self.model = model
        # The SDK client is typed Any: it is imported lazily and our params are plain dicts.
        self._client: Any = client
        if client is not None:
            return
        self._sdk = SdkImport("anthropic", in_thread=prefetch)
        key = api_key or os.environ.get(API_KEY_ENV)
        if not key:
            raise ProviderError(
                f"anthropic:{model} needs an API key: set the {API_KEY_ENV} environment variable",
                transient=False,
            )
        self._client_args = {"api_key": key, "base_url": base_url, "max_retries": max_retries}

    async def _sdk_client(self) -> Any:
        """The SDK client, built at the first request once the SDK's import is done."""
        if self._client is None:
            anthropic = await self._sdk.loaded()
            self._client = anthropic.AsyncAnthropic(**self._client_args)
        return self._client

    @property
    def model_id(self) -> str:
        return f"anthropic:{self.model}"

    async def aclose(self) -> None:
        """Close the SDK client's HTTP connections (optional; not part of ``Provider``)."""
        if self._client is not None:
            await self._client.close()

    async def complete(
        self, request: ModelRequest, on_text: TextDelta | None = None
    ) -> AssistantMessage:
        """One streamed Messages API call; abort via ``request.signal``."""
        params = build_params(self.model, request)
        partial = PartialReply(model=self.model)
        try:
            aborted, message = await run_abortable(
                self._stream(params, partial, on_text, request), request.signal
            )
        except Exception as exc:
            mapped = map_error(exc)
            if mapped is None:
                raise
            raise mapped from exc
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
        client = await self._sdk_client()
        async with client.messages.stream(**params) as stream:
            if request.on_response is not None:
                headers = dict(stream.response.headers)
                await request.on_response(
                    stream.response.status_code, headers, headers.get("request-id"), "anthropic"
                )
            blocks = request.blocks or StreamBlocks(on_text=on_text)
            async for event in stream:
                _on_event(event, partial, blocks)
            final = await stream.get_final_message()
        blocks.end()
        return from_anthropic_message(final, self.model)


def _on_event(event: Any, partial: PartialReply, blocks: StreamBlocks) -> None:
    """One raw stream event: content blocks start, grow (text, thinking, tool JSON), stop."""
    if event.type == "content_block_start":
        block = event.content_block
        if block.type == "tool_use":
            blocks.tool_call(event.index, block.id, block.name)
    elif event.type == "content_block_delta":
        delta = event.delta
        if delta.type == "text_delta":
            partial.text.append(delta.text)
            blocks.text(delta.text)
        elif delta.type == "thinking_delta":
            partial.thinking.append(delta.thinking)
            blocks.thinking(delta.thinking)
        elif delta.type == "input_json_delta":
            blocks.tool_arguments(event.index, delta.partial_json)
    elif event.type == "content_block_stop":
        blocks.end()


# -- hookline → Anthropic -------------------------------------------------------


def build_params(model: str, request: ModelRequest) -> dict[str, Any]:
    """The keyword arguments of ``client.messages.stream``."""
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


# -- Anthropic → hookline -------------------------------------------------------


def from_anthropic_message(final: Any, model: str) -> AssistantMessage:
    """The SDK's final ``Message`` as a hookline assistant message."""
    content: list[AssistantContent] = []
    for block in final.content:
        if block.type == "text":
            content.append({"type": "text", "text": block.text})
        elif block.type == "thinking":
            # ``signature`` rides along (not in ThinkingContent) so the block can be sent back.
            thinking = {
                "type": "thinking",
                "thinking": block.thinking,
                "signature": block.signature,
            }
            content.append(cast(ThinkingContent, thinking))
        elif block.type == "tool_use":
            args = block.input if isinstance(block.input, dict) else {"input": block.input}
            content.append(
                {"type": "tool_call", "id": block.id, "name": block.name, "arguments": dict(args)}
            )
    message: AssistantMessage = {
        "role": "assistant",
        "content": content,
        "model": getattr(final, "model", None) or model,
        "stop_reason": _STOP_REASONS.get(final.stop_reason or "", "stop"),
    }
    usage = getattr(final, "usage", None)
    if usage is not None:
        message["usage"] = usage_dict(
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cache_read_tokens=getattr(usage, "cache_read_input_tokens", None),
            cache_write_tokens=getattr(usage, "cache_creation_input_tokens", None),
        )
    return message


def map_error(exc: BaseException) -> ProviderError | None:
    """An SDK exception as a ``ProviderError`` (None for anything else)."""
    import anthropic

    if isinstance(exc, anthropic.APIStatusError):
        kind = getattr(exc, "type", None) or _body_error_type(exc.body)
        status: int | None = exc.status_code
        if status is None or status < 400:
            status = _ERROR_TYPE_STATUS.get(kind or "")
        detail = getattr(exc, "api_message", None) or exc.message
        text = f"anthropic error {status or ''} {kind or ''}: {detail}".replace("  ", " ")
        if status in (401, 403):
            text += f" (check {API_KEY_ENV})"
        transient = is_transient_status(status) or kind in _ERROR_TYPE_STATUS
        retry_after = retry_after_seconds(getattr(exc, "response", None) and exc.response.headers)
        return ProviderError(text, transient=transient, status=status, retry_after=retry_after)
    if isinstance(exc, anthropic.APIConnectionError):  # includes timeouts
        return ProviderError(f"anthropic connection error: {exc}", transient=True)
    if isinstance(exc, anthropic.AnthropicError):
        return ProviderError(f"anthropic error: {exc}", transient=False)
    return None


def _body_error_type(body: object) -> str | None:
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("type"), str):
            return str(error["type"])
    return None
