"""The combination rules of DESIGN.md §2: how several handlers of one event combine.

A mixin of ``HookRunner``: each rule walks the event's handlers in load
order, then registration order, and folds their results into one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from types import CoroutineType
from typing import Any

from hookline.core.api import Handler
from hookline.core.calling import HOOK_FAILURES, DeadlineExceeded, Pending, under_deadline
from hookline.core.context import HookContext
from hookline.core.events import ContextEvent, Event, InputEvent, ToolCallEvent, UserBashEvent
from hookline.core.results import (
    BeforeAgentStartResult,
    ContextResult,
    HookResult,
    InputResult,
    InvalidResultError,
    PermissionRequestResult,
    StopResult,
    ToolCallResult,
    ToolResultResult,
    UserBashResult,
    check_new_messages,
    coerce_result,
)

Entry = tuple[str, Handler]  # (hook path, handler)


class CombinationRules:
    """The rules; ``HookRunner`` provides calling, deadlines and error reports."""

    context: HookContext
    timeout: float | None

    def report(self, hook_path: str, event: str, error: str | BaseException) -> None:
        raise NotImplementedError

    def _start(self, fn: Handler, event: Event) -> Any:
        raise NotImplementedError

    def _deadline(self, path: str) -> float | None:
        raise NotImplementedError

    async def _guarded(self, path: str, fn: Handler, event: Event) -> HookResult | None:
        raise NotImplementedError

    async def _notify(self, event: Event, entries: list[Entry]) -> HookResult | None:
        # The hottest non-tool path: step each handler inline, await only if it suspends.
        for path, fn in entries:
            try:
                value = self._start(fn, event)
            except HOOK_FAILURES as exc:
                self.report(path, event.type, exc)
                continue
            if type(value) is Pending:
                await self._finish(path, event, value)
        return None

    async def _finish(self, path: str, event: Event, pending: Pending) -> None:
        try:
            timeout = self._deadline(path)
            if timeout is None:
                await pending.awaitable
            else:
                await under_deadline(pending.awaitable, timeout)
        except DeadlineExceeded:
            self.report(path, event.type, f"timed out after {self.timeout:g}s")
        except HOOK_FAILURES as exc:
            self.report(path, event.type, exc)

    async def _tool_call(self, event: Event, entries: list[Entry]) -> HookResult | None:
        assert isinstance(event, ToolCallEvent)
        current = event
        last: ToolCallResult | None = None
        permission: str | None = None
        for path, fn in entries:
            try:
                # No deadline on tool_call, so a plain await is the cheapest path.
                value = fn(current, self.context)
                if type(value) is CoroutineType or (
                    value is not None and isinstance(value, Awaitable)
                ):
                    value = await value
                if value is None:
                    continue
                result = coerce_result("tool_call", value)
            except HOOK_FAILURES as exc:
                self.report(path, "tool_call", exc)
                return ToolCallResult(
                    block=True, reason=f"blocked: hook {path} failed: {type(exc).__name__}: {exc}"
                )
            if result is None:
                continue
            assert isinstance(result, ToolCallResult)
            if result.block:
                return result
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

    async def _tool_result(self, event: Event, entries: list[Entry]) -> HookResult | None:
        last: ToolResultResult | None = None
        appended: list[Any] = []
        for path, fn in entries:
            result = await self._guarded(path, fn, event)
            if not isinstance(result, ToolResultResult):
                continue
            if result.append:
                appended.extend(result.append)
            if result.model_fields_set - {"append"}:
                last = result
        if appended:
            base = last if last is not None else ToolResultResult()
            return base.model_copy(update={"append": appended})
        return last

    async def _context(self, event: Event, entries: list[Entry]) -> HookResult | None:
        assert isinstance(event, ContextEvent)
        current = event
        changed = False
        known: set[int] | None = None
        kept: list[list[Any]] = [event.messages]  # alive, so checked ids are not reused
        for path, fn in entries:
            result = await self._guarded(path, fn, current)
            if isinstance(result, ContextResult) and result.messages is not None:
                if known is None:
                    known = {id(m) for m in event.messages}
                try:
                    check_new_messages(result.messages, known)
                except InvalidResultError as exc:
                    self.report(path, event.type, exc)
                    continue
                kept.append(result.messages)
                current = ContextEvent(messages=result.messages)
                changed = True
        return ContextResult.model_construct(messages=current.messages) if changed else None

    async def _first_message(self, event: Event, entries: list[Entry]) -> HookResult | None:
        kept: BeforeAgentStartResult | None = None
        for path, fn in entries:
            result = await self._guarded(path, fn, event)
            if kept is None and isinstance(result, BeforeAgentStartResult) and result.message:
                kept = result
        return kept

    async def _cancellable(self, event: Event, entries: list[Entry]) -> HookResult | None:
        latest = None
        for path, fn in entries:
            result = await self._guarded(path, fn, event)
            if result is not None:
                latest = result
                if getattr(result, "cancel", False):
                    return result
        return latest

    async def _latest(self, event: Event, entries: list[Entry]) -> HookResult | None:
        latest = None
        for path, fn in entries:
            result = await self._guarded(path, fn, event)
            if result is not None:
                latest = result
        return latest

    async def _input(self, event: Event, entries: list[Entry]) -> HookResult | None:
        assert isinstance(event, InputEvent)
        current = event
        changed = False
        for path, fn in entries:
            result = await self._guarded(path, fn, current)
            if not isinstance(result, InputResult):
                continue
            if result.handled:
                return result
            if result.text is not None or result.images is not None:
                current = dataclasses.replace(
                    current,
                    text=result.text if result.text is not None else current.text,
                    images=result.images if result.images is not None else current.images,
                )
                changed = True
        return InputResult(text=current.text, images=current.images) if changed else None

    async def _user_bash(self, event: Event, entries: list[Entry]) -> HookResult | None:
        assert isinstance(event, UserBashEvent)
        current = event
        env: dict[str, str] | None = None
        changed = False
        for path, fn in entries:
            result = await self._guarded(path, fn, current)
            if not isinstance(result, UserBashResult):
                continue
            current = dataclasses.replace(
                current, command=result.command or current.command, cwd=result.cwd or current.cwd
            )
            env = result.env if result.env is not None else env
            changed = True
        if not changed:
            return None
        return UserBashResult(command=current.command, cwd=current.cwd, env=env)

    async def _first_block(self, event: Event, entries: list[Entry]) -> HookResult | None:
        for path, fn in entries:
            result = await self._guarded(path, fn, event)
            if isinstance(result, StopResult) and result.block:
                return result
        return None

    async def _first_decision(self, event: Event, entries: list[Entry]) -> HookResult | None:
        for path, fn in entries:
            result = await self._guarded(path, fn, event)
            if isinstance(result, PermissionRequestResult) and result.decision is not None:
                return result
        return None


_Rule = Callable[[CombinationRules, Event, list[Entry]], Awaitable[HookResult | None]]

RULES: dict[str, _Rule] = {
    "tool_call": CombinationRules._tool_call,
    "tool_result": CombinationRules._tool_result,
    "context": CombinationRules._context,
    "before_agent_start": CombinationRules._first_message,
    "session_before_switch": CombinationRules._cancellable,
    "session_before_fork": CombinationRules._cancellable,
    "session_before_branch": CombinationRules._cancellable,
    "session_before_compact": CombinationRules._cancellable,
    "session_before_tree": CombinationRules._cancellable,
    "session.compacting": CombinationRules._latest,
    "input": CombinationRules._input,
    "user_bash": CombinationRules._user_bash,
    "stop": CombinationRules._first_block,
    "subagent_stop": CombinationRules._first_block,
    "permission_request": CombinationRules._first_decision,
}
