"""Deadlines that always end, and no exception type that kills the agent.

- ``tool_call`` handlers have a deadline; its clock stops while a ``ctx.ui``
  dialog is open; a timeout blocks the call and names the hook.
- A handler that swallows its cancellation is abandoned after the grace.
- Every ``BaseException`` a handler raises is a hook failure; only the
  caller's own cancellation propagates.
- A failing or late ``tool_result`` handler withholds the output.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

import pytest

from hookline.core.api import HookAPI, LoadedHook
from hookline.core.context import HookContext
from hookline.core.events import ToolCallEvent, ToolResultEvent, TurnStartEvent
from hookline.core.messages import text
from hookline.core.results import ToolCallResult, ToolResultResult
from hookline.core.runner import HookRunner
from hookline.core.ui import NoUI

from .helpers import Built, MakeRunner

DEADLINE = 0.2


def call() -> ToolCallEvent:
    return ToolCallEvent(tool_name="bash", tool_call_id="c1", input={"command": "ls"})


def turn() -> TurnStartEvent:
    return TurnStartEvent(turn_index=0, timestamp=0.0)


def result_event() -> ToolResultEvent:
    return ToolResultEvent(
        tool_name="bash", tool_call_id="c1", input={}, content=[text("token=SECRET")]
    )


def one(event: str, handler: Any) -> Any:
    return lambda api: api.on(event, handler)


def runner_with(*handlers: tuple[str, Any], timeout: float | None, grace: float) -> Built:
    runner = HookRunner(cwd=".", timeout=timeout, grace=grace)
    apis = []
    for i, (event, handler) in enumerate(handlers):
        hook = LoadedHook(path=f"/x/hook{i}.py")
        api = HookAPI(hook)
        api.on(event, handler)
        runner.add_hook(hook, api)
        apis.append(api)
    return Built(runner, apis)


async def forever(event: Any, ctx: HookContext) -> None:
    await asyncio.Event().wait()


# -- tool_call deadline ------------------------------------------------------------------


async def test_tool_call_awaiting_forever_is_blocked_at_its_deadline(
    make_runner: MakeRunner,
) -> None:
    later: list[str] = []
    built = make_runner(
        one("tool_call", forever), one("tool_call", lambda e, c: later.append("x")), timeout=0.05
    )
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.block is True
    assert result.reason == "tool_call hook hook0.py timed out after 0.05 s; the call is blocked"
    assert later == []
    assert [(e.hook_path, e.event, e.error) for e in built.errors] == [
        ("hook0.py", "tool_call", "timed out after 0.05 s; the call is blocked")
    ]
    assert [e.timed_out for e in built.errors] == [True]


async def test_no_deadline_when_the_timeout_is_none(make_runner: MakeRunner) -> None:
    async def slow(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
        await asyncio.sleep(0.1)
        return {"block": True, "reason": "slow but sure"}

    built = make_runner(one("tool_call", slow), timeout=None)
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.reason == "slow but sure"
    assert built.errors == []


class SlowUser(NoUI):
    """A person who takes ``delay`` seconds to answer each dialog."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay
        self.asked: list[str] = []

    async def confirm(self, title: str, message: str) -> bool:
        self.asked.append(title)
        await asyncio.sleep(self.delay)  # the user's think time is what is under test
        return True

    async def select(self, title: str, options: Sequence[str]) -> str | None:
        self.asked.append(title)
        await asyncio.sleep(self.delay)
        return options[0]


async def test_the_clock_stops_while_a_dialog_is_open(make_runner: MakeRunner) -> None:
    async def asks(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
        first = await ctx.ui.confirm("run it?", "bash ls")
        second = await ctx.ui.select("how?", ["carefully", "fast"])
        return {"block": True, "reason": f"user said {first} {second}"}

    built = make_runner(one("tool_call", asks), timeout=DEADLINE)
    user = SlowUser(delay=DEADLINE * 2)  # each answer alone outlasts the deadline
    built.runner.set_ui(user, True)
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.reason == "user said True carefully"
    assert user.asked == ["run it?", "how?"]
    assert built.errors == []


async def test_the_clock_runs_again_after_the_dialog(make_runner: MakeRunner) -> None:
    async def asks_then_hangs(event: ToolCallEvent, ctx: HookContext) -> None:
        await ctx.ui.confirm("run it?", "bash ls")
        await asyncio.Event().wait()

    built = make_runner(one("tool_call", asks_then_hangs), timeout=DEADLINE)
    built.runner.set_ui(SlowUser(delay=DEADLINE * 2), True)
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult) and result.block
    assert "timed out after 0.2 s" in (result.reason or "")


