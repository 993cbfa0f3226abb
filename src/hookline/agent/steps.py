"""The two steps of a turn, each an object the ``Agent`` owns: ``ModelStep`` (a model
call) and ``ToolExecution`` (one tool-call block of the reply, run and reported).

The tool call itself is ``hookline.core.pipeline.ToolPipeline``; ``ToolExecution``
is what the agent loop adds around it. Each step gets what varies per call
(provider, prompt, messages, tools, the abort signal) as arguments, and what is
fixed for the agent's life (the runner, the event sink) at construction; the
loop in ``Agent`` reads as the lifecycle diagram.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookline.agent.blocks import StreamBlocks, block_kind
from hookline.agent.provider import (
    ModelRequest,
    PayloadHook,
    Provider,
    ProviderError,
    ResponseHook,
    ThinkingLevel,
    ToolSpec,
)
from hookline.agent.providers.retry import complete_with_retry
from hookline.agent.stream import StreamShaper
from hookline.core.api import StreamRule
from hookline.core.events import (
    AfterProviderResponseEvent,
    AutoRetryEndEvent,
    AutoRetryStartEvent,
    BeforeProviderRequestEvent,
    Event,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
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
from hookline.core.pipeline import Denial, SubagentRef, ToolPipeline
from hookline.core.runner import HookRunner
from hookline.core.tool import Tool, ToolResult

Emit = Callable[[Event], Awaitable[Any]]
Publish = Callable[[dict[str, Any]], None]
Spawn = Callable[[Coroutine[Any, Any, Any]], "asyncio.Task[Any]"]


@dataclass(slots=True)
class RetryPolicy:
    """How often a failed model call is retried, and the first back-off delay.

    ``enabled`` off (RPC's ``set_auto_retry``): a transient error ends the call like
    any other. ``cancel_wait`` (``abort_retry``) ends a back-off wait in progress:
    that call's retries stop and its error stands; the run is not aborted.
    """

    max_attempts: int = 3
    base_delay: float = 0.5
    enabled: bool = True
    #: Set to cancel the back-off wait in progress (``complete_with_retry``'s ``cancel_retry``).
    cancel_signal: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def attempts(self) -> int:
        """Calls allowed per model call now."""
        return self.max_attempts if self.enabled else 1

    def cancel_wait(self) -> None:
        self.cancel_signal.set()


@dataclass(slots=True)
class ModelReply:
    """A model call's answer; ``rule`` is the stream rule that cut it short, if one did."""

    message: AssistantMessage
    rule: StreamRule | None = None
    matched_text: str = ""


class _RuleWatch:
    """Watches the streamed text for the first stream rule that matches."""

    def __init__(self, rules: Sequence[StreamRule], stop: asyncio.Event) -> None:
        self.rules = rules
        self.stop = stop
        self.text = ""
        self.rule: StreamRule | None = None
        self.matched = ""

    def feed(self, delta: str) -> None:
        if self.rule is not None:
            return
        self.text += delta
        for rule in self.rules:
            match = rule.pattern.search(self.text)
            if match is not None:
                self.rule, self.matched = rule, match.group(0)
                self.stop.set()
                return


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
        *,
        rules: Sequence[StreamRule] = (),
        thinking: ThinkingLevel = "off",
    ) -> ModelReply:
        """The assistant's reply; a provider failure becomes an error message, never a raise.

        With ``rules``, the streamed text is watched: the first rule that matches
        cuts the stream (the reply's ``rule`` says which).
        """
        if self.runner.has_handlers("context"):
            messages = await self.runner.emit_context(messages)
        if self.listening():
            self.publish(self.stream.context(messages))
        specs = [ToolSpec(t.name, t.description, t.parameters) for t in tools]
        stop = signal
        link: asyncio.Task[Any] | None = None
        watch: _RuleWatch | None = None
        if rules:
            stop = asyncio.Event()
            link = asyncio.ensure_future(_relay(signal, stop))
            watch = _RuleWatch(rules, stop)
        events = MessageEvents(self.emit) if self._message_hooks() else None
        response_hooks = self.runner.has_handlers("after_provider_response")

        async def on_response(
            status: int | None, headers: dict[str, str], request_id: str | None, name: str
        ) -> None:
            if response_hooks:
                await self._on_response(status, headers, request_id, name)
            if events is not None:
                await events.start()

        def on_text(delta: str) -> None:
            if self.listening():
                self.publish({"type": "text_delta", "text": delta})
            if watch is not None:
                watch.feed(delta)

        def on_block(event: dict[str, Any]) -> None:
            if self.listening():
                self.publish({"type": "assistant_message_event", "event": event})
            if events is not None:
                events.update(event, blocks.partial.message())

        blocks = StreamBlocks(on_block, on_text)

        request = ModelRequest(
            system_prompt,
            messages,
            specs,
            signal=stop,
            thinking=thinking,
            on_payload=self.payload_hook(),
            on_response=on_response if response_hooks or events is not None else None,
            blocks=blocks,
        )

        async def retry_start(attempt: int, max_attempts: int, delay_ms: int, error: str) -> None:
            blocks.restart()
            await self.emit(
                AutoRetryStartEvent(
                    attempt=attempt, max_attempts=max_attempts, delay_ms=delay_ms, error=error
                )
            )

        async def retry_end(success: bool, attempt: int, final_error: str | None) -> None:
            await self.emit(
                AutoRetryEndEvent(success=success, attempt=attempt, final_error=final_error)
            )

        try:
            message = await complete_with_retry(
                provider,
                request,
                blocks.text,
                max_attempts=self.retry.attempts,
                base_delay=self.retry.base_delay,
                on_retry_start=retry_start,
                on_retry_end=retry_end,
                cancel_retry=self.retry.cancel_signal,
            )
        except ProviderError as exc:
            self.runner.context.ui.notify(f"model error: {exc}", "error")
            message = {
                "role": "assistant",
                "content": [{"type": "text", "text": f"[model error: {exc}]"}],
                "model": provider.model_id,
                "stop_reason": "error",
                "error": str(exc),
                "timestamp": time.time(),
            }
        finally:
            blocks.end()
            if link is not None:
                link.cancel()
        if watch is not None and watch.rule is not None and not signal.is_set():
            if events is not None:
                await events.drain()  # the cut reply's updates, before the retry's events
            return ModelReply(message, watch.rule, watch.matched)
        if events is not None:
            message = await events.end(message)
        return ModelReply(message)

    def payload_hook(self) -> PayloadHook | None:
        """``before_provider_request`` for a request about to be built; None when no hook
        listens (the payload is then never handed out)."""
        return self._on_payload if self.runner.has_handlers("before_provider_request") else None

    def response_hook(self) -> ResponseHook | None:
        """``after_provider_response`` for a request about to be built; None when no hook
        listens."""
        return self._on_response if self.runner.has_handlers("after_provider_response") else None

    def _message_hooks(self) -> bool:
        return any(
            self.runner.has_handlers(name)
            for name in ("message_start", "message_update", "message_end")
        )

    async def _on_payload(self, payload: dict[str, Any], provider: str) -> dict[str, Any]:
        result = await self.emit(BeforeProviderRequestEvent(payload=payload, provider=provider))
        if result is None:
            return payload
        from hookline.core.results import BeforeProviderRequestResult  # loaded: a hook answered

        if isinstance(result, BeforeProviderRequestResult) and result.payload is not None:
            return result.payload
        return payload

    async def _on_response(
        self, status: int | None, headers: dict[str, str], request_id: str | None, provider: str
    ) -> None:
        await self.emit(
            AfterProviderResponseEvent(
                status=status, headers=headers, request_id=request_id, provider=provider
            )
        )


