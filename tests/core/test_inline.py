"""Emits stepped without an event loop (``loopless.run_inline``), as ``hookline claude-hook``
runs an event whose handlers are all plain functions.

These tests are plain (not ``async``) functions: no loop runs while they step the
emit. A plain handler that returns an awaitable gets a loop of its own and still
meets its deadline; a handler that fails still blocks; ``runs_inline`` tells the
two kinds of event apart.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.calling import NO_LOOP_HINT
from hookline.core.driver import loop_running
from hookline.core.events import ToolCallEvent
from hookline.core.loopless import run_inline
from hookline.core.results import ToolCallResult
from hookline.core.runner import HookError, HookRunner


def _call(command: str = "ls") -> ToolCallEvent:
    return ToolCallEvent(tool_name="bash", tool_call_id="c1", input={"command": command})


def _runner(*handlers: Any, timeout: float | None = 5.0, grace: float = 0.2) -> HookRunner:
    runner = HookRunner(cwd=".", timeout=timeout, grace=grace)
    for i, handler in enumerate(handlers):
        hook = LoadedHook(path=f"/x/hook{i}.py")
        api = HookAPI(hook)
        api.on("tool_call", handler)
        runner.add_hook(hook, api)
    return runner


def _errors(runner: HookRunner) -> list[HookError]:
    errors: list[HookError] = []
    runner.on_error(errors.append)
    return errors


def test_plain_handlers_answer_without_a_loop() -> None:
    seen: list[bool] = []

    def first(event: Any, ctx: Any) -> Any:
        seen.append(loop_running())
        return {"input": {"command": event.input["command"] + " -la"}}

    def second(event: Any, ctx: Any) -> Any:
        seen.append(loop_running())
        if event.input["command"] == "ls -la":
            return {"block": True, "reason": "saw the rewrite"}
        return None

    runner = _runner(first, second)
    assert runner.runs_inline("tool_call")

    result = run_inline(runner.emit_tool_call(_call()))

    assert isinstance(result, ToolCallResult)
    assert (result.block, result.reason) == (True, "saw the rewrite")
    assert seen == [False, False]


def test_an_async_handler_makes_its_event_need_a_loop() -> None:
    async def waits(event: Any, ctx: Any) -> Any:
        await asyncio.sleep(0)
        return {"block": True, "reason": "async"}

    def plain(event: Any, ctx: Any) -> None:
        return None

    runner = _runner(plain, waits)

    assert not runner.runs_inline("tool_call")
    assert runner.runs_inline("tool_result")  # no async handler there
    result = asyncio.run(runner.emit_tool_call(_call()))
    assert isinstance(result, ToolCallResult) and result.reason == "async"


def test_a_plain_handler_returning_an_awaitable_gets_a_loop_of_its_own() -> None:
    async def check(event: Any) -> Any:
        await asyncio.sleep(0.01)  # needs a running loop
        assert loop_running()
        return {"block": True, "reason": "checked in a loop"}

    runner = _runner(lambda event, ctx: check(event))
    assert runner.runs_inline("tool_call")

    result = run_inline(runner.emit_tool_call(_call()))

    assert isinstance(result, ToolCallResult)
    assert (result.block, result.reason) == (True, "checked in a loop")


def test_that_awaitable_still_meets_the_deadline_and_the_call_is_blocked() -> None:
    async def forever(event: Any) -> Any:
        await asyncio.Event().wait()

    runner = _runner(lambda event, ctx: forever(event), timeout=0.1)
    errors = _errors(runner)

    result = run_inline(runner.emit_tool_call(_call()))

    assert isinstance(result, ToolCallResult) and result.block
    assert "timed out after 0.1 s" in (result.reason or "")
    assert [e.hook_path for e in errors] == ["/x/hook0.py"]


def test_one_that_ignores_its_cancellation_is_abandoned_after_the_grace() -> None:
    async def stubborn(event: Any) -> Any:
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                continue

    runner = _runner(lambda event, ctx: stubborn(event), timeout=0.1, grace=0.1)

    result = run_inline(runner.emit_tool_call(_call()))

    assert isinstance(result, ToolCallResult) and result.block
    assert "ignored its cancellation" in (result.reason or "")


def test_a_plain_handler_that_raises_blocks_the_call() -> None:
    def broken(event: Any, ctx: Any) -> Any:
        raise KeyError("command")

    runner = _runner(broken)
    errors = _errors(runner)

    result = run_inline(runner.emit_tool_call(_call()))

    assert isinstance(result, ToolCallResult) and result.block
    assert "KeyError" in (result.reason or "")
    assert len(errors) == 1


def test_a_step_that_suspends_anyway_finishes_under_asyncio() -> None:
    async def yields_once() -> str:
        await asyncio.sleep(0)  # a bare yield: no loop is needed to make it
        return "done"

    assert run_inline(yields_once()) == "done"


def test_one_that_answers_after_its_deadline_cancelled_it_still_timed_out() -> None:
    async def late(event: Any) -> Any:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            return None  # "allow", too late to count
        return None

    runner = _runner(lambda event, ctx: late(event), timeout=0.1, grace=1.0)

    result = run_inline(runner.emit_tool_call(_call()))

    assert isinstance(result, ToolCallResult) and result.block
    assert "timed out after 0.1 s" in (result.reason or "")
    assert "ignored" not in (result.reason or "")


def test_a_plain_handler_needing_the_running_loop_is_told_to_be_async() -> None:
    """``get_running_loop`` in a plain handler works under a loop but not stepped inline:
    the call is blocked, and the failure says what to change."""

    def needs_loop(event: Any, ctx: Any) -> Any:
        asyncio.get_running_loop()
        return None

    runner = _runner(needs_loop)
    errors = _errors(runner)

    result = run_inline(runner.emit_tool_call(_call()))

    assert isinstance(result, ToolCallResult) and result.block
    assert "must be `async def`" in (result.reason or "")
    assert [e.error for e in errors] == [
        "RuntimeError: no running event loop" + NO_LOOP_HINT + "; the call is blocked"
    ]


async def test_the_same_error_under_a_running_loop_gets_no_hint() -> None:
    def broken(event: Any, ctx: Any) -> Any:
        raise RuntimeError("event loop is closed")

    runner = _runner(broken)

    result = await runner.emit_tool_call(_call())

    assert isinstance(result, ToolCallResult) and result.block
    assert "async def" not in (result.reason or "")
