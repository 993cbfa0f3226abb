"""Direct rules (``tool_call``, ``tool_result``, notifications) await handlers inline.

Only a handler that really suspends meets a deadline, and each one that does
gets its own (not one for the whole chain); concurrent and nested emits keep
their deadlines apart; a swallowing ``tool_result`` handler is abandoned and
the output withheld; sync handlers and handlers returning awaitables still work.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from hookline.core import calling
from hookline.core.api import HookAPI, LoadedHook
from hookline.core.context import HookContext
from hookline.core.deadlines import TaskDeadline
from hookline.core.events import ToolCallEvent, ToolResultEvent, TurnStartEvent
from hookline.core.messages import text
from hookline.core.results import ToolCallResult, ToolResultResult
from hookline.core.runner import HookError, HookRunner


def call(call_id: str = "c1") -> ToolCallEvent:
    return ToolCallEvent(tool_name="bash", tool_call_id=call_id, input={"command": "ls"})


def runner_with(
    *handlers: tuple[str, Any], timeout: float | None, grace: float = 1.0, own: int = -1
) -> tuple[HookRunner, list[HookError]]:
    """One hook per handler (``/x/hook{i}.py``); hook ``own`` keeps its own deadlines."""
    runner = HookRunner(cwd=".", timeout=timeout, grace=grace)
    for i, (event, handler) in enumerate(handlers):
        hook = LoadedHook(path=f"/x/hook{i}.py", own_deadlines=i == own)
        api = HookAPI(hook)
        api.on(event, handler)
        runner.add_hook(hook, api)
    errors: list[HookError] = []
    runner.on_error(errors.append)
    return runner, errors


class Counted(TaskDeadline):
    made = 0

    def __init__(self, *args: Any) -> None:
        Counted.made += 1
        super().__init__(*args)


@pytest.fixture
def deadlines(monkeypatch: pytest.MonkeyPatch) -> type[Counted]:
    """Counts the deadlines the direct rules arm."""
    Counted.made = 0
    monkeypatch.setattr(calling, "TaskDeadline", Counted)
    return Counted


async def noop(event: Any, ctx: HookContext) -> None:
    return None


async def yields_once(event: Any, ctx: HookContext) -> None:
    await asyncio.sleep(0)


async def test_handlers_that_answer_at_once_meet_no_deadline(deadlines: type[Counted]) -> None:
    runner, errors = runner_with(
        *[("tool_call", noop)] * 9, ("tool_call", lambda e, c: None), timeout=5
    )
    assert await runner.emit_tool_call(call()) is None
    assert await runner.emit(TurnStartEvent(turn_index=0, timestamp=0.0)) is None
    assert deadlines.made == 0
    assert errors == []


async def test_each_suspending_handler_gets_one_deadline(deadlines: type[Counted]) -> None:
    runner, errors = runner_with(
        ("tool_call", noop),
        ("tool_call", yields_once),
        ("tool_call", noop),
        ("tool_call", yields_once),
        timeout=5,
    )
    assert await runner.emit_tool_call(call()) is None
    assert deadlines.made == 2
    assert errors == []


async def test_the_deadline_is_per_handler_not_per_chain() -> None:
    # Each handler takes 60 % of the deadline: a deadline for the whole chain would end
    # the second one; per handler, both finish.
    async def slowish(event: Any, ctx: HookContext) -> None:
        await asyncio.sleep(0.6)

    async def answers(event: Any, ctx: HookContext) -> dict[str, Any]:
        await asyncio.sleep(0.6)
        return {"block": True, "reason": "both ran"}

    runner, errors = runner_with(("tool_call", slowish), ("tool_call", answers), timeout=1.0)
    result = await runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult) and result.reason == "both ran"
    assert errors == []


async def test_concurrent_emits_keep_their_deadlines_apart() -> None:
    async def hangs_for_slow(event: ToolCallEvent, ctx: HookContext) -> dict[str, Any]:
        if event.tool_call_id == "slow":
            await asyncio.Event().wait()
        await asyncio.sleep(0)
        return {"block": True, "reason": f"answered {event.tool_call_id}"}

    runner, errors = runner_with(("tool_call", hangs_for_slow), timeout=0.2)
    slow, fast = await asyncio.gather(
        runner.emit_tool_call(call("slow")), runner.emit_tool_call(call("fast"))
    )
    assert isinstance(slow, ToolCallResult) and "timed out after 0.2 s" in (slow.reason or "")
    assert isinstance(fast, ToolCallResult) and fast.reason == "answered fast"
    assert [e.error for e in errors] == ["timed out after 0.2 s; the call is blocked"]


async def test_a_nested_emit_timing_out_is_the_inner_hooks_failure_only() -> None:
    inner_runner, inner_errors = runner_with(("tool_call", calling_forever()), timeout=0.1)

    async def outer(event: Any, ctx: HookContext) -> dict[str, Any]:
        inner = await inner_runner.emit_tool_call(call("inner"))
        assert isinstance(inner, ToolCallResult)
        return {"block": True, "reason": f"inner said: {inner.reason}"}

    # The outer hook keeps its own deadlines: it waits as long as the inner emit takes.
    runner, errors = runner_with(("tool_call", outer), timeout=0.1, own=0)
    result = await runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult)
    assert result.reason == (
        "inner said: tool_call hook /x/hook0.py timed out after 0.1 s; the call is blocked"
    )
    assert errors == []
    assert len(inner_errors) == 1


def calling_forever() -> Any:
    async def forever(event: Any, ctx: HookContext) -> None:
        await asyncio.Event().wait()

    return forever


async def test_own_deadlines_hook_is_not_timed_by_the_runner() -> None:
    async def slow(event: Any, ctx: HookContext) -> dict[str, Any]:
        await asyncio.sleep(0.3)
        return {"block": True, "reason": "took its time"}

    runner, errors = runner_with(("tool_call", slow), timeout=0.05, own=0)
    result = await runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult) and result.reason == "took its time"
    assert errors == []


async def test_tool_result_handler_ignoring_cancellation_is_abandoned_and_withholds() -> None:
    release = asyncio.Event()
    later: list[str] = []

    async def swallower(event: Any, ctx: HookContext) -> None:
        while not release.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await release.wait()

    runner, errors = runner_with(
        ("tool_result", swallower),
        ("tool_result", lambda e, c: later.append("x")),
        timeout=0.05,
        grace=0.05,
    )
    event = ToolResultEvent(
        tool_name="bash", tool_call_id="c1", input={}, content=[text("token=SECRET")]
    )
    result = await runner.emit_tool_result(event)
    assert isinstance(result, ToolResultResult) and result.is_error is True
    assert "SECRET" not in str(result.content)
    assert "ignored its cancellation" in str(result.content)
    assert later == []
    assert len(errors) == 1 and len(runner.orphans) == 1
    release.set()
    await asyncio.wait(list(runner.orphans))
    assert runner.orphans == set()


async def test_a_handler_that_stops_within_the_grace_lets_the_chain_go_on() -> None:
    ran: list[str] = []

    async def tidy(event: Any, ctx: HookContext) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await asyncio.sleep(0)  # a little cleanup, then it ends

    async def next_one(event: Any, ctx: HookContext) -> None:
        await asyncio.sleep(0)  # suspends again: back under a deadline of its own
        ran.append(type(asyncio.current_task()).__name__)

    runner, errors = runner_with(
        ("turn_start", tidy), ("turn_start", next_one), timeout=0.05, grace=5
    )
    await runner.emit(TurnStartEvent(turn_index=0, timestamp=0.0))
    assert ran == ["Task"]
    assert [e.error for e in errors] == ["timed out after 0.05 s"]
    assert runner.orphans == set()


async def test_sync_handlers_and_returned_awaitables() -> None:
    async def later(value: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        return value

    runner, errors = runner_with(
        ("tool_call", lambda e, c: {"input": {"command": "pwd"}}),
        ("tool_call", lambda e, c: later({"block": True, "reason": e.input["command"]})),
        timeout=5,
    )
    result = await runner.emit_tool_call(call())
    assert isinstance(result, ToolCallResult) and result.reason == "pwd"
    assert errors == []


async def test_blocks_name_the_deciding_hook_on_every_path() -> None:
    """A block, a failure, a timeout and an abandoned handler each carry the hook's path."""
    release = asyncio.Event()

    async def swallower(event: Any, ctx: HookContext) -> None:
        while not release.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await release.wait()

    async def suspends_then_blocks(event: Any, ctx: HookContext) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"block": True, "reason": "no"}

    def fails(event: Any, ctx: HookContext) -> None:
        raise RuntimeError("boom")

    cases: list[tuple[Any, float | None]] = [
        (lambda e, c: {"block": True, "reason": "no"}, None),
        (suspends_then_blocks, 5.0),
        (fails, None),
        (calling_forever(), 0.05),
        (swallower, 0.05),
    ]
    for handler, timeout in cases:
        runner, _ = runner_with(
            ("tool_call", lambda e, c: None),
            ("tool_call", handler),
            timeout=timeout,
            grace=0.05,
        )
        result = await runner.emit_tool_call(call())
        assert isinstance(result, ToolCallResult) and result.block, handler
        assert result.hook_path == "/x/hook1.py", handler
    release.set()


