"""OpenAI Chat Completions (streaming) through the official ``openai`` SDK.

Chat Completions rather than the Responses API because every
OpenAI-compatible server (vLLM, llama.cpp, Ollama, LM Studio …) speaks it;
point ``base_url`` at one. The SDK (~0.5 s) is imported in a thread from the
constructor on (``SdkImport``); the first request waits for it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hookline.agent.blocks import StreamBlocks, parse_tool_arguments
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
    ImageContent,
    Message,
    Usage,
    content_text,
)

API_KEY_ENV = "OPENAI_API_KEY"
#: Sent when ``base_url`` names a local server that wants no key (the SDK insists on one).
PLACEHOLDER_KEY = "not-needed"

_FINISH_REASONS = {
    "stop": "stop",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "length",
    "content_filter": "stop",
}
#: Error ``type``s of in-stream errors (no HTTP status) that a retry may fix.
_TRANSIENT_TYPES = ("server_error", "overloaded", "rate_limit", "timeout")


def find_api_key(api_key: str | None, model: str, base_url: str | None) -> str:
    """``api_key``, else ``OPENAI_API_KEY``, else (a local server at ``base_url``) a
    placeholder; neither is a ``ProviderError`` that names the variable to set."""
    key = api_key or os.environ.get(API_KEY_ENV) or (PLACEHOLDER_KEY if base_url else None)
    if not key:
        raise ProviderError(
            f"openai:{model} needs an API key: set the {API_KEY_ENV} environment variable "
            "(or pass --base-url for a local OpenAI-compatible server)",
            transient=False,
        )
    return key


class OpenAIProvider:
    """``openai:NAME`` — streams text to ``on_text``, returns the final message.

    ``headers`` go with every request (a registered provider's)."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 0,
        client: Any = None,
        prefetch: bool = False,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.model = model
        self.base_url = base_url
        # The SDK client is typed Any: it is imported lazily and our params are plain dicts.
        self._client: Any = client
        if client is not None:
            return
        self._sdk = SdkImport("openai", in_thread=prefetch)
        key = find_api_key(api_key, model, base_url)
        self._client_args: dict[str, Any] = {
            "api_key": key,
            "base_url": base_url,
            "max_retries": max_retries,
        }
        if headers:
            self._client_args["default_headers"] = dict(headers)

    async def _sdk_client(self) -> Any:
        """The SDK client, built at the first request once the SDK's import is done."""
        if self._client is None:
            openai = await self._sdk.loaded()
            self._client = openai.AsyncOpenAI(**self._client_args)
        return self._client

    @property
    def model_id(self) -> str:
        return f"openai:{self.model}"

    async def aclose(self) -> None:
        """Close the SDK client's HTTP connections (optional; not part of ``Provider``)."""
        if self._client is not None:
            await self._client.close()

    async def complete(
        self, request: ModelRequest, on_text: TextDelta | None = None
    ) -> AssistantMessage:
        """One streamed Chat Completions call; abort via ``request.signal``."""
        params = build_params(self.model, request, compat=self.base_url is not None)
        acc = _Accumulator(PartialReply(model=self.model))
        try:
            aborted, message = await run_abortable(
                self._stream(params, acc, on_text, request), request.signal
            )
        except Exception as exc:
            mapped = map_error(exc)
            if mapped is None:
                raise
            raise mapped from exc
        if aborted or message is None:
            return acc.partial.aborted()
        return message

    async def _stream(
        self,
        params: dict[str, Any],
        acc: _Accumulator,
        on_text: TextDelta | None,
        request: ModelRequest,
    ) -> AssistantMessage:
        if request.on_payload is not None:
            params = await request.on_payload(params, "openai")
        client = await self._sdk_client()
        raw = await client.chat.completions.with_raw_response.create(**params)
        if request.on_response is not None:
            headers = dict(raw.headers)
            await request.on_response(
                raw.status_code, headers, headers.get("x-request-id"), "openai"
            )
        stream = raw.parse()
        blocks = request.blocks or StreamBlocks(on_text=on_text)
        async with stream:
            async for chunk in stream:
                acc.add(chunk, blocks)
        blocks.end()
        return acc.message()


@dataclass(slots=True)
class _ToolCallParts:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Accumulator:
    """Streamed deltas gathered into one message (tool calls keyed by their index)."""

    partial: PartialReply
    calls: dict[int, _ToolCallParts] = field(default_factory=dict)
    finish_reason: str | None = None
    usage: Usage | None = None
    model: str | None = None

    def add(self, chunk: Any, blocks: StreamBlocks) -> None:
        self.model = getattr(chunk, "model", None) or self.model
        if getattr(chunk, "usage", None) is not None:
            u = chunk.usage
            details = getattr(u, "prompt_tokens_details", None)
            self.usage = usage_dict(
                input_tokens=u.prompt_tokens,
                output_tokens=u.completion_tokens,
                cache_read_tokens=getattr(details, "cached_tokens", None),
            )
        for choice in chunk.choices or []:
            if choice.index != 0:
                continue
            delta = choice.delta
            reasoning = getattr(delta, "reasoning_content", None) or getattr(
                delta, "reasoning", None
            )
            if isinstance(reasoning, str) and reasoning:
                self.partial.thinking.append(reasoning)
                blocks.thinking(reasoning)
            if delta.content:
                self.partial.text.append(delta.content)
                blocks.text(delta.content)
            for tc in delta.tool_calls or []:
                parts = self.calls.setdefault(tc.index, _ToolCallParts())
                parts.id = tc.id or parts.id
                if tc.function is not None:
                    parts.name = tc.function.name or parts.name
                blocks.tool_call(tc.index, parts.id or f"call_{tc.index}", parts.name)
                if tc.function is not None and tc.function.arguments:
                    parts.arguments.append(tc.function.arguments)
                    blocks.tool_arguments(tc.index, tc.function.arguments)
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason

    def message(self) -> AssistantMessage:
        content: list[AssistantContent] = []
        if self.partial.thinking:
            content.append({"type": "thinking", "thinking": "".join(self.partial.thinking)})
        if self.partial.text:
            content.append({"type": "text", "text": "".join(self.partial.text)})
        for index in sorted(self.calls):
            parts = self.calls[index]
            content.append(
                {
                    "type": "tool_call",
                    "id": parts.id or f"call_{index}",
                    "name": parts.name,
                    "arguments": parse_tool_arguments("".join(parts.arguments)),
                }
            )
        stop = _FINISH_REASONS.get(self.finish_reason or "", "stop")
        if self.calls and stop == "stop":
            stop = "tool_use"  # some compatible servers finish tool calls with "stop"
        message: AssistantMessage = {
            "role": "assistant",
            "content": content,
            "model": self.model or self.partial.model,
            "stop_reason": stop,
        }
        if self.usage is not None:
            message["usage"] = self.usage
        return message


# -- hookline → OpenAI ----------------------------------------------------------


def build_params(model: str, request: ModelRequest, *, compat: bool = False) -> dict[str, Any]:
    """The keyword arguments of ``client.chat.completions.create``.

    ``compat`` (a custom ``base_url``) sends ``max_tokens``, which compatible
    servers understand; api.openai.com gets ``max_completion_tokens``.
    """
    params: dict[str, Any] = {
        "model": model,
        "messages": to_openai_messages(request.system_prompt, request.messages),
        "stream": True,
        "stream_options": {"include_usage": True},
        ("max_tokens" if compat else "max_completion_tokens"): request.max_tokens,
    }
    if request.tools:
        params["tools"] = to_openai_tools(request.tools)
    effort = REASONING_EFFORT.get(request.thinking)
    if effort is not None:
        params["reasoning_effort"] = effort
    return params


#: ``ModelRequest.thinking`` → Chat Completions ``reasoning_effort`` (``off``: not sent).
REASONING_EFFORT = {
    "minimal": "minimal",
    "low": "low",
    "medium": "medium",
    "high": "high",
    "xhigh": "high",
}


def to_openai_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description,
                "parameters": t.json_schema() or {"type": "object", "properties": {}},
            },
        }
        for t in tools
    ]