async def test_ui_wrapper_keeps_the_modes_own_ui_reachable(make_runner: MakeRunner) -> None:
    built = make_runner()
    ui = SlowUser(0)
    built.runner.set_ui(ui, True)
    built.runner.context.ui.notify("hi")
    assert ui.notifications == [("info", "hi")]
    assert built.runner.context.ui.notifications is ui.notifications  # type: ignore[attr-defined]


# -- cancellation swallowed --------------------------------------------------------------


def swallower(release: asyncio.Event, started: asyncio.Event | None = None) -> Any:
    """A handler that ignores every cancellation until ``release`` is set."""

    async def handler(event: Any, ctx: HookContext) -> None:
        if started is not None:
            started.set()
        while not release.is_set():
            with contextlib.suppress(asyncio.CancelledError):  # the attack: keep running
                await release.wait()

    return handler


async def test_tool_call_handler_ignoring_cancellation_is_abandoned_and_blocks() -> None:
    release = asyncio.Event()
    later: list[str] = []
    built = runner_with(
        ("tool_call", swallower(release)),
        ("tool_call", lambda e, c: later.append("x")),
        timeout=0.05,
        grace=0.05,
    )
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult) and result.block
    assert result.reason == (
        "tool_call hook /x/hook0.py timed out after 0.05 s and ignored its cancellation "
        "(abandoned after 0.05 s more); the call is blocked"
    )
    assert later == []
    assert [e.timed_out for e in built.errors] == [True]
    assert len(built.runner.orphans) == 1  # still running, detached
    release.set()
    await asyncio.wait(list(built.runner.orphans))
    assert built.runner.orphans == set()


async def test_notification_handler_ignoring_cancellation_cannot_hang_the_chain() -> None:
    release = asyncio.Event()
    ran: list[str] = []
    built = runner_with(
        ("turn_start", swallower(release)),
        ("turn_start", lambda e, c: ran.append("next")),
        timeout=0.05,
        grace=0.05,
    )
    await built.runner.emit(turn())
    assert ran == ["next"]
    assert len(built.errors) == 1 and "ignored its cancellation" in built.errors[0].error
    release.set()
    await asyncio.wait(list(built.runner.orphans))


async def test_handler_that_stops_within_the_grace_is_a_plain_timeout() -> None:
    async def tidy(event: Any, ctx: HookContext) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await asyncio.sleep(0)  # a little cleanup, then it ends

    built = runner_with(("tool_call", tidy), timeout=0.05, grace=5)
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult) and result.block
    assert result.reason == "tool_call hook /x/hook0.py timed out after 0.05 s; the call is blocked"
    assert built.runner.orphans == set()


async def test_handler_that_returns_after_its_cancellation_still_timed_out() -> None:
    async def answers_late(event: Any, ctx: HookContext) -> dict[str, Any]:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.Event().wait()
        return {"block": False}  # would allow the call

    built = runner_with(("tool_call", answers_late), timeout=0.05, grace=5)
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult) and result.block
    assert "timed out" in (result.reason or "")


async def test_callers_cancellation_ends_a_swallowing_handler_after_the_grace() -> None:
    release, started = asyncio.Event(), asyncio.Event()
    built = runner_with(("tool_call", swallower(release, started)), timeout=None, grace=0.05)
    task = asyncio.ensure_future(built.runner.emit_tool_call(call()))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert built.errors == []  # the runner's own cancellation is not a hook failure
    assert len(built.runner.orphans) == 1
    release.set()
    await asyncio.wait(list(built.runner.orphans))


async def test_abandon_inflight_ends_the_wait_at_once() -> None:
    started = asyncio.Event()

    async def hangs(event: Any, ctx: HookContext) -> None:
        started.set()
        await asyncio.Event().wait()

    built = runner_with(("tool_call", hangs), timeout=None, grace=5)
    task = asyncio.ensure_future(built.runner.emit_tool_call(call()))
    await started.wait()
    assert built.runner.abandon_inflight() == 1
    result = await task
    assert isinstance(result, ToolCallResult) and result.block
    assert result.reason == (
        "tool_call hook /x/hook0.py was stopped: the run was aborted; the call is blocked"
    )