async def test_tool_result_middleware_carries_a_patch_across_a_suspending_handler() -> None:
    """The handler after one that suspended sees the patch, not the original output."""
    seen: list[str] = []

    async def redact(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any]:
        await asyncio.sleep(0)  # suspends: the rest of the chain runs after the resume
        return {"content": [text("token=[redacted]")]}

    def later(event: ToolResultEvent, ctx: HookContext) -> dict[str, Any]:
        seen.append(str(event.content))
        return {"is_error": False, "append": [text("checked")]}

    runner, errors = runner_with(("tool_result", redact), ("tool_result", later), timeout=5.0)
    event = ToolResultEvent(
        tool_name="bash", tool_call_id="c1", input={}, content=[text("token=SECRET")]
    )
    result = await runner.emit_tool_result(event)
    assert errors == []
    assert seen and "SECRET" not in seen[0] and "[redacted]" in seen[0]
    assert isinstance(result, ToolResultResult)
    assert result.content == [text("token=[redacted]")] and result.is_error is False
    assert result.append == [text("checked")]


async def test_the_driver_knows_the_handler_by_what_the_rule_took_not_by_a_name() -> None:
    """A direct rule may name its loop variable anything: the handler it waits in is the
    one it took last from ``handlers``. Here the second of three suspends past its
    deadline and swallows the cancellation: its own hook is named, and it is the one
    the rule's ``abandoned`` continuation hears of."""
    from hookline.core.calling import DirectRule, HandlerCalls, Late, start_direct
    from hookline.core.driver import Resume

    async def quick(event: Any, ctx: HookContext) -> None:
        return None

    release = asyncio.Event()

    async def stubborn(event: Any, ctx: HookContext) -> None:
        while not release.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await release.wait()

    async def run(calls: HandlerCalls, event: Any, handlers: Any, late: Late) -> str:
        for taken in handlers:  # not called ``entry``
            try:
                await taken[1](event, calls.context)
                if late:
                    raise late.timeout()
            except BaseException:
                if late.abandoned:
                    return "quiet"
                raise
        return "ended"

    heard: list[tuple[int, str]] = []

    async def abandoned(calls: Any, event: Any, entries: Any, index: int, text: str) -> str:
        heard.append((index, entries[index][0]))
        return text

    errors: list[HookError] = []
    calls = HandlerCalls(HookContext(cwd="."), 0.05, errors.append, grace=0.05)
    calls.own_deadlines.add("/x/a.py")  # the first would never time out: not the one named
    entries = [("/x/a.py", quick), ("/x/b.py", stubborn), ("/x/c.py", quick)]
    driver = start_direct(calls, DirectRule(run, abandoned), call(), entries)
    assert type(driver) is Resume
    text = await driver
    assert heard == [(1, "/x/b.py")]
    assert text == calls.ignored("timed out after 0.05 s")
    assert len(calls.orphans) == 1
    release.set()
    await asyncio.wait(list(calls.orphans))


def test_no_code_reads_a_frames_locals() -> None:
    from pathlib import Path

    import hookline

    src = Path(hookline.__file__).parent
    readers = [str(p.relative_to(src)) for p in src.rglob("*.py") if "f_locals" in p.read_text()]
    assert readers == []


async def test_emit_where_runs_only_the_hooks_it_accepts() -> None:
    seen: list[int] = []
    runner, errors = runner_with(
        ("turn_start", lambda e, ctx: seen.append(0)),
        ("turn_start", lambda e, ctx: seen.append(1)),
        timeout=None,
    )
    event = TurnStartEvent(turn_index=0, timestamp=0.0)
    await runner.emit(event, where=lambda path: path == "/x/hook1.py")
    await runner.emit(event, where=lambda path: False)
    await runner.emit(event)
    assert seen == [1, 0, 1]
    assert errors == []