def to_openai_messages(system_prompt: str, messages: list[Message]) -> list[dict[str, Any]]:
    """Chat messages: system first, tool results as role ``tool``, custom as user.

    Tool messages carry text only, so images a tool returned follow the tool
    results of that turn in one user message.
    """
    out: list[dict[str, Any]] = []
    if system_prompt:
        out.append({"role": "system", "content": system_prompt})
    tool_images: list[ImageContent] = []
    for msg in prepare_history(messages):
        if msg["role"] != "tool" and tool_images:
            out.append(_user(_image_note(tool_images)))
            tool_images = []
        if msg["role"] == "assistant":
            item = _assistant(msg)
            if item is not None:
                out.append(item)
        elif msg["role"] == "tool":
            images = [c for c in msg["content"] if c["type"] == "image"]
            tool_images.extend(images)  # type: ignore[arg-type]
            text = content_text(msg["content"]) or ("(image)" if images else "(no output)")
            out.append({"role": "tool", "tool_call_id": msg["tool_call_id"], "content": text})
        elif msg["role"] == "user":
            out.append(_user(msg["content"]))
        else:
            out.append(_user(custom_content(msg["content"])))
    if tool_images:
        out.append(_user(_image_note(tool_images)))
    return out


def _image_note(images: list[ImageContent]) -> list[Content]:
    return [{"type": "text", "text": "Images returned by the tool calls above:"}, *images]


