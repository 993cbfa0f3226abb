"""The combination rules: how several handlers of one event combine.

Each rule's docstring (its first paragraph) is what the event reference says of it: the
reference is generated from ``RULE_OF`` and these docstrings.

Each rule is a plain function of the runner's ``HandlerCalls`` (how one
handler is called, under which deadline, where its failures go), the event,
and the event's handlers in load order, then registration order; it folds
their results into one. Two rules fail closed: a failing or late
``tool_call`` handler blocks the call, and a failing or late ``tool_result``
handler withholds the tool's output (the chain stops there, so no later
handler sees or passes on the unredacted output).

Most rules call each handler through ``calls.guarded`` (or ``outcome``), which
puts one that suspends under its deadline. The three *direct* rules of the hot
events (``tool_call``, ``tool_result``, notifications) ``await`` each handler
themselves and are driven by ``driver.Resume``, which gives each handler they
wait in its deadline. A direct rule keeps one contract with that driver::

    for entry in handlers:          # take the handlers one at a time, in order,
        try:
            value = await entry[1](event, ctx)   # await the one just taken, and
            if late:                             # nothing else, then ask ``late``
                raise late.timeout()
            ...
        except BaseException as exc:
            if late.abandoned:                   # given up on: end without a word
                return None
            ...late.failure(exc)...              # what ``exc`` means: report it

The driver knows which handler the rule waits in by how many it has taken from
``handlers``; ``late`` (``calling.Late``) is the driver's word on the handler
just awaited: its deadline cancelled it, or the run was abandoned past the
grace (the rule's ``abandoned`` continuation then answers instead).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

from hookline.core import events
from hookline.core.calling import (
    DirectRule,
    Entry,
    HandlerCalls,
    Late,
    coerce,
    describe,
    start_direct,
)
from hookline.core.driver import Resume
from hookline.core.events import Event
from hookline.core.messages import text

if TYPE_CHECKING:
    from hookline.core.events import ContextEvent, ToolCallEvent, ToolResultEvent
    from hookline.core.results import (
        HookResult,
        InjectedMessage,
        ResourcesDiscoverResult,
        ToolCallResult,
        ToolResultResult,
        UserBashResult,
        UserPythonResult,
    )

# The result models (pydantic) are imported where a handler has returned a value, or where
# a failure is turned into one: a run whose handlers return nothing never loads them.

Rule = Callable[[HandlerCalls, Event, list[Entry]], Awaitable["HookResult | None"]]

BLOCKED = "the call is blocked"
WITHHELD = "the tool's output was withheld"


async def _notify(calls: HandlerCalls, event: Event, handlers: Iterator[Entry], late: Late) -> None:
    """A notification: every handler runs, in order; return values are ignored; a handler
    that fails is reported and the next one still runs."""
    # The hottest non-tool path: each handler is awaited inline (see ``calling.RuleDeadlines``).
    ctx = calls.context
    for entry in handlers:
        try:
            await entry[1](event, ctx)
            if late:
                raise late.timeout()
        except BaseException as exc:
            if late.abandoned:
                return
            calls.failure(entry[0], event.type, late.failure(exc))


async def _notify_rest(
    calls: HandlerCalls, event: Event, entries: list[Entry], index: int, text: str
) -> None:
    calls.failed(entries[index][0], event.type, text, None)
    rest = start_direct(calls, NOTIFY, event, entries[index + 1 :])
    if type(rest) is Resume:
        await rest


NOTIFY = DirectRule(_notify, _notify_rest)


async def run_tool_call(
    calls: HandlerCalls, event: Event, handlers: Iterator[Entry], late: Late
) -> HookResult | None:
    """The first ``block`` stops the chain and blocks the call; ``input`` rewrites chain
    (the next handler sees the rewritten input); ``permission`` goes to the permission
    stage, ``ask`` from any handler beating ``allow``. A handler that raises, returns
    something invalid or misses its deadline blocks the call (fail closed)."""
    current: ToolCallEvent = event  # type: ignore[assignment]  # no ``cast`` call: hot
    last: ToolCallResult | None = None
    permission: str | None = None
    ctx = calls.context
    for entry in handlers:
        # The hottest path: a no-op ``async def`` guard costs one call and one ``await``
        # (handlers are ``async`` here, ``calling.as_async``); only a handler that
        # suspends meets a deadline (``calling.RuleDeadlines``).
        try:
            value = await entry[1](current, ctx)
            if late:
                raise late.timeout()
            if value is None:
                continue
            result = coerce("tool_call", value)
        except BaseException as exc:
            if late.abandoned:
                return None
            return _blocked(calls, entry[0], late.failure(exc))
        if result is None:
            continue
        from hookline.core.results import ToolCallResult

        assert isinstance(result, ToolCallResult)
        if result.block:
            return result.decided_by(entry[0])
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


def _blocked(calls: HandlerCalls, path: str, exc: BaseException) -> ToolCallResult:
    from hookline.core.results import ToolCallResult

    failed = calls.failure(path, "tool_call", exc, BLOCKED)
    return ToolCallResult(
        block=True, reason=f"tool_call hook {path} {failed.text}; {BLOCKED}"
    ).failure_of(path)


async def _tool_call_abandoned(
    calls: HandlerCalls, event: Event, entries: list[Entry], index: int, text: str
) -> ToolCallResult:
    from hookline.core.results import ToolCallResult

    path = entries[index][0]
    calls.failed(path, "tool_call", text, None, BLOCKED)
    reason = f"tool_call hook {path} {text}; {BLOCKED}"
    return ToolCallResult(block=True, reason=reason).failure_of(path)


TOOL_CALL = DirectRule(run_tool_call, _tool_call_abandoned)


async def _tool_result(
    calls: HandlerCalls, event: Event, handlers: Iterator[Entry], late: Late
) -> HookResult | None:
    """Middleware: each handler sees the previous handler's patch (``content``, ``details``,
    ``is_error``; fields it omits keep their value); ``append`` blocks accumulate. A handler
    that raises, returns something invalid or misses its deadline withholds the output
    (fail closed) and stops the chain.

    So a later handler cannot undo an earlier redaction by accident: it sees the
    redacted content, not the original.
    """
    current: ToolResultEvent = event  # type: ignore[assignment]  # no ``cast`` call: hot
    changed: set[str] = set()
    appended: list[Any] = []
    ctx = calls.context
    for entry in handlers:
        try:
            value = await entry[1](current, ctx)
            if late:
                raise late.timeout()
            result = None if value is None else coerce("tool_result", value)
        except BaseException as exc:
            if late.abandoned:
                return None
            failed = calls.failure(entry[0], "tool_result", late.failure(exc), WITHHELD)
            return withheld(f"tool_result hook {entry[0]} {failed.text}; {WITHHELD}")
        if result is None:
            continue
        from hookline.core.results import ToolResultResult

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
    from hookline.core.results import ToolResultResult

    combined = ToolResultResult(**{key: getattr(current, key) for key in changed})
    if appended:
        combined = combined.model_copy(update={"append": appended})
    return combined


async def _tool_result_abandoned(
    calls: HandlerCalls, event: Event, entries: list[Entry], index: int, text: str
) -> ToolResultResult:
    path = entries[index][0]
    calls.failed(path, "tool_result", text, None, WITHHELD)
    return withheld(f"tool_result hook {path} {text}; {WITHHELD}")


TOOL_RESULT = DirectRule(_tool_result, _tool_result_abandoned)


def withheld(reason: str) -> ToolResultResult:
    """What replaces a tool's output a redaction hook could not vouch for."""
    from hookline.core.results import ToolResultResult

    return ToolResultResult(content=[text(reason)], details=None, is_error=True)


