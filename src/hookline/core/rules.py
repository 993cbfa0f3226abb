"""The combination rules (the README's table): how several handlers of one event combine.

Each rule is a plain function of the runner's ``HandlerCalls`` (how one
handler is called, under which deadline, where its failures go), the event,
and the event's handlers in load order, then registration order; it folds
their results into one. Two rules fail closed: a failing or late
``tool_call`` handler blocks the call, and a failing or late ``tool_result``
handler withholds the tool's output (the chain stops there, so no later
handler sees or passes on the unredacted output).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from types import CoroutineType
from typing import Any

from hookline.core.api import Handler
from hookline.core.calling import HandlerCalls, Resume, describe
from hookline.core.events import (
    BeforeAgentStartEvent,
    BeforeProviderRequestEvent,
    ContextEvent,
    Event,
    InputEvent,
    MessageEndEvent,
    ToolCallEvent,
    ToolResultEvent,
    UserBashEvent,
)
from hookline.core.messages import text
from hookline.core.results import (
    BeforeAgentStartResult,
    BeforeProviderRequestResult,
    ContextResult,
    HookResult,
    InjectedMessage,
    InputResult,
    InvalidResultError,
    MessageEndResult,
    PermissionRequestResult,
    StopResult,
    ToolCallResult,
    ToolResultResult,
    UserBashResult,
    check_new_messages,
    coerce_result,
)

Entry = tuple[str, Handler]  # (hook path, handler)
Rule = Callable[[HandlerCalls, Event, list[Entry]], Awaitable[HookResult | None]]

BLOCKED = "the call is blocked"
WITHHELD = "the tool's output was withheld"


async def notify(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Notifications: every handler runs; failures are reported and the chain goes on."""
    # The hottest non-tool path: step each handler inline, await only if it suspends.
    for path, fn in entries:
        try:
            value = calls.start(fn, event)
        except BaseException as exc:  # a first step never carries the runner's cancellation
            calls.failed(path, event.type, f"failed ({describe(exc)})", exc)
            continue
        if type(value) is Resume:
            await calls.finish(path, event, value)
    return None