async def _relay(source: asyncio.Event, target: asyncio.Event) -> None:
    await source.wait()
    target.set()


class MessageEvents:
    """``message_start`` / ``message_update`` / ``message_end`` for one streamed reply.

    Deltas arrive on a sync callback, so each update is emitted by a task that
    waits for the one before it; ``end`` waits for the last: hooks see them in order.
    """

    def __init__(self, emit: Emit) -> None:
        self.emit = emit
        self._last: asyncio.Task[Any] | None = None
        self._started = False

    async def start(self) -> None:
        """Once per message, when the provider's response begins (or, for a provider that
        does not say, at the end)."""
        if not self._started:
            self._started = True
            await self.emit(MessageStartEvent(message={"role": "assistant", "content": []}))

    def update(self, block_event: dict[str, Any], partial: AssistantMessage) -> None:
        """One block event (pi's ``assistantMessageEvent``) with the message so far."""
        if not self._started:  # a provider that does not report its response
            self._started = True
            start = MessageStartEvent(message={"role": "assistant", "content": []})
            self._last = asyncio.ensure_future(self._after(self._last, start))
        event = MessageUpdateEvent(
            message=partial,
            delta=str(block_event.get("delta", "")),
            delta_type=block_kind(block_event),
            assistant_message_event=block_event,
        )
        self._last = asyncio.ensure_future(self._after(self._last, event))

    async def _after(self, previous: asyncio.Task[Any] | None, event: Event) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        await self.emit(event)

    async def drain(self) -> None:
        """Wait until every update emitted so far has reached the hooks."""
        if self._last is not None:
            await asyncio.wait([self._last])

    async def end(self, message: AssistantMessage) -> AssistantMessage:
        """The final message after ``message_end`` handlers (a returned text replaces the
        message's text blocks with one)."""
        await self.start()
        if self._last is not None:
            await asyncio.wait([self._last])
        result = await self.emit(MessageEndEvent(message=message))
        if result is not None:
            from hookline.core.results import MessageEndResult  # loaded: a hook answered

            text_now = result.text if isinstance(result, MessageEndResult) else None
        else:
            text_now = None
        if text_now is not None:
            content = message["content"]
            thinking = [b for b in content if b.get("type") == "thinking"]
            calls = [b for b in content if b.get("type") not in ("text", "thinking")]
            rewritten: AssistantMessage = {
                **message,
                "content": [*thinking, {"type": "text", "text": text_now}, *calls],
            }
            return rewritten
        return message