async def test_abandon_inflight_also_ends_a_handler_waiting_on_a_dialog() -> None:
    started = asyncio.Event()

    class NeverAnswers(NoUI):
        async def confirm(self, title: str, message: str) -> bool:
            started.set()
            await asyncio.Event().wait()
            return True

    built = runner_with(("tool_call", lambda e, c: c.ui.confirm("ok?", "x")), timeout=0.05, grace=5)
    built.runner.set_ui(NeverAnswers(), True)
    task = asyncio.ensure_future(built.runner.emit_tool_call(call()))
    await started.wait()
    assert built.runner.abandon_inflight() == 1
    result = await task
    assert isinstance(result, ToolCallResult) and result.block
    assert "the run was aborted" in (result.reason or "")


# -- every exception type is the hook's failure --------------------------------------------


class Custom(BaseException):
    """A bare ``BaseException`` subclass."""


RAISED: list[BaseException] = [
    asyncio.CancelledError("mine"),
    KeyboardInterrupt("ctrl-c from a hook"),
    GeneratorExit("closing"),
    SystemExit(3),
    Custom("odd"),
]
IDS = ["CancelledError", "KeyboardInterrupt", "GeneratorExit", "SystemExit", "BaseException"]


def raiser(exc: BaseException, suspend: bool) -> Any:
    if not suspend:

        def sync(event: Any, ctx: HookContext) -> None:
            raise exc

        return sync

    async def later(event: Any, ctx: HookContext) -> None:
        await asyncio.sleep(0.001)
        raise exc

    return later


@pytest.mark.parametrize("suspend", [False, True], ids=["at-once", "after-suspending"])
@pytest.mark.parametrize("exc", RAISED, ids=IDS)
async def test_any_exception_in_tool_call_blocks(exc: BaseException, suspend: bool) -> None:
    built = runner_with(("tool_call", raiser(exc, suspend)), timeout=5, grace=1)
    result = await built.runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult) and result.block
    assert f"failed ({type(exc).__name__}" in (result.reason or "")
    assert "/x/hook0.py" in (result.reason or "")
    assert built.errors[0].exception is exc


@pytest.mark.parametrize("suspend", [False, True], ids=["at-once", "after-suspending"])
@pytest.mark.parametrize("exc", RAISED, ids=IDS)
async def test_any_exception_in_a_notification_is_reported(
    exc: BaseException, suspend: bool
) -> None:
    ran: list[str] = []
    built = runner_with(
        ("turn_start", raiser(exc, suspend)),
        ("turn_start", lambda e, c: ran.append("next")),
        timeout=5,
        grace=1,
    )
    await built.runner.emit(turn())
    assert ran == ["next"]
    assert [e.exception for e in built.errors] == [exc]
    assert [e.timed_out for e in built.errors] == [False]  # a failure, not a timeout


@pytest.mark.parametrize("suspend", [False, True], ids=["at-once", "after-suspending"])
@pytest.mark.parametrize("exc", RAISED, ids=IDS)
async def test_any_exception_in_tool_result_withholds_the_output(
    exc: BaseException, suspend: bool
) -> None:
    built = runner_with(("tool_result", raiser(exc, suspend)), timeout=5, grace=1)
    result = await built.runner.emit_tool_result(result_event())
    assert isinstance(result, ToolResultResult)
    assert result.is_error is True
    assert "SECRET" not in str(result.content)
    assert "the tool's output was withheld" in str(result.content)


@pytest.mark.parametrize("exc", RAISED, ids=IDS)
async def test_any_exception_in_a_command_is_reported(exc: BaseException) -> None:
    hook = LoadedHook("/x/cmd.py")
    HookAPI(hook).register_command("go", raiser(exc, suspend=True))
    runner = HookRunner([hook])
    errors: list[Any] = []
    runner.on_error(errors.append)
    assert await runner.run_command("go") is True
    assert [e.exception for e in errors] == [exc]


async def test_tool_result_timeout_withholds_the_output() -> None:
    built = runner_with(("tool_result", forever), timeout=0.05, grace=1)
    result = await built.runner.emit_tool_result(result_event())
    assert isinstance(result, ToolResultResult)
    assert result.is_error is True
    assert result.content == [
        text("tool_result hook /x/hook0.py timed out after 0.05 s; the tool's output was withheld")
    ]
