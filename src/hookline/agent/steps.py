"""The two steps of a turn: one model call, and one tool call with its execution events.

Mixed into ``Agent``; kept apart so the loop reads as the lifecycle diagram.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from hookline.agent.gate import PermissionGate
from hookline.agent.provider import ModelRequest, Provider, ProviderError, ToolSpec
from hookline.agent.providers.retry import complete_with_retry
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
    ToolCallContent,
    ToolResultMessage,
    content_text,
    text,
)
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolResult
from hookline.session import SessionManager
from hookline.tools.pipeline import Denial, ToolPipeline


class TurnSteps:
    """Model and tool steps; ``Agent`` provides the state they read."""

    provider: Provider
    runner: HookRunner
    session: SessionManager
    tools: dict[str, Tool]
    system_prompt: str
    gate: PermissionGate
    pipeline: ToolPipeline
    denials: list[Denial]
    max_retries: int
    retry_base_delay: float
    _listeners: list[Callable[[dict[str, Any]], None]]
    _abort: asyncio.Event

    async def emit(self, event: Event) -> Any:  # provided by Agent
        raise NotImplementedError

    def publish(self, payload: dict[str, Any]) -> None:  # provided by Agent
        raise NotImplementedError

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:  # provided by Agent
        raise NotImplementedError

    async def _call_model(self) -> AssistantMessage:
        messages = self.session.build_context_messages()
        if self.runner.has_handlers("context"):
            messages = await self.runner.emit_context(messages)
        if self._listeners:
            self.publish({"type": "context", "messages": messages})
        specs = [ToolSpec(t.name, t.description, t.parameters) for t in self.tools.values()]
        request = ModelRequest(self.system_prompt, messages, specs, signal=self._abort)

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
            if self._listeners:
                self.publish({"type": "text_delta", "text": delta})

        try:
            return await complete_with_retry(
                self.provider,
                request,
                on_text,
                max_attempts=self.max_retries,
                base_delay=self.retry_base_delay,
                on_retry_start=retry_start,
                on_retry_end=retry_end,
            )
        except ProviderError as exc:
            self.runner.context.ui.notify(f"model error: {exc}", "error")
            return {
                "role": "assistant",
                "content": [{"type": "text", "text": f"[model error: {exc}]"}],
                "model": self.provider.model_id,
                "stop_reason": "error",
                "error": str(exc),
                "timestamp": time.time(),
            }

    async def _run_tool(self, call: ToolCallContent) -> ToolResultMessage:
        name, call_id, args = call["name"], call["id"], dict(call.get("arguments") or {})
        await self.emit(ToolExecutionStartEvent(tool_name=name, tool_call_id=call_id, input=args))
        tool = self.tools.get(name)
        # Updates come from a sync callback, so each is emitted by a task; every task waits
        # for the one before it, and the end event waits for the last: hooks see them in order.
        last_update: list[asyncio.Task[Any]] = []

        def on_update(partial: ToolResult) -> None:
            if self._listeners or self.runner.has_handlers("tool_execution_update"):
                event = ToolExecutionUpdateEvent(
                    tool_name=name,
                    tool_call_id=call_id,
                    input=args,
                    partial_result=content_text(partial.content),
                )
                previous = last_update.pop() if last_update else None
                last_update.append(self._spawn(self._emit_after(previous, event)))

        if tool is None:
            known = ", ".join(self.tools)
            result = ToolResult(
                [text(f"unknown tool {name!r}; available: {known}")], None, is_error=True
            )
        else:
            outcome = await self.pipeline.run(tool, call_id, args, self._abort, on_update)
            result = outcome.result
            if outcome.denial is not None:
                self.denials.append(outcome.denial)
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
        return message

    async def _emit_after(self, previous: asyncio.Task[Any] | None, event: Event) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        await self.emit(event)