def _user(content: list[Content]) -> dict[str, Any]:
    """A user message: a plain string when it is all text (what every server accepts)."""
    if all(c["type"] == "text" for c in content):
        return {"role": "user", "content": content_text(content)}
    parts: list[dict[str, Any]] = []
    for c in content:
        if c["type"] == "text":
            parts.append({"type": "text", "text": c["text"]})
        else:
            url = f"data:{c['mime_type']};base64,{c['data']}"
            parts.append({"type": "image_url", "image_url": {"url": url}})
    return {"role": "user", "content": parts}


def _assistant(msg: AssistantMessage) -> dict[str, Any] | None:
    text = "".join(c["text"] for c in msg["content"] if c["type"] == "text")
    calls = [
        {
            "id": c["id"],
            "type": "function",
            "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
        }
        for c in msg["content"]
        if c["type"] == "tool_call"
    ]
    if not text and not calls:
        return None
    item: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        item["tool_calls"] = calls
    return item


def map_error(exc: BaseException) -> ProviderError | None:
    """An SDK exception as a ``ProviderError`` (None for anything else)."""
    import openai

    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        code = getattr(exc, "code", None)
        text = f"openai error {status}: {_detail(exc)}"
        if status in (401, 403):
            text += f" (check {API_KEY_ENV})"
        transient = is_transient_status(status) and code != "insufficient_quota"
        retry_after = retry_after_seconds(getattr(exc, "response", None) and exc.response.headers)
        return ProviderError(text, transient=transient, status=status, retry_after=retry_after)
    if isinstance(exc, openai.APIConnectionError):  # includes timeouts
        return ProviderError(f"openai connection error: {exc}", transient=True)
    if isinstance(exc, openai.APIError):  # an error event inside the stream
        kind = str(getattr(exc, "type", None) or "")
        transient = any(t in kind for t in _TRANSIENT_TYPES)
        return ProviderError(
            f"openai error {kind}: {exc.message}".replace(" :", ":"), transient=transient
        )
    if isinstance(exc, openai.OpenAIError):
        return ProviderError(f"openai error: {exc}", transient=False)
    return None


def _detail(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
    return str(getattr(exc, "message", exc))
