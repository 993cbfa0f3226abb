"""The two steps of a turn, each an object the ``Agent`` owns: a model call and a tool call.

Each step gets what varies per call (provider, prompt, messages, tools, the
abort signal) as arguments, and what is fixed for the agent's life (the
runner, the event sink) at construction; the loop in ``Agent`` reads as the
lifecycle diagram.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hookline.agent.provider import ModelRequest, Provider, ProviderError, ToolSpec
from hookline.agent.providers.retry import complete_with_retry
from hookline.agent.stream import StreamShaper
from hookline.core.events import (
    AutoRetryEndEvent,
    AutoRetryStartEvent,
    Event,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
)
from hookline.core.messages import (
    AssistantMessage,
    Message,
    ToolCallContent,
    ToolResultMessage,
    content_text,
    text,
)
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolResult
from hookline.tools.pipeline import Denial, SubagentRef, ToolPipeline

Emit = Callable[[Event], Awaitable[Any]]
Publish = Callable[[dict[str, Any]], None]
Spawn = Callable[[Coroutine[Any, Any, Any]], "asyncio.Task[Any]"]


@dataclass(slots=True)
class RetryPolicy:
    """How often a failed model call is retried, and the first back-off delay."""

    max_attempts: int = 3
    base_delay: float = 0.5


class ModelStep:
    """One model call: the ``context`` chain, the request, retries with their events."""

    def __init__(
        self,
        runner: HookRunner,
        emit: Emit,
        publish: Publish,
        listening: Callable[[], bool],
        retry: RetryPolicy,
        stream: StreamShaper,
    ) -> None:
        self.runner = runner
        self.emit = emit
        self.publish = publish
        self.listening = listening
        self.retry = retry
        self.stream = stream

    async def call(
        self,
        provider: Provider,
        system_prompt: str,
        messages: list[Message],
        tools: Sequence[Tool],
        signal: asyncio.Event,
    ) -> AssistantMessage:
        """The assistant's reply; a provider failure becomes an error message, never a raise."""
        if self.runner.has_handlers("context"):
            messages = await self.runner.emit_context(messages)
        if self.listening():
            self.publish(self.stream.context(messages))
        specs = [ToolSpec(t.name, t.description, t.parameters) for t in tools]
        request = ModelRequest(system_prompt, messages, specs, signal=signal)

        async def retry_start(attempt: int, max_attempts: int, delay_ms: int, error: str) -> None:
            await self.emit(
                AutoRetryStartEvent(
                    attempt=attempt, max_attempts=max_attempts, delay_ms=delay_ms, error=error
                )
            )

        async def retry_end(success: bool, attempt: int, final_error: str | None) -> None:
            await self.emit(
                AutoRetryEndEvent(success=success, attempt=attempt, final_error=final_error)
            )

        def on_text(delta: str) -> None:
            if self.listening():
                self.publish({"type": "text_delta", "text": delta})

        try:
            return await complete_with_retry(
                provider,
                request,
                on_text,
                max_attempts=self.retry.max_attempts,
                base_delay=self.retry.base_delay,
                on_retry_start=retry_start,
                on_retry_end=retry_end,
            )
        except ProviderError as exc:
            self.runner.context.ui.notify(f"model error: {exc}", "error")
            return {
                "role": "assistant",
                "content": [{"type": "text", "text": f"[model error: {exc}]"}],
                "model": provider.model_id,
                "stop_reason": "error",
                "error": str(exc),
                "timestamp": time.time(),
            }


class ToolStep:
    """One tool call with its execution events around the pipeline."""

    def __init__(
        self,
        runner: HookRunner,
        pipeline: ToolPipeline,
        emit: Emit,
        listening: Callable[[], bool],
        spawn: Spawn,
    ) -> None:
        self.runner = runner
        self.pipeline = pipeline
        self.emit = emit
        self.listening = listening
        self.spawn = spawn

    async def run(
        self,
        call: ToolCallContent,
        tools: Mapping[str, Tool],
        signal: asyncio.Event,
        agent: SubagentRef | None = None,
    ) -> tuple[ToolResultMessage, Denial | None]:
        """The result message for the model, and the denial when the call did not run.

        ``agent``: the sub-agent making the call (its tool events carry its id and type).
        """
        name, call_id, args = call["name"], call["id"], dict(call.get("arguments") or {})
        await self.emit(ToolExecutionStartEvent(tool_name=name, tool_call_id=call_id, input=args))
        tool = tools.get(name)
        # Updates come from a sync callback, so each is emitted by a task; every task waits
        # for the one before it, and the end event waits for the last: hooks see them in order.
        last_update: list[asyncio.Task[Any]] = []

        def on_update(partial: ToolResult) -> None:
            if self.listening() or self.runner.has_handlers("tool_execution_update"):
                event = ToolExecutionUpdateEvent(
                    tool_name=name,
                    tool_call_id=call_id,
                    input=args,
                    partial_result=content_text(partial.content),
                )
                previous = last_update.pop() if last_update else None
                last_update.append(self.spawn(self._emit_after(previous, event)))

        denial: Denial | None = None
        if tool is None:
            known = ", ".join(tools)
            result = ToolResult(
                [text(f"unknown tool {name!r}; available: {known}")], None, is_error=True
            )
        else:
            outcome = await self.pipeline.run(tool, call_id, args, signal, on_update, agent=agent)
            result, denial = outcome.result, outcome.denial
        if last_update:
            await asyncio.wait(last_update)
        message: ToolResultMessage = {
            "role": "tool",
            "tool_call_id": call_id,
            "tool_name": name,
            "content": result.content,
            "details": result.details,
            "is_error": result.is_error,
            "timestamp": time.time(),
        }
        await self.emit(
            ToolExecutionEndEvent(
                tool_name=name,
                tool_call_id=call_id,
                result=content_text(result.content),
                is_error=result.is_error,
            )
        )
        return message, denial

    async def _emit_after(self, previous: asyncio.Task[Any] | None, event: Event) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        await self.emit(event)