async def tool_call(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """First block wins; a failing or late handler blocks; input rewrites chain."""
    assert isinstance(event, ToolCallEvent)
    current = event
    last: ToolCallResult | None = None
    permission: str | None = None
    ctx = calls.context
    for path, fn in entries:
        # ``calls.start`` inlined: the hottest path, a no-op ``async def`` guard costs
        # one call and one ``send``; only a handler that suspends meets a deadline.
        try:
            value = fn(current, ctx)
            if type(value) is CoroutineType:
                try:
                    first = value.send(None)
                except StopIteration as stop:
                    value = stop.value
                else:
                    value = await calls.settle(path, calls.resume(value, first))
            elif value is not None and isinstance(value, Awaitable):
                value = calls.resume_awaitable(value)
                if type(value) is Resume:
                    value = await calls.settle(path, value)
            if value is None:
                continue
            result = coerce_result("tool_call", value)
        except BaseException as exc:
            failed = calls.failure(path, "tool_call", exc, BLOCKED)
            return ToolCallResult(
                block=True, reason=f"tool_call hook {path} {failed.text}; {BLOCKED}"
            ).decided_by(path)
        if result is None:
            continue
        assert isinstance(result, ToolCallResult)
        if result.block:
            return result.decided_by(path)
        if result.permission is not None and permission != "ask":
            permission = result.permission
        if result.input is not None:
            current = dataclasses.replace(current, input=result.input)
        last = result
    if last is not None and current is not event:
        last = last.model_copy(update={"input": current.input})
    if last is not None and permission != last.permission:
        last = last.model_copy(update={"permission": permission})
    return last


async def tool_result(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Middleware: each handler sees the previous handler's patch (fields it omits keep
    their value), appends accumulate; a failing or late handler withholds the output.

    So a later handler cannot undo an earlier redaction by accident: it sees the
    redacted content, not the original.
    """
    assert isinstance(event, ToolResultEvent)
    current = event
    changed: set[str] = set()
    appended: list[Any] = []
    for path, fn in entries:
        try:
            value = calls.start(fn, current)
            if type(value) is Resume:
                value = await calls.settle(path, value)
            result = None if value is None else coerce_result("tool_result", value)
        except BaseException as exc:
            failed = calls.failure(path, "tool_result", exc, WITHHELD)
            return withheld(f"tool_result hook {path} {failed.text}; {WITHHELD}")
        if not isinstance(result, ToolResultResult):
            continue
        if result.append:
            appended.extend(result.append)
        updates: dict[str, Any] = {}
        fields = result.model_fields_set
        if "content" in fields and result.content is not None:
            updates["content"] = result.content
        if "details" in fields:
            updates["details"] = result.details
        if "is_error" in fields and result.is_error is not None:
            updates["is_error"] = result.is_error
        if updates:
            current = dataclasses.replace(current, **updates)
            changed |= updates.keys()
    if not changed and not appended:
        return None
    combined = ToolResultResult(**{key: getattr(current, key) for key in changed})
    if appended:
        combined = combined.model_copy(update={"append": appended})
    return combined


def withheld(reason: str) -> ToolResultResult:
    """What replaces a tool's output a redaction hook could not vouch for."""
    return ToolResultResult(content=[text(reason)], details=None, is_error=True)


async def context(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Chained: each handler gets the previous handler's list, passed on without a copy.

    Lists are checked by shape once, at the end (only messages the chain added
    are looked at): a 10 000-message list through five handlers costs one
    check, not five. When the final list holds a malformed message, the first
    handler whose list brought it in is reported (path and index) and the chain
    result is the list before that handler.
    """
    assert isinstance(event, ContextEvent)
    current = event
    steps: list[tuple[str, list[Any]]] = []  # (hook path, its list): kept alive for the ids
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if isinstance(result, ContextResult) and result.messages is not None:
            steps.append((path, result.messages))
            current = ContextEvent(messages=result.messages)
    if not steps:
        return None
    final = steps[-1][1]
    if final is not event.messages:
        try:
            check_new_messages(final, {id(m) for m in event.messages})
        except InvalidResultError:
            final = _last_good(calls, event, steps)
            if final is event.messages:
                return None
    return ContextResult.model_construct(messages=final)


def _last_good(calls: HandlerCalls, event: ContextEvent, steps: list[tuple[str, list[Any]]]) -> Any:
    """The slow path: find the handler that brought a bad message in; its input stands."""
    known = {id(m) for m in event.messages}
    previous: list[Any] = event.messages
    for path, messages in steps:
        try:
            check_new_messages(messages, known)
        except InvalidResultError as exc:
            calls.failed(path, event.type, describe(exc), exc)
            return previous
        previous = messages
    return previous


async def before_agent_start(
    calls: HandlerCalls, event: Event, entries: list[Entry]
) -> HookResult | None:
    """Every returned message is kept, in order; ``system_prompt`` chains (each handler sees
    the previous handler's prompt in ``event.system_prompt``)."""
    assert isinstance(event, BeforeAgentStartEvent)
    current = event
    messages: list[InjectedMessage] = []
    prompt_changed = False
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if not isinstance(result, BeforeAgentStartResult):
            continue
        if result.message is not None:
            messages.append(result.message)
        if result.messages:
            messages.extend(result.messages)
        if result.system_prompt is not None:
            current = dataclasses.replace(current, system_prompt=result.system_prompt)
            prompt_changed = True
    if not messages and not prompt_changed:
        return None
    return BeforeAgentStartResult(
        message=messages[0] if messages else None,
        messages=messages,
        system_prompt=current.system_prompt if prompt_changed else None,
    )


async def cancellable(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    kept = None
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if result is not None:
            kept = result
            if getattr(result, "cancel", False):
                return result
    return kept


async def latest(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    kept = None
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if result is not None:
            kept = result
    return kept


async def input_chain(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    assert isinstance(event, InputEvent)
    current = event
    changed = False
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if not isinstance(result, InputResult) or result.action == "continue":
            continue
        if result.handled or result.action == "handled":
            return InputResult(handled=True)
        if result.text is not None or result.images is not None:
            current = dataclasses.replace(
                current,
                text=result.text if result.text is not None else current.text,
                images=result.images if result.images is not None else current.images,
            )
            changed = True
    return InputResult(text=current.text, images=current.images) if changed else None


async def user_bash(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    assert isinstance(event, UserBashEvent)
    current = event
    env: dict[str, str] | None = None
    changed = False
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if not isinstance(result, UserBashResult):
            continue
        if result.result is not None:  # pi's full replacement: the handler ran it
            return UserBashResult(result=result.result)
        current = dataclasses.replace(
            current, command=result.command or current.command, cwd=result.cwd or current.cwd
        )
        env = result.env if result.env is not None else env
        changed = True
    if not changed:
        return None
    return UserBashResult(command=current.command, cwd=current.cwd, env=env)


async def message_end(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Chained: each handler sees the message with the previous handler's text."""
    assert isinstance(event, MessageEndEvent)
    current = event
    text_now: str | None = None
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if isinstance(result, MessageEndResult) and result.text is not None:
            text_now = result.text
            others = [b for b in current.message["content"] if b.get("type") != "text"]
            message = {**current.message, "content": [*others, {"type": "text", "text": text_now}]}
            current = MessageEndEvent(message=message)  # type: ignore[arg-type]
    return None if text_now is None else MessageEndResult(text=text_now)


async def provider_request(
    calls: HandlerCalls, event: Event, entries: list[Entry]
) -> HookResult | None:
    """Chained: each handler sees the payload the previous one returned."""
    assert isinstance(event, BeforeProviderRequestEvent)
    current = event
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if isinstance(result, BeforeProviderRequestResult) and result.payload is not None:
            current = dataclasses.replace(current, payload=result.payload)
    if current is event:
        return None
    return BeforeProviderRequestResult(payload=current.payload)


async def first_block(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if isinstance(result, StopResult) and result.block:
            return result
    return None


async def first_decision(
    calls: HandlerCalls, event: Event, entries: list[Entry]
) -> HookResult | None:
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if isinstance(result, PermissionRequestResult) and result.decision is not None:
            return result.decided_by(path)
    return None


RULES: dict[str, Rule] = {
    "tool_call": tool_call,
    "tool_result": tool_result,
    "context": context,
    "before_agent_start": before_agent_start,
    "message_end": message_end,
    "before_provider_request": provider_request,
    "session_before_switch": cancellable,
    "session_before_fork": cancellable,
    "session_before_branch": cancellable,
    "session_before_compact": cancellable,
    "session_before_tree": cancellable,
    "session.compacting": latest,
    "input": input_chain,
    "user_bash": user_bash,
    "stop": first_block,
    "subagent_stop": first_block,
    "permission_request": first_decision,
}
