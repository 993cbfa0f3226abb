"""``complete()``: one model call from a hook, through the agent's own provider code.

pi's ``complete`` / ``completeSimple`` from ``pi-ai``. The call goes through the
provider the registry gives (the agent's own for the session's model), with the
agent's ``before_provider_request`` / ``after_provider_response`` hooks, and
answers with the agent's message shape: content blocks, ``usage``,
``stop_reason`` (``stop``, ``tool_use``, ``length``, ``aborted``, ``error``).
As in pi, a failed call is a message (``stop_reason="error"``, ``error`` says
why), not a raise; only a model that cannot be built at all raises.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from hookline.agent.model_registry import ModelRef, ModelRegistry
from hookline.agent.provider import ModelRequest, ProviderError, TextDelta, ThinkingLevel, ToolSpec
from hookline.core.host import ModelRegistryView
from hookline.core.messages import AssistantMessage, Message

#: The answer's length when the call does not say, as the agent's own calls have it.
DEFAULT_MAX_TOKENS = 8192


async def complete(
    model: ModelRef,
    messages: Sequence[Message],
    *,
    registry: ModelRegistryView | None = None,
    system_prompt: str = "",
    tools: Sequence[ToolSpec] = (),
    api_key: str | None = None,
    max_tokens: int | None = None,
    reasoning: ThinkingLevel = "off",
    signal: asyncio.Event | None = None,
    on_text: TextDelta | None = None,
) -> AssistantMessage:
    """The model's answer to ``messages``.

    ``registry``: ``ctx.model_registry`` from a hook (the session's credentials and
    request hooks; without it, the environment's keys and no hooks). ``api_key``
    replaces the key the provider would find. ``signal`` aborts the call: the answer
    is what had streamed, with ``stop_reason="aborted"``. ``on_text`` gets the text
    as it streams.

    Raises ``ProviderError`` when the model cannot be built (a missing key: the
    message names the variable to set).
    """
    registry = _registry(registry)
    entry = registry.resolve(model)
    provider = registry.provider(entry, api_key)
    hooks = registry.hooks()
    request = ModelRequest(
        system_prompt,
        list(messages),
        list(tools),
        max_tokens=max_tokens or min(entry.max_tokens, DEFAULT_MAX_TOKENS),
        signal=signal,
        thinking=reasoning if entry.reasoning else "off",
        on_payload=hooks.on_payload,
        on_response=hooks.on_response,
    )
    try:
        message = await provider.complete(request, on_text)
    except ProviderError as exc:
        message = {
            "role": "assistant",
            "content": [],
            "model": entry.id,
            "stop_reason": "error",
            "error": str(exc),
        }
    message.setdefault("timestamp", time.time())
    return message


def _registry(given: ModelRegistryView | None) -> ModelRegistry:
    if given is None:
        return ModelRegistry.from_environment()
    if not isinstance(given, ModelRegistry):
        raise TypeError(
            f"complete(registry=...) takes ctx.model_registry, not {type(given).__name__}"
        )
    return given


#: pi's ``completeSimple``: ``complete`` already takes the one ``reasoning`` level every
#: provider maps to its own setting, so the two are the same call.
complete_simple = complete