async def context(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Chained: each handler gets the previous handler's ``messages``, passed on without a
    copy; a malformed message is blamed on the hook whose list brought it in, and the list
    before that hook is sent.

    Lists are checked by shape once, at the end (only messages the chain added
    are looked at): a 10 000-message list through five handlers costs one
    check, not five. When the final list holds a malformed message, the first
    handler whose list brought it in is reported (path and index) and the chain
    result is the list before that handler.
    """
    assert isinstance(event, events.ContextEvent)
    current = event
    steps: list[tuple[str, list[Any]]] = []  # (hook path, its list): kept alive for the ids
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if result is None:
            continue
        from hookline.core.results import ContextResult

        if isinstance(result, ContextResult) and result.messages is not None:
            steps.append((path, result.messages))
            current = events.ContextEvent(messages=result.messages)
    if not steps:
        return None
    from hookline.core.results import ContextResult, InvalidResultError, check_new_messages

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
    from hookline.core.results import InvalidResultError, check_new_messages

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
    assert isinstance(event, events.BeforeAgentStartEvent)
    current = event
    messages: list[InjectedMessage] = []
    prompt_changed = False
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if result is None:
            continue
        from hookline.core.results import BeforeAgentStartResult

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
    from hookline.core.results import BeforeAgentStartResult

    return BeforeAgentStartResult(
        message=messages[0] if messages else None,
        messages=messages,
        system_prompt=current.system_prompt if prompt_changed else None,
    )


async def cancellable(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """The latest result is kept; the first ``cancel`` stops the chain and the action."""
    kept = None
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if result is not None:
            kept = result
            if getattr(result, "cancel", False):
                return result
    return kept


async def latest(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Every handler runs; the latest result wins."""
    kept = None
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if result is not None:
            kept = result
    return kept


async def input_chain(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Chained transforms: each handler sees the previous handler's ``text`` and ``images``;
    ``handled`` stops the chain (the model never sees the prompt)."""
    assert isinstance(event, events.InputEvent)
    current = event
    changed = False
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if result is None:
            continue
        from hookline.core.results import InputResult

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
    if not changed:
        return None
    from hookline.core.results import InputResult

    return InputResult(text=current.text, images=current.images)


async def user_bash(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Chained: ``command`` and ``cwd`` rewrites chain, the last ``env`` and ``operations``
    win; a handler's ``result`` (it ran the command itself) ends the chain."""
    from hookline.core.results import UserBashResult

    return await _user_run(calls, event, entries, UserBashResult, "command")


async def user_python(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Chained: ``code`` and ``cwd`` rewrites chain, the last ``env`` wins; a handler's
    ``result`` (it ran the code itself) ends the chain."""
    from hookline.core.results import UserPythonResult

    return await _user_run(calls, event, entries, UserPythonResult, "code")


async def _user_run(
    calls: HandlerCalls,
    event: Event,
    entries: list[Entry],
    kind: type[UserBashResult | UserPythonResult],
    what: str,
) -> HookResult | None:
    """The user's own ``!command`` or ``$code``: ``what`` (the command or the code) and
    ``cwd`` chain, the last ``env`` wins; a handler's ``result`` (it ran it) ends the chain."""
    assert isinstance(event, (events.UserBashEvent, events.UserPythonEvent))
    current = event
    env: dict[str, str] | None = None
    operations: dict[str, Any] = {}  # the last handler's ``operations`` (user_bash only)
    changed = False
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if not isinstance(result, kind):
            continue
        if result.result is not None:  # pi's full replacement: the handler ran it
            return kind(result=result.result)
        rewritten = getattr(result, what) or getattr(current, what)
        cwd = result.cwd or current.cwd
        current = dataclasses.replace(current, **{what: rewritten, "cwd": cwd})
        env = result.env if result.env is not None else env
        ops = getattr(result, "operations", None)  # user_bash's only
        if ops is not None:
            operations = {"operations": ops}
        changed = True
    if not changed:
        return None
    return kind(**{what: getattr(current, what), "cwd": current.cwd, "env": env, **operations})


async def resources_discover(
    calls: HandlerCalls, event: Event, entries: list[Entry]
) -> HookResult | None:
    """Every handler's ``skill_paths``, ``prompt_paths`` and ``theme_paths`` are kept, in
    load order."""
    found: ResourcesDiscoverResult | None = None
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if result is None:
            continue
        from hookline.core.results import ResourcesDiscoverResult

        if not isinstance(result, ResourcesDiscoverResult):
            continue
        found = found or ResourcesDiscoverResult()
        found.skill_paths += result.skill_paths
        found.prompt_paths += result.prompt_paths
        found.theme_paths += result.theme_paths
    return found


async def message_end(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """Chained: each handler sees the message with the previous handler's ``text``; the
    last text is kept."""
    assert isinstance(event, events.MessageEndEvent)
    current = event
    text_now: str | None = None
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if result is None:
            continue
        from hookline.core.results import MessageEndResult

        if isinstance(result, MessageEndResult) and result.text is not None:
            text_now = result.text
            others = [b for b in current.message["content"] if b.get("type") != "text"]
            message = {**current.message, "content": [*others, {"type": "text", "text": text_now}]}
            current = events.MessageEndEvent(message=message)  # type: ignore[arg-type]
    if text_now is None:
        return None
    from hookline.core.results import MessageEndResult

    return MessageEndResult(text=text_now)


async def provider_request(
    calls: HandlerCalls, event: Event, entries: list[Entry]
) -> HookResult | None:
    """Chained: each handler sees the ``payload`` the previous one returned; the last one
    is sent."""
    assert isinstance(event, events.BeforeProviderRequestEvent)
    current = event
    for path, fn in entries:
        result = await calls.guarded(path, fn, current)
        if result is None:
            continue
        from hookline.core.results import BeforeProviderRequestResult

        if isinstance(result, BeforeProviderRequestResult) and result.payload is not None:
            current = dataclasses.replace(current, payload=result.payload)
    if current is event:
        return None
    from hookline.core.results import BeforeProviderRequestResult

    return BeforeProviderRequestResult(payload=current.payload)


async def first_block(calls: HandlerCalls, event: Event, entries: list[Entry]) -> HookResult | None:
    """The first ``block`` wins and stops the chain."""
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if result is None:
            continue
        from hookline.core.results import StopResult

        if isinstance(result, StopResult) and result.block:
            return result
    return None


async def first_decision(
    calls: HandlerCalls, event: Event, entries: list[Entry]
) -> HookResult | None:
    """The first handler with a ``decision`` wins and stops the chain."""
    for path, fn in entries:
        result = await calls.guarded(path, fn, event)
        if result is None:
            continue
        from hookline.core.results import PermissionRequestResult

        if isinstance(result, PermissionRequestResult) and result.decision is not None:
            return result.decided_by(path)
    return None


#: The rules that await their handlers inline (``HookRunner.emit`` steps them by hand);
#: an event in neither table is a notification (``NOTIFY``).
DIRECT: dict[str, DirectRule] = {"tool_call": TOOL_CALL, "tool_result": TOOL_RESULT}

#: The rules that call each handler through ``HandlerCalls.outcome``.
RULES: dict[str, Rule] = {
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
    "user_python": user_python,
    "resources_discover": resources_discover,
    "stop": first_block,
    "subagent_stop": first_block,
    "permission_request": first_decision,
}

#: Every event's rule, found with one lookup per emit; an event in neither table above is
#: a notification (``NOTIFY``).
RULE_OF: dict[str, Rule | DirectRule] = {**RULES, **DIRECT}