#: Called with a denied call and its input; True when the model may retry it.
OnDenied = Callable[[Denial, dict[str, Any]], Awaitable[bool]]
#: Added to a denied call's result when a PermissionDenied hook allows a retry.
RETRY_NOTE = "A PermissionDenied hook says you may retry this tool call."


class ToolExecution:
    """The agent's answer to one tool-call block of a reply, reported while it runs.

    The call itself is the ``ToolPipeline`` (hooks, permission stage, tool, result
    hooks). Around it, this adds what only the agent loop needs: the tool looked up
    by name (an unknown name is an error result), the ``tool_execution_start`` /
    ``_update`` / ``_end`` events, the PermissionDenied hooks' retry note, and the
    ``ToolResultMessage`` the model reads next.
    """

    def __init__(
        self,
        runner: HookRunner,
        pipeline: ToolPipeline,
        emit: Emit,
        listening: Callable[[], bool],
        spawn: Spawn,
        on_denied: OnDenied | None = None,
    ) -> None:
        self.runner = runner
        self.on_denied = on_denied
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
        await self.emit(
            ToolExecutionStartEvent(tool_name=name, tool_call_id=call_id, input=args, args=args)
        )
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
                    args=args,
                    partial_result={"content": partial.content, "details": partial.details},
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
            on_denied = self.on_denied
            if (
                denial is not None
                and on_denied is not None
                and await on_denied(denial, outcome.input)
            ):
                result = ToolResult(
                    [*result.content, text(RETRY_NOTE)], result.details, is_error=True
                )
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
                result={"content": result.content, "details": result.details},
                is_error=result.is_error,
                args=args,
                result_text=content_text(result.content),
            )
        )
        return message, denial

    async def _emit_after(self, previous: asyncio.Task[Any] | None, event: Event) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        await self.emit(event)
